import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildClock } from '../../src/prerender/buildClock';

/**
 * Issue 52: one commit and one configuration build the same `dist/`, file names and bytes, so a
 * page opened before a restart or a deploy of the same commit asks for files that still exist.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'smw-repro-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every file under `dir`, as its path relative to `dir` → sha256 of its bytes. */
function fingerprint(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else
        files.set(
          relative(dir, path),
          createHash('sha256').update(readFileSync(path)).digest('hex'),
        );
    }
  };
  walk(dir);
  return files;
}

/** `npm run build` (vite build) into `outDir`, with no build time given. */
function build(outDir: string): Map<string, string> {
  // The environment of a shell, not of this runner (Vitest's NODE_ENV and VITEST* change the build).
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith('VITEST') && !['NODE_ENV', 'TEST', 'MODE'].includes(key),
    ),
  );
  delete env.SMW_BUILT_AT;
  delete env.SOURCE_DATE_EPOCH;
  delete env.SMW_PRERENDER_NESTED;
  const result = spawnSync(
    join(ROOT, 'node_modules/.bin/vite'),
    ['build', '--outDir', outDir, '--emptyOutDir'],
    { cwd: ROOT, env, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stdout}${result.stderr}`);
  return fingerprint(outDir);
}

describe('reproducible builds (issue 52)', () => {
  it('two builds of one commit give the same dist/: the same file names and the same bytes', () => {
    const first = build(join(work, 'first'));
    const second = build(join(work, 'second'));
    const hashed = [...first.keys()].filter((name) => /^assets\/.+-[\w-]{8}\.js$/.test(name));
    console.log(
      `reproducible build: ${first.size} files, ${hashed.length} hashed scripts, compared byte for byte`,
    );
    expect(hashed.length).toBeGreaterThan(10);
    expect([...second.keys()].sort()).toEqual([...first.keys()].sort());
    const differing = [...first].filter(([name, hash]) => second.get(name) !== hash);
    expect(differing.map(([name]) => name)).toEqual([]);
  }, 300_000);

  it('dates the build by SMW_BUILT_AT, then SOURCE_DATE_EPOCH, then the commit, never the clock in a checkout', () => {
    const commit = () => 1_700_000_000_000;
    expect(buildClock({ SMW_BUILT_AT: '1764547200000' }, ROOT, commit)).toEqual({
      at: 1_764_547_200_000,
      source: 'SMW_BUILT_AT',
    });
    expect(buildClock({ SOURCE_DATE_EPOCH: '1764547200' }, ROOT, commit)).toEqual({
      at: 1_764_547_200_000,
      source: 'SOURCE_DATE_EPOCH',
    });
    expect(buildClock({}, ROOT, commit)).toEqual({ at: 1_700_000_000_000, source: 'commit' });
    expect(buildClock({}, ROOT, () => undefined).source).toBe('clock');
    // This checkout has a commit: the real lookup finds its time.
    expect(buildClock({}, ROOT).source).toBe('commit');
  });
});
