import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import pg from 'pg';
import { expect, test } from '../support/e2e';
import { freePort } from '../support/freePort';
import { PIN_COOKIE, startNginx, type Nginx } from '../support/nginx';
import { startPostgres, type TestPostgres } from '../support/postgres';
import { ROOT, serverProcess, type ServerProcess } from '../support/serverProcess';
import { codeIn, startTestSmtp, type TestSmtp } from '../support/smtp';
import {
  openFreshInviteTab,
  payFromAnotherWallet,
  uniqueEmail,
  waitForApp,
} from '../support/pages';

/**
 * A launch as a studio deploys it, in the browser: PostgreSQL, the chain as its own process
 * (`npm run chain`), two built instances in production mode on that one database, and nginx in
 * front (Debian's, started here). Each browser is pinned to one instance by a cookie only this
 * test's nginx reads (tests/support/nginx.ts), so the players below talk to the instance the
 * test names: the inviter's page on one, the friend's on the other. Whatever crosses between
 * them crosses through the database (LISTEN/NOTIFY), as in a deployment.
 */
const LIVE_WITHIN_MS = 10_000;
const FROM = 'Solana Mafia Wars <play@studio.test>';

let postgres: TestPostgres;
let databaseUrl = '';
let smtp: TestSmtp;
let chain: ChildProcess;
let chainBase = '';
let nginx: Nginx;
const folders: string[] = [];
const instances: ServerProcess[] = [];

async function startChain(dir: string): Promise<string> {
  chain = spawn(process.execPath, ['--import', 'tsx', 'server/chain/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, CHAIN_PORT: '0', CHAIN_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise<string>((done, fail) => {
    let out = '';
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const url = /JSON-RPC at (http:\/\/\S+)\/rpc/.exec(out)?.[1];
      if (url) done(url);
    };
    chain.stdout!.on('data', read);
    chain.stderr!.on('data', read);
    chain.on('exit', (code) => fail(new Error(`npm run chain exited with ${code}: ${out}`)));
  });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  postgres = await startPostgres();
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE smw_instances');
  await admin.end();
  const url = new URL(postgres.url);
  url.pathname = '/smw_instances';
  databaseUrl = url.toString();
  smtp = await startTestSmtp();
  const shared = mkdtempSync(join(tmpdir(), 'smw-instances-'));
  folders.push(shared);
  chainBase = await startChain(join(shared, 'chain'));
  const ports: number[] = [];
  for (let i = 0; i < 2; i += 1) {
    const proc = serverProcess(`instances-e2e-${i}`);
    await proc.build();
    const dataDir = mkdtempSync(join(tmpdir(), `smw-instance-${i}-`));
    folders.push(dataDir);
    const port = await freePort();
    await proc.start({
      SERVER_MODE: 'production',
      PORT: String(port),
      SITE_DIR: join(ROOT, 'dist'),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SOLANA_RPC_URL: `${chainBase}/rpc`,
      TRUST_PROXY: '127.0.0.1',
      SMTP_URL: smtp.url,
      MAIL_FROM: FROM,
      MAIL_TRANSPORT: '',
      SITE_URL: 'https://play.studio.test',
    });
    instances.push(proc);
    ports.push(port);
  }
  nginx = await startNginx({
    instances: ports.map((port) => `127.0.0.1:${port}`),
    pinByCookie: true,
  });
});

test.afterAll(async () => {
  try {
    await nginx?.stop();
    for (const proc of instances) proc.dispose();
    chain?.kill('SIGTERM');
    await smtp?.stop();
  } finally {
    // Whatever failed above, the cluster this file started does not outlive it.
    postgres?.stop();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  }
});

/** A browser of its own whose every request nginx sends to instance `n` (1 or 2). */
async function browserOn(browser: Browser, n: 1 | 2): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: nginx.url });
  await context.addCookies([{ name: PIN_COOKIE, value: String(n), url: nginx.url }]);
  // The close codes of the page's sockets, as the page's own WebSocket objects saw them.
  await context.addInitScript(() => {
    const w = window as unknown as { __socketCloses: number[] };
    w.__socketCloses = [];
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        this.addEventListener('close', (event) => w.__socketCloses.push(event.code));
      }
    };
  });
  return context;
}

const socketCloses = (page: Page) =>
  page.evaluate(() => (window as unknown as { __socketCloses: number[] }).__socketCloses);

const dialog = (page: Page) => page.getByRole('dialog');

