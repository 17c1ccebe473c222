import { resolve, join } from 'node:path';
import type { RunningServer, StartOptions } from '../../server/app';
import { startTestServer } from './api';

export type { RunningServer, StartOptions };

export const ROOT = resolve(import.meta.dirname, '../..');
/**
 * Where the e2e global setup puts the local-mode build of the site: one folder per run (removed
 * after it), or the fixed `.local/e2e-site` with E2E_REUSE_BUILD=1.
 */
export function e2eSiteDir(): string {
  if (process.env.E2E_SITE_DIR) return process.env.E2E_SITE_DIR;
  if (process.env.E2E_REUSE_BUILD === '1' || !process.env.E2E_RUN_ID) {
    return join(ROOT, '.local/e2e-site');
  }
  return join(ROOT, `.local/e2e-site-${process.env.E2E_RUN_ID}`);
}

/** The local-mode build of this run (in the workers: the folder the global setup built). */
export const E2E_SITE_DIR = e2eSiteDir();

/**
 * The real local server for browser tests: a free loopback port, a fresh data folder (fresh
 * SQLite file), development mode, serving the local-mode build. `close()` may be called twice
 * (a test that stops its server, then the fixture's cleanup).
 */
export async function startLocalServer(opts: Partial<StartOptions> = {}): Promise<RunningServer> {
  let server: RunningServer;
  try {
    server = await startTestServer({ siteDir: e2eSiteDir(), ...opts });
  } catch (error) {
    throw new Error(`The local server did not start: ${String(error)}`, { cause: error });
  }
  let closed: Promise<void> | null = null;
  return {
    ...server,
    close: () => (closed ??= server.close()),
  };
}
