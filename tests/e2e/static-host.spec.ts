import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { postApi, registerUser } from '../support/api';
import { expect, test } from '../support/e2e';
import { freePort } from '../support/freePort';
import { ROOT } from '../support/local-server';
import { uniqueEmail, waitForApp } from '../support/pages';

/**
 * The site on a plain static host, the API elsewhere (README, "The site"): the production build
 * made with `VITE_API_URL` naming the API's origin, served by a file server that knows nothing of
 * the site (files as they are, a folder's index.html, the build's 404.html for anything else, no
 * headers of its own), the real local server as the API on another origin. An invite link
 * stores its code, the click reaches the inviter's counter through the API, and every page
 * carries its Content-Security-Policy itself.
 */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

let site = '';
let host: Server;
let hostUrl = '';

/** A file server as plain as a static host: GitHub Pages' rules (a path, its index.html, 404.html). */
function plainFileServer(root: string): Server {
  return createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname);
    const candidates = [path, join(path, 'index.html'), `${path}.html`].map((p) =>
      resolve(join(root, p)),
    );
    const file = candidates.find(
      (p) => (p === root || p.startsWith(root + sep)) && existsSync(p) && statSync(p).isFile(),
    );
    const served = file ?? join(root, '404.html');
    res.writeHead(file ? 200 : 404, {
      'Content-Type': TYPES[extname(served)] ?? 'application/octet-stream',
    });
    res.end(readFileSync(served));
  });
}

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(240_000);
  site = mkdtempSync(join(tmpdir(), 'smw-static-'));
  const api = new URL(baseURL!);
  const built = spawnSync('npx', ['vite', 'build', '--outDir', site, '--emptyOutDir'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: {
      ...process.env,
      VITE_API_URL: `${api.origin}/api/`,
      VITE_WS_URL: `ws://${api.host}/ws`,
    },
  });
  if (built.status !== 0)
    throw new Error(`the static-host build failed:\n${(built.stdout + built.stderr).slice(-3000)}`);
  const port = await freePort();
  host = plainFileServer(site);
  await new Promise<void>((done) => host.listen(port, '127.0.0.1', done));
  hostUrl = `http://127.0.0.1:${port}`;
});

test.afterAll(async () => {
  await new Promise<void>((done) => (host ? host.close(() => done()) : done()));
  if (site) rmSync(site, { recursive: true, force: true });
});

const clicksOf = async (baseURL: string, jwt: string) => {
  const answer = await postApi(baseURL, 'user/data', {}, jwt);
  return (answer.body.user_data as { user_data: { referral: { clicks: number } } }).user_data
    .referral.clicks;
};

test('an invite link on a static host stores its code, counts the click through the API, and the page carries its CSP', async ({
  page,
  browser,
  baseURL,
  allowConsoleErrors,
}) => {
  const inviter = await registerUser(baseURL!, uniqueEmail('static-inviter'));
  const code = inviter.userData.user_invite_code;
  // A host without rules answers the link with its 404.html and status 404 (the browser says so
  // in its console); the page is the app all the same.
  allowConsoleErrors(`status of 404 (Not Found) (${hostUrl}/r/${code}:0)`);
  expect(await clicksOf(baseURL!, inviter.jwt)).toBe(0);

  await page.goto(`${hostUrl}/r/${code}`);
  await waitForApp(page);
  // Home, with the code stored (§2 Routes) once the API has said it is a player's, and shown in
  // the sign-in dialog.
  await expect(page).toHaveURL(`${hostUrl}/`);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('codeInvite'))).toBe(code);
  await page.getByRole('button', { name: 'Get Access' }).first().click();
  await expect(page.getByRole('dialog')).toContainText(code.toUpperCase());

  // The click reached the API on its other origin.
  await expect.poll(() => clicksOf(baseURL!, inviter.jwt), { timeout: 10_000 }).toBe(1);

  // The policy is in the page (no header from this host): hashes of its own inline blocks, the
  // API's origin for its calls, nothing for framing (a meta policy cannot say it).
  const policy = await page
    .locator('meta[http-equiv="Content-Security-Policy"]')
    .getAttribute('content');
  expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+/);
  expect(policy).toContain(`connect-src 'self' ${new URL(baseURL!).origin}`);
  expect(policy).toContain("object-src 'none'");
  expect(policy).not.toContain('frame-ancestors');
  // Every built page carries it, the 404 page the host answers with too.
  for (const file of ['index.html', '404.html', 'invite.html', 'docs/intro/index.html']) {
    const html = readFileSync(join(site, file), 'utf8');
    expect(html, file).toMatch(/<head>\s*<meta http-equiv="Content-Security-Policy"/);
  }
  // A script the build did not write is refused by the meta policy (in a tab of its own: the
  // refusal is a CSP report, which the watched page counts as a fault).
  const other = await browser.newPage();
  try {
    await other.goto(`${hostUrl}/`);
    const injected = await other.evaluate(() => {
      const w = window as unknown as { __ran?: boolean };
      const script = document.createElement('script');
      script.textContent = 'window.__ran = true';
      document.head.append(script);
      return w.__ran === true;
    });
    expect(injected, 'an injected inline script ran').toBe(false);
  } finally {
    await other.close();
  }
});