/** Signs in through the dialog with the code the real SMTP server received. */
async function signIn(page: Page, email: string, path = '/') {
  await page.goto(path);
  await waitForApp(page);
  await page.getByRole('button', { name: 'Get Access' }).first().click();
  await dialog(page).getByLabel('E-mail').fill(email);
  await dialog(page).getByRole('button', { name: 'Continue' }).click();
  await expect(dialog(page).getByRole('heading', { name: 'Verify E-mail' })).toBeVisible({
    timeout: 10_000,
  });
  const code = codeIn((await smtp.next(email)).text);
  expect(code, 'the e-mail carries a six-digit code').toMatch(/^\d{6}$/);
  await dialog(page)
    .getByRole('textbox', { name: /^Digit \d of 6$/ })
    .first()
    .click();
  await page.keyboard.type(code!);
  const verify = dialog(page).getByRole('button', { name: 'Verify' });
  if (await verify.isEnabled()) await verify.click().catch(() => {});
  await expect(dialog(page)).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByRole('button', { name: 'Exit' })).toBeVisible();
}

/** The request lines instance `n` wrote for `path` (production logs one JSON line per request). */
const linesFor = (n: 1 | 2, path: string) =>
  instances[n - 1]!.output()
    .split('\n')
    .filter((line) => line.includes(`"path":"${path}"`)).length;

test('two instances behind nginx: the inviter sees a friend on the other instance live; Exit on one closes the socket the other holds', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const contexts: BrowserContext[] = [];
  try {
    // A signs in on instance 1 and keeps the Invite tab open, never reloaded.
    const contextA = await browserOn(browser, 1);
    contexts.push(contextA);
    const a = await contextA.newPage();
    const emailA = uniqueEmail('inviter-1');
    await signIn(a, emailA);
    let navigations = 0;
    a.on('framenavigated', (frame) => {
      if (frame === a.mainFrame()) navigations += 1;
    });
    const code = await openFreshInviteTab(a);

    // A second tab of A's, on instance 2 (A's sign-in carried over as the browser keeps it).
    const contextA2 = await browserOn(browser, 2);
    contexts.push(contextA2);
    await contextA2.addInitScript(
      (stored: Record<string, string>) => {
        if (sessionStorage.getItem('__seeded')) return;
        sessionStorage.setItem('__seeded', '1');
        for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value);
      },
      await a.evaluate(() => ({ ...localStorage })),
    );
    const a2 = await contextA2.newPage();
    await a2.goto('/');
    await waitForApp(a2);
    await expect(a2.getByRole('button', { name: 'Exit' })).toBeVisible();
    await a2.getByRole('tab', { name: 'Invite' }).click();

    // B follows A's link on instance 2, signs up and pays from a wallet app.
    const contextB = await browserOn(browser, 2);
    contexts.push(contextB);
    const b = await contextB.newPage();
    await signIn(b, uniqueEmail('friend-2'), `/r/${code}`);
    for (const page of [a, a2]) {
      await expect(page.getByTestId('counter-registered')).toHaveText('1', {
        timeout: LIVE_WITHIN_MS,
      });
      await expect(page.getByTestId('counter-clicks')).not.toHaveText('0');
    }
    await payFromAnotherWallet(b, chainBase, 0);
    await expect(b.getByRole('dialog', { name: 'Ticket Purchased!' })).toBeVisible({
      timeout: 20_000,
    });
    for (const page of [a, a2]) {
      await expect(page.getByTestId('counter-confirmed')).toHaveText('1/2', {
        timeout: LIVE_WITHIN_MS,
      });
    }
    expect(navigations, "A's page was never reloaded").toBe(0);

    // Each player was served by the instance named: A signed in on 1, B on 2.
    expect(linesFor(1, '/api/auth/email/verify'), 'sign-ins answered by instance 1').toBe(1);
    expect(linesFor(2, '/api/auth/email/verify'), 'sign-ins answered by instance 2').toBe(1);

    // A exits on instance 1: the socket of A's tab on instance 2 is closed as signed out (4401).
    expect(await socketCloses(a2), "A's second tab's socket is open").toEqual([]);
    await a.getByRole('button', { name: 'Exit' }).click();
    await expect(a.getByRole('button', { name: 'Get Access' }).first()).toBeVisible();
    await expect
      .poll(() => socketCloses(a2), { timeout: LIVE_WITHIN_MS, message: 'closed by instance 2' })
      .toContain(4401);
    // B, on instance 2 as well, keeps a live socket: only A's session ended.
    expect(await socketCloses(b)).not.toContain(4401);
  } finally {
    for (const context of contexts) await context.close();
  }
});
