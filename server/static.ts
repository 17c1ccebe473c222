import { createHash } from 'node:crypto';
import { createReadStream, statSync, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.wasm': 'application/wasm',
};
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.svg',
  '.txt',
  '.xml',
  '.webmanifest',
]);
const GZIP_MIN_BYTES = 1024;

/** CSP source expressions (`'sha256-…'`) of a page's own inline scripts and styles. */
export type InlineHashes = { scripts: readonly string[]; styles: readonly string[] };

const NO_INLINE: InlineHashes = { scripts: [], styles: [] };
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;

const sha256Source = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The hashes of the inline `<script>` and `<style>` blocks the build wrote into a page (the theme
 * script and the critical CSS): only these exact bytes run or apply, anything injected later
 * does not.
 */
export function inlineHashesOf(html: string): InlineHashes {
  const hashes = (pattern: RegExp) => [
    ...new Set([...html.matchAll(pattern)].map((m) => sha256Source(m[1] ?? ''))),
  ];
  return { scripts: hashes(INLINE_SCRIPT), styles: hashes(INLINE_STYLE) };
}

/**
 * The production policy (reliability guide), plus the API, websocket and RPC hosts and the
 * hashes of the page's own inline blocks.
 */
export function contentSecurityPolicy(
  connectSrc: readonly string[],
  inline: InlineHashes = NO_INLINE,
): string {
  const connect = ["'self'", 'ws:', 'wss:', ...connectSrc].join(' ');
  return [
    "default-src 'self'",
    ["script-src 'self'", ...inline.scripts].join(' '),
    ["style-src 'self'", ...inline.styles].join(' '),
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `connect-src ${connect}`,
  ].join('; ');
}

export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
} as const;

export type ServedFile = { path: string; stat: Stats; isPage: boolean };

/**
 * Serves the built site: files as they are, pre-rendered pages (`docs/intro/index.html` or
 * `docs/intro.html`) for their routes, and index.html for every other extension-less route.
 */
export function createStaticSite(siteDir: string, connectSrc: readonly string[]) {
  const root = resolve(siteDir);
  const gzipCache = new Map<string, Buffer>();
  const policyCache = new Map<string, string>();

  /** A page's policy, from its inline blocks as they are on disk now. */
  const policyOf = async (file: ServedFile, etag: string): Promise<string> => {
    const key = `${file.path}:${etag}`;
    let policy = policyCache.get(key);
    if (!policy) {
      policy = contentSecurityPolicy(connectSrc, inlineHashesOf(await readFile(file.path, 'utf8')));
      policyCache.set(key, policy);
    }
    return policy;
  };

  const fileAt = (relative: string): ServedFile | undefined => {
    const path = resolve(join(root, relative));
    if (path !== root && !path.startsWith(root + sep)) return undefined;
    try {
      const stat = statSync(path);
      if (stat.isFile()) return { path, stat, isPage: extname(path) === '.html' };
      if (stat.isDirectory()) return fileAt(join(relative, 'index.html'));
    } catch {
      return undefined;
    }
    return undefined;
  };

  /** Which file answers `pathname`; undefined means 404. */
  const resolveFile = (pathname: string): ServedFile | undefined => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return undefined;
    }
    if (decoded.includes('\0') || decoded.split('/').includes('..')) return undefined;
    const direct = fileAt(decoded);
    if (direct) return direct;
    const last = decoded.split('/').pop() ?? '';
    if (last.includes('.')) return undefined;
    return fileAt(`${decoded.replace(/\/+$/, '')}.html`) ?? fileAt('index.html');
  };

  const cacheControl = (pathname: string, file: ServedFile): string => {
    if (file.isPage) return 'no-cache';
    if (pathname.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
    return 'public, max-age=300';
  };

  return {
    resolveFile,
    async serve(
      req: IncomingMessage,
      res: ServerResponse,
      pathname: string,
      file: ServedFile,
    ): Promise<void> {
      const ext = extname(file.path);
      const etag = `W/"${file.stat.size.toString(16)}-${Math.floor(file.stat.mtimeMs).toString(16)}"`;
      const headers: Record<string, string | number> = {
        'Content-Type': TYPES[ext] ?? 'application/octet-stream',
        'Cache-Control': cacheControl(pathname, file),
        ETag: etag,
        Vary: 'Accept-Encoding',
        ...SECURITY_HEADERS,
      };
      if (file.isPage) {
        headers['Content-Security-Policy'] = await policyOf(file, etag);
        headers['X-Frame-Options'] = 'DENY';
      }
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      const acceptsGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
      if (acceptsGzip && COMPRESSIBLE.has(ext) && file.stat.size >= GZIP_MIN_BYTES) {
        const key = `${file.path}:${etag}`;
        let body = gzipCache.get(key);
        if (!body) {
          body = gzipSync(await readFile(file.path));
          gzipCache.set(key, body);
        }
        res.writeHead(200, {
          ...headers,
          'Content-Encoding': 'gzip',
          'Content-Length': body.length,
        });
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      }
      res.writeHead(200, { ...headers, 'Content-Length': file.stat.size });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      createReadStream(file.path)
        .on('error', () => res.destroy())
        .pipe(res);
    },
  };
}

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
