import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../server/app';
import { writeBrotliCopies, writeBrotliCopy } from '../../../src/prerender/precompress';
import { startTestServer } from '../../support/api';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
  "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; connect-src 'self'";

const INLINE_SCRIPT = "document.documentElement.setAttribute('data-theme', 'auto');";
const INLINE_STYLE = 'body{margin:0}';
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

let siteDir: string;
let server: RunningServer;
const bigScript = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const bigPage = `<p>${'y'.repeat(4000)}</p>`;
let brotliCopies = 0;

/** The raw bytes of a response and its headers, as they travel (no decoding). */
async function rawGet(url: string, acceptEncoding: string) {
  const { request } = await import('node:http');
  return new Promise<{ status: number; encoding?: string; body: Buffer }>((resolve, reject) => {
    request(url, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          encoding: res.headers['content-encoding'],
          body: Buffer.concat(chunks),
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

beforeAll(async () => {
  siteDir = mkdtempSync(join(tmpdir(), 'smw-static-'));
  writeFileSync(join(siteDir, 'index.html'), '<!doctype html><title>Home shell</title>');
  writeFileSync(join(siteDir, 'invite.html'), '<!doctype html><title>Invite shell</title>');
  writeFileSync(join(siteDir, '404.html'), '<!doctype html><title>Not found shell</title>');
  mkdirSync(join(siteDir, 'assets'));
  writeFileSync(join(siteDir, 'assets', 'index-AbC123.js'), bigScript);
  writeFileSync(join(siteDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  mkdirSync(join(siteDir, 'docs', 'intro'), { recursive: true });
  writeFileSync(
    join(siteDir, 'docs', 'intro', 'index.html'),
    '<!doctype html><title>Intro page</title>',
  );
  writeFileSync(join(siteDir, 'secret.txt'), 'inside');
  mkdirSync(join(siteDir, 'docs', 'lore'), { recursive: true });
  writeFileSync(
    join(siteDir, 'docs', 'lore', 'index.html'),
    `<!doctype html><head><script>${INLINE_SCRIPT}</script><style>${INLINE_STYLE}</style>` +
      '<script type="module" src="/assets/index-AbC123.js"></script></head><title>Lore</title>',
  );
  // The build's last step: Brotli copies of the text files worth compressing.
  mkdirSync(join(siteDir, 'br'));
  writeFileSync(
    join(siteDir, 'br', 'page.html'),
    `<!doctype html><title>Brotli page</title>${bigPage}`,
  );
  writeFileSync(join(siteDir, 'assets', 'app-Br0tl1.js'), bigScript);
  writeFileSync(join(siteDir, 'assets', 'tiny-T1ny.js'), 'console.log(1);');
  brotliCopies = await writeBrotliCopies(join(siteDir, 'br'));
  for (const file of ['app-Br0tl1.js', 'tiny-T1ny.js'])
    if (await writeBrotliCopy(join(siteDir, 'assets', file))) brotliCopies += 1;
  server = await startTestServer({
    plugins: [],
    siteDir,
    rpcUrl: 'https://rpc.example.org/abc',
    connectSrc: ['https://api.example.org'],
  });
});
afterAll(async () => {
  await server.close();
  rmSync(siteDir, { recursive: true, force: true });
});

describe('static site', () => {
  it('serves index.html at / with the production CSP plus the API and RPC hosts', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(response.headers.get('content-security-policy')).toBe(
      `${CSP} https://api.example.org https://rpc.example.org`,
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    expect(response.headers.get('strict-transport-security')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toContain('Home shell');
  });

  it('serves a pre-rendered route page when there is one', async () => {
    const response = await fetch(`${server.url}/docs/intro`);
    expect(await response.text()).toContain('Intro page');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it("allows exactly the page's own inline script and style blocks by their hashes", async () => {
    const response = await fetch(`${server.url}/docs/lore`);
    expect(await response.text()).toContain('Lore');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain(`script-src 'self' ${sha256(INLINE_SCRIPT)};`);
    expect(policy).toContain(`style-src 'self' ${sha256(INLINE_STYLE)};`);
    expect(policy).not.toContain('unsafe-inline');
    // Another page without inline blocks keeps the bare policy.
    const home = await fetch(`${server.url}/`);
    expect(home.headers.get('content-security-policy')).toContain(
      "script-src 'self'; style-src 'self';",
    );
  });

  it('serves index.html for the app routes without a page, the invite page for invite links', async () => {
    const expected = [
      ['/docs/token', 'Home shell'],
      ['/docs', 'Home shell'],
      ['/r/ABC', 'Invite shell'],
      ['/ref/ABC/', 'Invite shell'],
      // Whatever the code spells once decoded, an invite link is the invite page.
      ['/r/a%2Fb', 'Invite shell'],
      ['/r/%00abc', 'Invite shell'],
      ['/r/..%2F..%2Fetc', 'Invite shell'],
      // An invite link without a code has nothing to store: it is Home.
      ['/ref/', 'Home shell'],
      ['/r', 'Home shell'],
    ];
    for (const [path, shell] of expected) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain(shell);
    }
  });

  it('sends a page path it cannot decode to the same path without its escapes, on this site', async () => {
    for (const [path, location] of [
      ['/ref/ab%E0%A4%A', '/ref/ab'],
      ['/docs/x%E0?y=1', '/docs/x?y=1'],
      ['//evil.example%E0', '/evil.example'],
      ['/%5C%5Cevil.example%E0', '/evil.example'],
    ]) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe(location);
    }
  });

  it('answers any other path with the Page not found page and status 404', async () => {
    for (const path of ['/anything/else', '/rr', '/r/ABC/more', '/docs/a/b']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toMatch(/text\/html/);
      expect(await response.text(), path).toContain('Not found shell');
    }
  });

  it('caches hashed assets for a year, gzipped when asked', async () => {
    const response = await fetch(`${server.url}/assets/index-AbC123.js`, {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('content-security-policy')).toBeNull();
    // fetch decodes gzip itself; the header says it was compressed on the wire.
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.text()).toBe(bigScript);
  });

  it('sends real gzip bytes', async () => {
    const { request } = await import('node:http');
    const body = await new Promise<Buffer>((resolve, reject) => {
      request(
        `${server.url}/assets/index-AbC123.js`,
        { headers: { 'Accept-Encoding': 'gzip' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        },
      )
        .on('error', reject)
        .end();
    });
    expect(body.length).toBeLessThan(bigScript.length);
    expect(gunzipSync(body).toString()).toBe(bigScript);
  });

  it("sends the build's Brotli copy to a browser that accepts Brotli, gzip to one that does not", async () => {
    // index-AbC123.js has no copy: compressed on the fly.
    expect(brotliCopies).toBe(2);
    const asset = `${server.url}/assets/app-Br0tl1.js`;
    const br = await rawGet(asset, 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(bigScript);
    const gzip = await rawGet(asset, 'gzip');
    expect(gzip.encoding).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(bigScript);
    const plain = await rawGet(asset, 'identity');
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.toString()).toBe(bigScript);
    // A copy is never stale or missing for what the browser asked: no copy, compressed on the fly.
    const onTheFly = await rawGet(`${server.url}/assets/index-AbC123.js`, 'br, gzip');
    expect(onTheFly.encoding).toBe('gzip');
    expect(gunzipSync(onTheFly.body).toString()).toBe(bigScript);
  });

  it('sends a page as Brotli with its headers and status unchanged', async () => {
    const response = await fetch(`${server.url}/br/page`, { headers: { 'Accept-Encoding': 'br' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toContain('Brotli page');
  });

  it('writes no copy of a file too small to gain from one', () => {
    expect(existsSync(join(siteDir, 'assets', 'tiny-T1ny.js.br'))).toBe(false);
    expect(existsSync(join(siteDir, 'assets', 'app-Br0tl1.js.br'))).toBe(true);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(`${server.url}/favicon.svg`);
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    // A browser revalidating its cached copy sends If-None-Match alone; fetch() would add
    // Cache-Control: no-cache (an end-to-end reload, answered 200), so plain node:http here.
    const { request } = await import('node:http');
    const status = await new Promise<number | undefined>((resolve, reject) => {
      request(`${server.url}/favicon.svg`, { headers: { 'If-None-Match': etag } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(304);
  });

  it('answers a Range request on the promo video with 206 and just those bytes', async () => {
    const video = readFileSync(join(process.cwd(), 'public', 'media', 'promo.webm'));
    const site = await startTestServer({ plugins: [], siteDir: join(process.cwd(), 'public') });
    try {
      const response = await fetch(`${site.url}/media/promo.webm`, {
        headers: { Range: 'bytes=100-1123' },
      });
      expect(response.status).toBe(206);
      expect(response.headers.get('content-range')).toBe(`bytes 100-1123/${video.length}`);
      expect(response.headers.get('content-type')).toMatch(/video\/webm/);
      expect(Buffer.from(await response.arrayBuffer()).equals(video.subarray(100, 1124))).toBe(
        true,
      );
    } finally {
      await site.close();
    }
  });

  it('answers 404 for a missing file with an extension', async () => {
    const response = await fetch(`${server.url}/assets/missing-123.js`);
    expect(response.status).toBe(404);
  });

  it('never serves files outside the site folder', async () => {
    for (const path of [
      '/..%2f..%2fetc%2fpasswd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/docs/%2e%2e%2f%2e%2e%2fpackage.json',
    ]) {
      const response = await fetch(`${server.url}${path}`);
      const text = await response.text();
      expect(text).not.toContain('root:');
      expect(text).not.toContain('"dependencies"');
    }
  });

  it('API answers still win over the site', async () => {
    const response = await fetch(`${server.url}/api/sess/init`, { method: 'POST', body: '{}' });
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
  });
});
