/**
 * `npm start`: builds the site in local mode (.local/site), then runs the local server in
 * development mode on one URL: the site, the API, the websocket and the local chain's JSON-RPC.
 * The SQLite file and secrets live in DATA_DIR (default .data). Exit codes are forwarded and
 * Ctrl-C stops the server.
 *
 * SKIP_BUILD=1 serves the existing .local/site without rebuilding.
 *
 * The build mode is `localsite`: Vite reserves the name `local` (it clashes with `.env.*.local`
 * files), so `import.meta.env.MODE === 'localsite'` marks the local-mode build in the site code.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const siteDir = join(root, '.local/site');
export const SITE_BUILD_MODE = 'localsite';
const bin = (name) =>
  join(root, 'node_modules/.bin', process.platform === 'win32' ? `${name}.cmd` : name);

let child;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopping = true;
    if (child && child.exitCode === null) child.kill(signal);
    else process.exit(130);
  });
}

/** Runs a command, resolving with its exit code (a signal death counts as failure). */
function run(command, args, env) {
  return new Promise((done) => {
    child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', (error) => {
      console.error(`Could not run ${command}: ${error.message}`);
      done(1);
    });
    child.on('exit', (code, signal) =>
      done(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : 15) : 1)),
    );
  });
}

if (!existsSync(join(root, 'index.html'))) {
  console.error('index.html is missing: there is no site to build.');
  process.exit(1);
}

if (process.env.SKIP_BUILD === '1' && existsSync(join(siteDir, 'index.html'))) {
  console.log(`Serving the existing build in ${siteDir}`);
} else {
  console.log('Building the site (local mode)...');
  const built = await run(bin('vite'), [
    'build',
    '--mode',
    SITE_BUILD_MODE,
    '--outDir',
    siteDir,
    '--emptyOutDir',
  ]);
  if (built !== 0 || stopping) {
    if (!stopping) console.error(`The site build failed (exit code ${built}).`);
    process.exit(built || 1);
  }
}

const code = await run(process.execPath, ['--import', 'tsx', join(root, 'server/main.ts')], {
  SERVER_MODE: process.env.SERVER_MODE || 'development',
  DATA_DIR: process.env.DATA_DIR || join(root, '.data'),
  SITE_DIR: siteDir,
});
process.exit(stopping && (code === 130 || code === 143) ? 0 : code);
