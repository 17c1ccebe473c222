import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Options of the local server's `startServer` (server/app.ts). */
export type ServerOptions = {
  port: number;
  dataDir: string;
  mode: 'development' | 'production';
  siteDir?: string;
  [option: string]: unknown;
};
export type RunningServer = { url: string; close: () => Promise<void> | void };
type ServerModule = {
  startServer: (opts: ServerOptions) => Promise<RunningServer> | RunningServer;
};

export const ROOT = resolve(import.meta.dirname, '../..');
/** Where the global setup puts the local-mode build of the site. */
export const E2E_SITE_DIR = join(ROOT, '.local/e2e-site');

async function loadServer(): Promise<ServerModule> {
  const file = join(ROOT, 'server/app.ts');
  if (!existsSync(file)) {
    throw new Error(
      `The local server is missing: ${file} does not exist (it exports startServer).`,
    );
  }
  // Loaded by path so this file compiles before and after the server lands.
  const mod = (await import(pathToFileURL(file).href)) as Partial<ServerModule>;
  if (typeof mod.startServer !== 'function') {
    throw new Error('server/app.ts does not export startServer({ port, dataDir, mode, siteDir }).');
  }
  return mod as ServerModule;
}

/**
 * Starts the real local server on a free loopback port with a fresh data folder (fresh SQLite
 * file). `close()` stops it and removes the folder.
 */
export async function startLocalServer(
  opts: Partial<ServerOptions> = {},
): Promise<RunningServer & { dataDir: string }> {
  const { startServer } = await loadServer();
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'smw-e2e-'));
  let server: RunningServer;
  try {
    server = await startServer({
      port: 0,
      mode: 'development',
      siteDir: E2E_SITE_DIR,
      ...opts,
      dataDir,
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`The local server did not start: ${String(error)}`, { cause: error });
  }
  let closed = false;
  return {
    url: server.url,
    dataDir,
    close: async () => {
      if (closed) return;
      closed = true;
      await server.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
