import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * The hashed files (`assets/`) of earlier releases of the site, kept after a deploy so a page
 * opened before it still finds the parts it loads later (a dialog, a docs page, the QR panel).
 * Every start copies the served build's `assets/` into the archive, named as they are (the names
 * carry the content's hash, so two releases never clash), with a manifest per release. A release
 * is kept while it is one of the last `keepReleases` started, or was started less than `keepDays`
 * ago, whichever keeps more. Instances of a rolling deploy that share one archive folder each
 * find the files of the others' releases.
 */
export type ReleaseArchive = {
  /** The archive folder (default `DATA_DIR/site-releases`; shared by instances of one site). */
  dir: string;
  /** How many of the latest releases are kept whatever their age. */
  keepReleases: number;
  /** How many days a release is kept after its last start, whatever the count. */
  keepDays: number;
};

export const DEFAULT_KEEP_RELEASES = 5;
export const DEFAULT_KEEP_DAYS = 14;
/** A file copied this recently is never pruned: another instance may be registering it. */
const FRESH_FILE_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const ASSETS = 'assets';
const RELEASES = 'releases';

type Manifest = { release: string; startedAt: number; files: string[] };

/**
 * The archive's settings from the server's environment: `SITE_RELEASES_DIR`,
 * `SITE_KEEP_RELEASES`, `SITE_KEEP_DAYS`. A value that is not a whole number throws, naming it.
 */
export function releaseArchiveFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  dataDir: string,
): ReleaseArchive {
  const whole = (name: string, fallback: number): number => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number, got ${value}`);
    return Number(value);
  };
  return {
    dir: resolve(env.SITE_RELEASES_DIR || join(dataDir, 'site-releases')),
    keepReleases: whole('SITE_KEEP_RELEASES', DEFAULT_KEEP_RELEASES),
    keepDays: whole('SITE_KEEP_DAYS', DEFAULT_KEEP_DAYS),
  };
}

/** Writes `data` to `path` whole or not at all (temporary file, then rename). */
async function writeAtomically(path: string, data: string | Buffer): Promise<void> {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, path);
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * Registers the build in `siteDir` in the archive (its manifest first, then its files), then
 * prunes the releases and files no longer kept. Returns the release id (a hash of the build's
 * file names) and what the archive holds.
 */
export async function archiveRelease(
  siteDir: string,
  archive: ReleaseArchive,
  now: number = Date.now(),
): Promise<{ release: string; releases: number; files: number }> {
  const assetsDir = join(siteDir, ASSETS);
  const names = (await readdir(assetsDir, { withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
  const release = createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 16);
  const filesDir = join(archive.dir, ASSETS);
  const releasesDir = join(archive.dir, RELEASES);
  await mkdir(filesDir, { recursive: true });
  await mkdir(releasesDir, { recursive: true });
  // The manifest before the files: an instance pruning meanwhile sees the release and keeps them.
  const manifest: Manifest = { release, startedAt: now, files: names };
  await writeAtomically(join(releasesDir, `${release}.json`), JSON.stringify(manifest));
  for (const name of names) {
    const target = join(filesDir, name);
    if (await exists(target)) continue;
    const temporary = `${target}.${process.pid}.tmp`;
    await copyFile(join(assetsDir, name), temporary);
    await rename(temporary, target);
  }
  return { release, ...(await prune(archive, now)) };
}

/** Drops the releases no longer kept, then every archived file no kept release lists. */
async function prune(
  archive: ReleaseArchive,
  now: number,
): Promise<{ releases: number; files: number }> {
  const releasesDir = join(archive.dir, RELEASES);
  const filesDir = join(archive.dir, ASSETS);
  const manifests: Manifest[] = [];
  for (const name of await readdir(releasesDir)) {
    if (!name.endsWith('.json')) continue;
    try {
      manifests.push(JSON.parse(await readFile(join(releasesDir, name), 'utf8')) as Manifest);
    } catch {
      // A torn or foreign file: not a release this archive keeps.
    }
  }
  manifests.sort((a, b) => b.startedAt - a.startedAt);
  const keptSince = now - archive.keepDays * DAY_MS;
  const kept = manifests.filter(
    (manifest, index) => index < archive.keepReleases || manifest.startedAt >= keptSince,
  );
  for (const manifest of manifests)
    if (!kept.includes(manifest))
      await rm(join(releasesDir, `${manifest.release}.json`), { force: true });
  const keptFiles = new Set(kept.flatMap((manifest) => manifest.files));
  let files = 0;
  for (const name of await readdir(filesDir)) {
    if (keptFiles.has(name)) {
      files += 1;
      continue;
    }
    const path = join(filesDir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > FRESH_FILE_MS) await rm(path, { force: true });
    else if (info) files += 1;
  }
  return { releases: kept.length, files };
}

/** The folder holding archived asset files, for serving them. */
export const archivedAssetsDir = (archive: ReleaseArchive): string => join(archive.dir, ASSETS);
