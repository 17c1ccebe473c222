import { execFileSync } from 'node:child_process';

/** Where the build's clock came from, printed by the build. */
export type BuildClock = {
  at: number;
  source: 'SMW_BUILT_AT' | 'SOURCE_DATE_EPOCH' | 'commit' | 'clock';
};

/**
 * The instant the site is built for (the dated copy of the pre-rendered pages reads it). It lands
 * in the hashed files, so it must not be the wall clock: two builds of one commit would differ in
 * every file that imports it, and an open page would ask for names the next build never wrote.
 * In order: `SMW_BUILT_AT` (ms), `SOURCE_DATE_EPOCH` (s, the reproducible-builds convention),
 * the commit's time (`git log -1 --format=%ct`); the wall clock only outside a git checkout.
 */
export function buildClock(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  commitTime: (cwd: string) => number | undefined = gitCommitTime,
): BuildClock {
  const explicit = instant(env.SMW_BUILT_AT, 1);
  if (explicit !== undefined) return { at: explicit, source: 'SMW_BUILT_AT' };
  const epoch = instant(env.SOURCE_DATE_EPOCH, 1000);
  if (epoch !== undefined) return { at: epoch, source: 'SOURCE_DATE_EPOCH' };
  const commit = commitTime(cwd);
  if (commit !== undefined) return { at: commit, source: 'commit' };
  return { at: Date.now(), source: 'clock' };
}

function instant(value: string | undefined, unit: number): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim()) * unit;
}

/** The committer time of HEAD in ms, or undefined outside a git checkout. */
function gitCommitTime(cwd: string): number | undefined {
  try {
    const out = execFileSync('git', ['log', '-1', '--format=%ct'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return instant(out, 1000);
  } catch {
    return undefined;
  }
}
