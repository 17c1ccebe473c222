import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, relative, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { INVITE_PAGE_FILE, NOT_FOUND_PAGE_FILE } from '../contract/site';
import { contentSecurityPolicy, inlineHashesOf } from './csp';
import {
  archivedAssetsDir,
  archiveRelease,
  releaseArchiveFromEnv,
  type ReleaseArchive,
} from './siteReleases';

/**
 * What a browser may use, on every answer (helmet has no option for this one header; the others
 * come from @fastify/helmet, server/app.ts).
 */
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()';

/** HSTS, one year with the subdomains, sent only behind TLS (HSTS=1). */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

/** A file to send: where it is, and the folder it is sent from (the site, or the archive). */
type ServedFile = { path: string; stat: Stats; isPage: boolean; root: string };

/** Invite links: Home, previewed as an invite. */
const INVITE_ROUTE = /^\/(?:r|ref)\/[^/]+\/?$/;
/** A hashed file of the build (`/assets/name`), which an earlier release may have had. */
const ARCHIVED_FILE = /^\/assets\/[^/]+$/;
/** The app's other routes without a pre-rendered page of their own (§2): Home renders them. */
const APP_ROUTE = /^\/(?:|docs(?:\/[^/]*)?|r|ref|__machines)\/?$/;

/**
 * Serves the built site through @fastify/static (ETag, 304, Range requests for the video; the
 * build's Brotli copies, else @fastify/compress gzips): files as they are, pre-rendered pages
 * (`docs/intro/index.html` or `docs/intro.html`) for their routes, the invite page for `/r/{code}`,
 * index.html for the app's other routes, and the Page not found page with status 404 for any other
 * extension-less path. Pages carry their own CSP with the hashes of their inline blocks.
 * With `archiveOf` (the data folder, or the archive's settings), the build's hashed files are archived at start and those of earlier releases
 * still answer (server/siteReleases.ts): a page opened before a deploy finds what it loads later.
 */
export async function registerStaticSite(
  app: FastifyInstance,
  siteDir: string,
  connectSrc: readonly string[],
  onPage: (req: FastifyRequest) => void | Promise<void>,
  archiveOf?: ReleaseArchive | { dataDir: string },
): Promise<SiteHandler> {
  const root = resolve(siteDir);
  // The server's data folder: the archive's settings come from its environment.
  const releases =
    archiveOf && 'dataDir' in archiveOf
      ? releaseArchiveFromEnv(process.env, archiveOf.dataDir)
      : archiveOf;
  if (releases) {
    const archived = await archiveRelease(root, releases);
    app.log.info(
      archived,
      `site release ${archived.release}: ${archived.releases} releases' assets kept in ${releases.dir}`,
    );
  }
  const archiveRoot = releases && archivedAssetsDir(releases);
  const policyCache = new Map<string, string>();
  // A file's Brotli copy (`file.br`, written by the build: src/prerender/precompress.ts) goes to
  // a browser that accepts Brotli; any other file or browser gets @fastify/compress's gzip.
  await app.register(fastifyStatic, {
    root,
    serve: false,
    cacheControl: false,
    index: false,
    preCompressed: true,
  });

  /** A page's policy, from its inline blocks as they are on disk now. */
  const policyOf = async (file: ServedFile): Promise<string> => {
    const key = `${file.path}:${file.stat.size}:${file.stat.mtimeMs}`;
    let policy = policyCache.get(key);
    if (!policy) {
      policy = contentSecurityPolicy(connectSrc, inlineHashesOf(await readFile(file.path, 'utf8')));
      policyCache.set(key, policy);
    }
    return policy;
  };

  /** The file at a path of the site (a folder's index.html); the disk is read asynchronously. */
  const fileAt = async (relativePath: string, base = root): Promise<ServedFile | undefined> => {
    const path = resolve(join(base, relativePath));
    if (path !== base && !path.startsWith(base + sep)) return undefined;
    const found = await stat(path).catch(() => undefined);
    if (found?.isFile())
      return { path, stat: found, isPage: extname(path) === '.html', root: base };
    if (found?.isDirectory()) return fileAt(join(relativePath, 'index.html'), base);
    return undefined;
  };

  /** Which file answers `pathname`, with which status; undefined means the API's 404. */
  const resolveFile = async (
    pathname: string,
  ): Promise<{ file: ServedFile; status: 200 | 404 } | undefined> => {
    // An invite link is the invite page whatever its code spells once decoded (a slash, a NUL,
    // dots): the app cleans the code (§5), the path never names a file. (A malformed escape never
    // gets here: the router sends it to the same path without escapes, server/app.ts.)
    if (INVITE_ROUTE.test(pathname)) {
      const invite = (await fileAt(INVITE_PAGE_FILE)) ?? (await fileAt('index.html'));
      return invite && { file: invite, status: 200 };
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return undefined;
    }
    if (decoded.includes('\0') || decoded.split('/').includes('..')) return undefined;
    const direct = await fileAt(decoded);
    if (direct) return { file: direct, status: 200 };
    // A hashed file of an earlier release, for a page opened before the deploy.
    const archived =
      archiveRoot && ARCHIVED_FILE.test(decoded)
        ? await fileAt(decoded.slice('/assets/'.length), archiveRoot)
        : undefined;
    if (archived) return { file: archived, status: 200 };
    const last = decoded.split('/').pop() ?? '';
    if (last.includes('.')) return undefined;
    const page = await fileAt(`${decoded.replace(/\/+$/, '')}.html`);
    if (page) return { file: page, status: 200 };
    const home = await fileAt('index.html');
    if (APP_ROUTE.test(decoded)) return home && { file: home, status: 200 };
    const notFound = (await fileAt(NOT_FOUND_PAGE_FILE)) ?? home;
    return notFound && { file: notFound, status: 404 };
  };

  const cacheControl = (pathname: string, file: ServedFile): string => {
    if (file.isPage) return 'no-cache';
    if (pathname.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
    return 'public, max-age=300';
  };

  return async (req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    const resolved = await resolveFile(pathname);
    if (!resolved) return false;
    const { file, status } = resolved;
    reply.code(status);
    if (file.isPage) {
      if (req.method === 'GET') await onPage(req);
      reply.header('Content-Security-Policy', await policyOf(file));
    }
    reply.header('Cache-Control', cacheControl(pathname, file));
    // Not returned: a reply is a thenable of its own end, so awaiting it would wait for the
    // whole file and then read as undefined (the caller took that for "no file").
    void reply.sendFile(relative(file.root, file.path), file.root);
    return true;
  };
}

/** Answers a GET or HEAD with a file of the site (true: being sent), or false (404). */
export type SiteHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<boolean>;

/** The invite code of `/r/{code}`, `/ref/{code}` or `/?i={code}`, if the request carries one. */
export function inviteCodeOfPage(url: URL): string | undefined {
  const match = /^\/(?:r|ref)\/([^/]+)\/?$/.exec(url.pathname);
  if (match) {
    try {
      return decodeURIComponent(match[1]!);
    } catch {
      return undefined;
    }
  }
  if (url.pathname === '/' || url.pathname === '/index.html')
    return url.searchParams.get('i') ?? undefined;
  return undefined;
}
