import { createHash } from 'node:crypto';

/**
 * The pages' Content-Security-Policy, one definition for the two places that write it: the
 * server's header on each page it serves (server/static.ts) and, for a site on a static host
 * where no header can be set, the `<meta http-equiv>` the build writes into each page
 * (src/prerender/prerenderPlugin.ts).
 */
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
  { meta = false }: { meta?: boolean } = {},
): string {
  // 'self' covers the same-origin websocket too (ws: and wss: of this host).
  const connect = ["'self'", ...connectSrc].join(' ');
  return [
    "default-src 'self'",
    ["script-src 'self'", ...inline.scripts].join(' '),
    ["style-src 'self'", ...inline.styles].join(' '),
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    // A policy in a <meta> cannot forbid framing (browsers ignore frame-ancestors there).
    ...(meta ? [] : ["frame-ancestors 'none'"]),
    `connect-src ${connect}`,
  ].join('; ');
}

/**
 * A page with its policy as a `<meta http-equiv>`, first in its head (before any script or
 * style, so it governs them all): for a static host, which sends no header. What a meta policy
 * cannot do: forbid framing (`frame-ancestors`), report (`report-uri`), or cover what the browser
 * reads before the head (nothing here).
 */
export function withMetaPolicy(html: string, connectSrc: readonly string[]): string {
  const policy = contentSecurityPolicy(connectSrc, inlineHashesOf(html), { meta: true });
  const tag = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
  if (!/<head>/i.test(html)) throw new Error('a page without <head>: no place for its policy');
  return html.replace(/<head>/i, (head) => `${head}\n    ${tag}`);
}
