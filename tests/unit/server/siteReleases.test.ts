import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  archiveRelease,
  DEFAULT_KEEP_DAYS,
  DEFAULT_KEEP_RELEASES,
  releaseArchiveFromEnv,
  type ReleaseArchive,
} from '../../../server/siteReleases';
import { serversClosedAfterEach } from '../../support/servers';

/**
 * Issue 52: a page opened before a restart or a deploy still finds the hashed files it loads
 * later: the server keeps earlier releases' `assets/` (the last 5 releases, and every release
 * started in the last 14 days), here over real HTTP.
 */
const work = mkdtempSync(join(tmpdir(), 'smw-releases-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const startServer = serversClosedAfterEach();
let folders = 0;
const folder = (name: string) => join(work, `${name}-${(folders += 1)}`);

/** A built site whose `assets/` holds `files` (name → text). */
function site(files: Record<string, string>): string {
  const dir = folder('site');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Home</title>');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'assets', name), text);
  return dir;
}

const OLD = { 'SignInModal-Old11111.js': 'export const old = 1;', 'index-Old22222.js': 'old()' };
const NEW = { 'SignInModal-New33333.js': 'export const now = 2;', 'index-New44444.js': 'now()' };

const get = async (url: string) => {
  const answer = await fetch(url);
  return {
    status: answer.status,
    text: await answer.text(),
    cache: answer.headers.get('cache-control'),
  };
};

const savedEnv = { ...process.env };
afterEach(() => {
  process.env = { ...savedEnv };
});

describe('earlier releases keep their hashed files (issue 52)', () => {
  it('after a restart with a new build, the old build’s files still answer; unknown ones are 404', async () => {
    const dataDir = folder('data');
    const before = await startServer({ dataDir, siteDir: site(OLD) });
    expect((await get(`${before.url}/assets/SignInModal-Old11111.js`)).status).toBe(200);
    await before.close();

    const after = await startServer({ dataDir, siteDir: site(NEW) });
    const old = await get(`${after.url}/assets/SignInModal-Old11111.js`);
    expect(old).toMatchObject({ status: 200, text: OLD['SignInModal-Old11111.js'] });
    expect(old.cache).toBe('public, max-age=31536000, immutable');
    expect((await get(`${after.url}/assets/SignInModal-New33333.js`)).status).toBe(200);
    // A file no kept release had: the server answers (404), it does not hang or reset.
    expect((await get(`${after.url}/assets/SignInModal-Never000.js`)).status).toBe(404);
    // Only hashed files come from the archive, never pages or paths outside assets/.
    expect((await get(`${after.url}/assets/..%2Findex-Old22222.js`)).status).toBe(404);
  });

  it('two instances of a rolling deploy sharing one archive serve each other’s releases', async () => {
    process.env.SITE_RELEASES_DIR = folder('shared');
    const oldInstance = await startServer({ dataDir: folder('data'), siteDir: site(OLD) });
    const newInstance = await startServer({ dataDir: folder('data'), siteDir: site(NEW) });
    // A page of the old release reaching a new instance, and one of the new reaching an old one.
    expect((await get(`${newInstance.url}/assets/SignInModal-Old11111.js`)).text).toBe(
      OLD['SignInModal-Old11111.js'],
    );
    expect((await get(`${oldInstance.url}/assets/SignInModal-New33333.js`)).text).toBe(
      NEW['SignInModal-New33333.js'],
    );
  });

  it('keeps the last N releases and every release started within the days kept, no more', async () => {
    const archive: ReleaseArchive = { dir: folder('archive'), keepReleases: 2, keepDays: 3 };
    const day = 24 * 60 * 60 * 1000;
    // Later than any file's copy time: the archive's files count as settled, not fresh.
    const start = Date.now() + 30 * day;
    const builds = [0, 1, 2, 3, 4].map((n) => site({ [`part-Rel${n}000.js`]: `release ${n}` }));
    // Releases started on days 0, 10, 11, 20 and 21: on day 21 the last two (20, 21) are the
    // count kept, day 20 and 21 also the days kept; 0, 10 and 11 go.
    const days = [0, 10, 11, 20, 21];
    let last = { releases: 0, files: 0 };
    for (const [n, build] of builds.entries())
      last = await archiveRelease(build, archive, start + days[n]! * day);
    expect(last).toMatchObject({ releases: 2, files: 2 });
    expect(readdirSync(join(archive.dir, 'assets')).sort()).toEqual([
      'part-Rel3000.js',
      'part-Rel4000.js',
    ]);
    // Days kept beyond the count: a third release two days old stays.
    const wide: ReleaseArchive = { dir: folder('archive'), keepReleases: 1, keepDays: 3 };
    for (const [n, build] of builds.slice(0, 3).entries())
      await archiveRelease(build, wide, start + [0, 5, 6][n]! * day);
    expect(readdirSync(join(wide.dir, 'assets')).sort()).toEqual([
      'part-Rel1000.js',
      'part-Rel2000.js',
    ]);
  });

  it('reads its settings from the environment and refuses a value that is not a whole number', () => {
    expect(releaseArchiveFromEnv({}, '/srv/data')).toEqual({
      dir: '/srv/data/site-releases',
      keepReleases: DEFAULT_KEEP_RELEASES,
      keepDays: DEFAULT_KEEP_DAYS,
    });
    expect(DEFAULT_KEEP_RELEASES).toBe(5);
    expect(DEFAULT_KEEP_DAYS).toBe(14);
    expect(
      releaseArchiveFromEnv(
        { SITE_RELEASES_DIR: '/mnt/shared', SITE_KEEP_RELEASES: '3', SITE_KEEP_DAYS: '30' },
        '/srv/data',
      ),
    ).toEqual({ dir: '/mnt/shared', keepReleases: 3, keepDays: 30 });
    expect(() => releaseArchiveFromEnv({ SITE_KEEP_RELEASES: 'five' }, '/d')).toThrow(
      'SITE_KEEP_RELEASES',
    );
    expect(() => releaseArchiveFromEnv({ SITE_KEEP_DAYS: '-1' }, '/d')).toThrow('SITE_KEEP_DAYS');
  });

  it('a site without assets/ starts and archives nothing', async () => {
    const dir = folder('bare');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    const archive: ReleaseArchive = { dir: folder('archive'), keepReleases: 5, keepDays: 14 };
    expect(await archiveRelease(dir, archive)).toMatchObject({ files: 0, releases: 1 });
    expect(existsSync(join(archive.dir, 'assets'))).toBe(true);
  });
});
