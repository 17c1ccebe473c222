import { resolve, join } from 'node:path';
import type { RunningServer, StartOptions } from '../../server/app';
import { startTestServer } from './api';

export type { RunningServer, StartOptions };

export const ROOT = resolve(import.meta.dirname, '../..');
/** Where the e2e global setup puts the local-mode build of the site. */
export const E2E_SITE_DIR = join(ROOT, '.local/e2e-site');

/**
 * The real local server for browser tests: a free loopback port, a fresh data folder (fresh
 * SQLite file), development mode, serving the local-mode build. `close()` may be called twice
 * (a test that stops its server, then the fixture's cleanup).
 */
export async function startLocalServer(opts: Partial<StartOptions> = {}): Promise<RunningServer> {
  let server: RunningServer;
  try {
    server = await startTestServer({ siteDir: E2E_SITE_DIR, ...opts });
  } catch (error) {
    throw new Error(`The local server did not start: ${String(error)}`, { cause: error });
  }
  let closed: Promise<void> | null = null;
  return {
    ...server,
    close: () => (closed ??= server.close()),
  };
}
