/**
 * `npm run build:server` (and `npm run build`): the server as plain JavaScript, one ES module
 * `build/server/main.mjs` bundled by esbuild from server/main.ts and what it imports (contract/,
 * server/); packages stay in node_modules (`packages: 'external'`), so the bundle runs from its
 * place in this checkout with `node build/server/main.mjs`.
 *
 * `--if-stale` (what `npm run server` runs first) builds only when the bundle is missing or a
 * source it was built from changed since (the esbuild metafile beside it lists them), so a
 * server never runs an older copy of the code.
 *
 * The bundle is written to a temporary file and renamed into place: a server starting while
 * another build runs reads a whole bundle, the old or the new.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = join(root, 'build/server/main.mjs');
const metaFile = `${SERVER_BUNDLE}.meta.json`;

/** True when the bundle is missing or older than one of its sources. */
function isStale() {
  if (!existsSync(SERVER_BUNDLE) || !existsSync(metaFile)) return true;
  const builtAt = statSync(SERVER_BUNDLE).mtimeMs;
  let inputs;
  try {
    inputs = Object.keys(JSON.parse(readFileSync(metaFile, 'utf8')).inputs ?? {});
  } catch {
    return true;
  }
  return inputs.some((input) => {
    const path = join(root, input);
    return !existsSync(path) || statSync(path).mtimeMs > builtAt;
  });
}

if (process.argv.includes('--if-stale') && !isStale()) process.exit(0);

mkdirSync(dirname(SERVER_BUNDLE), { recursive: true });
const temporary = `${SERVER_BUNDLE}.${process.pid}.tmp`;
const started = Date.now();
let result;
try {
  result = await build({
    absWorkingDir: root,
    entryPoints: ['server/main.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    outfile: temporary,
    metafile: true,
    logLevel: 'warning',
  });
} catch {
  // esbuild has printed the errors.
  console.error('build:server: the server did not build, see above.');
  process.exit(1);
}
writeFileSync(`${metaFile}.${process.pid}.tmp`, JSON.stringify(result.metafile));
renameSync(`${metaFile}.${process.pid}.tmp`, metaFile);
renameSync(temporary, SERVER_BUNDLE);
const kib = Math.round(statSync(SERVER_BUNDLE).size / 1024);
console.log(
  `build:server: ${SERVER_BUNDLE.slice(root.length + 1)} (${kib} KiB) in ${Date.now() - started} ms`,
);
