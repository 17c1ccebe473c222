import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { registerUser } from '../support/api';
import { expect, test } from '../support/e2e';
import {
  airdrop,
  fakeWalletCalls,
  getBalance,
  installFakeWallets,
  newTestKey,
  transactionCount,
  type FakeWalletOptions,
  type TestKey,
} from '../support/fakeWallets';
import { PHONE_UA } from '../support/pages';
import { SPEC_TIMERS } from '../support/oracle';

/**
 * §2 Get Ticket / Access-granted modal, §4 Payment, §8 wallet errors: the real local-mode site
 * against the real local server and its local chain, with injected Phantom / Solflare providers
 * that really sign (Ed25519) and send through the chain's JSON-RPC.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const CANCELLED = "Transaction cancelled. Click the button again when you're ready.";
const DEV_WALLET_MARKER = 'SMW_DEV_WALLET';
const ONE_SOL = 1_000_000_000;

let userCount = 0;

/** Registers a user over the API and puts its tokens into storage before the site loads. */
async function signIn(page: Page, baseURL: string) {
  userCount += 1;
  const email = `payer${userCount}.${Date.now()}@example.com`;
  const user = await registerUser(baseURL, email);
  await page.addInitScript(
    (tokens: { jwt: string; refreshToken: string; sessionToken: string }) => {
      // Only the first load: later loads keep whatever the site stored (renewed tokens).
      if (localStorage.getItem('jwt')) return;
      localStorage.setItem('jwt', tokens.jwt);
      localStorage.setItem('refreshToken', tokens.refreshToken);
      localStorage.setItem('sessionToken', tokens.sessionToken);
    },
    { jwt: user.jwt, refreshToken: user.refreshToken, sessionToken: user.sessionToken },
  );
  return { email, user };
}

async function openTicketTab(page: Page) {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Get Ticket' }).click();
  await expect(page.getByRole('heading', { name: 'Complete Transfer' })).toBeVisible({
    timeout: 15_000,
  });
}

/** The price shown as "Required amount: ... <strong>0.22 SOL</strong>", as lamports. */
async function shownPriceLamports(page: Page): Promise<number> {
  const text = (await page.locator('.ticket-amount strong').textContent()) ?? '';
  const match = /^(\d+(?:\.\d+)?) SOL$/.exec(text.trim());
  expect(match, `price text: ${text}`).not.toBeNull();
  return Math.round(Number(match?.[1]) * ONE_SOL);
}

async function setUp(
  page: Page,
  baseURL: string,
  wallet: Partial<FakeWalletOptions> & Pick<FakeWalletOptions, 'wallets'>,
  fundLamports: number | null = ONE_SOL,
): Promise<{ key: TestKey; email: string; paymentAddress: string }> {
  const key = newTestKey();
  if (fundLamports !== null) await airdrop(baseURL, key.publicKey, fundLamports);
  await installFakeWallets(page, { seed: key.seed, publicKey: key.publicKey, ...wallet });
  const { email, user } = await signIn(page, baseURL);
  await openTicketTab(page);
  return { key, email, paymentAddress: user.userData.user_payment_wallet };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function filesWith(dir: string, marker: string): string[] {
  return filesUnder(dir)
    .filter((f) => /\.(js|html)$/.test(f))
    .filter((f) => readFileSync(f, 'utf8').includes(marker));
}

test('the development wallet is in the local-mode build only, never in dist/', () => {
  const dist = join(ROOT, 'dist');
  const site = process.env.E2E_SITE_DIR ?? join(ROOT, '.local/e2e-site');
  expect(existsSync(join(dist, 'index.html')), 'dist/ is built by the e2e global setup').toBe(true);
  // The marker is real: the local-mode build carries the development wallet.
  expect(filesWith(site, DEV_WALLET_MARKER).length).toBeGreaterThan(0);
  expect(filesWith(dist, DEV_WALLET_MARKER)).toEqual([]);
  expect(filesWith(dist, '__smwDevWallet')).toEqual([]);
});

test('the local-mode build pays with the development wallet from its own, marked button', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  await signIn(page, baseURL!);
  await openTicketTab(page);
  const count = await transactionCount(baseURL!);
  const tool = page.getByTestId('local-wallet');
  await expect(tool).toContainText('Development tool');
  await tool.getByRole('button', { name: 'Pay with the local test wallet (local chain)' }).click();
  await expect(page.getByRole('dialog', { name: 'Ticket Purchased!' })).toBeVisible({
    timeout: 20_000,
  });
  // The development wallet's key is funded by airdrop when low, then pays: one or two transactions.
  expect(await transactionCount(baseURL!)).toBeGreaterThan(count);
});

for (const [button, message] of [
  ['Send in Phantom', 'Phantom wallet not detected'],
  ['Send in Solflare', 'Solflare wallet not detected'],
] as const) {
  test(`${button} without the extension says "${message}" every time, also once the development wallet has loaded`, async ({
    page,
    context,
    baseURL,
  }) => {
    // The install sites are answered here: no request leaves the machine.
    await context.route(/^https:\/\/(www\.)?(phantom|solflare)\.(com|app)\//, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Wallet</title>' }),
    );
    await signIn(page, baseURL!);
    await openTicketTab(page);
    // The development wallet's code has loaded under its own name; the extension slots stay empty.
    await page.waitForFunction(() => '__smwLocalWallet' in window);
    expect(await page.evaluate(() => 'phantom' in window || 'solflare' in window)).toBe(false);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await page.getByRole('button', { name: button }).click();
      const modal = page.getByRole('dialog', { name: 'Error Detected' });
      await expect(modal.getByTestId('error-message')).toHaveText(message);
      await modal.getByRole('button', { name: 'Close', exact: true }).click();
      await expect(modal).toBeHidden();
    }
    // The development wallet paid nothing: only its own button uses it.
    expect(await page.evaluate(() => 'phantom' in window || 'solflare' in window)).toBe(false);
  });
}

for (const wallet of ['phantom', 'solflare'] as const) {
  const button = wallet === 'phantom' ? 'Send in Phantom' : 'Send in Solflare';
  test(`pays the ticket with ${wallet}: Ticket Purchased! with the amount, then Access Granted! after reload [§4.payment.granted]`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const { key, email, paymentAddress } = await setUp(page, baseURL!, { wallets: [wallet] });
    const price = await shownPriceLamports(page);
    const before = await getBalance(baseURL!, key.publicKey);
    await page.getByRole('button', { name: button }).click();

    const modal = page.getByRole('dialog', { name: 'Ticket Purchased!' });
    await expect(modal).toBeVisible({ timeout: 20_000 });
    await expect(modal.getByTestId('ticket-amount')).toHaveText(
      `${(price / ONE_SOL).toFixed(2)} SOL`,
    );
    await expect(modal.getByText(email)).toBeVisible();
    // The server's calendar is the spec's: the access level is the tier of the day it was paid.
    const paidAt = Date.now();
    await expect(modal.getByTestId('ticket-access-level')).toHaveText(
      paidAt < Date.UTC(2025, 10, 20)
        ? 'Early Bird'
        : paidAt < Date.UTC(2025, 11, 20)
          ? 'Pre-launch'
          : 'Launch',
    );
    // The chain really moved the price from the paying key to the user's payment wallet.
    expect(await getBalance(baseURL!, paymentAddress)).toBe(price);
    expect(before - (await getBalance(baseURL!, key.publicKey))).toBeGreaterThanOrEqual(price);
    expect((await fakeWalletCalls(page)).sent).toHaveLength(1);

    await modal.getByRole('button', { name: "Let's Build My Gang" }).click();
    await expect(modal).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Access Granted!' })).toBeVisible();

    await page.reload();
    await page.getByRole('tab', { name: 'Get Ticket' }).click();
    await expect(page.getByRole('heading', { name: 'Access Granted!' })).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByRole('button', { name: 'Send in Phantom' })).toHaveCount(0);
  });
}

const refusals: {
  name: string;
  wallet: 'phantom' | 'solflare';
  opts: Partial<FakeWalletOptions>;
}[] = [
  {
    name: 'Phantom connection refused (4001)',
    wallet: 'phantom',
    opts: { connectError: { code: 4001, message: 'User rejected the request.' } },
  },
  {
    name: 'Phantom approval refused (4001)',
    wallet: 'phantom',
    opts: { signError: { code: 4001, message: 'User rejected the request.' } },
  },
  {
    name: 'Solflare approval refused ("User rejected", no code)',
    wallet: 'solflare',
    opts: { signError: { message: 'User rejected the request' } },
  },
];

for (const refusal of refusals) {
  test(`${refusal.name}: only the cancelled notice, hidden after 5 s [§8.wallet.rejection]`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    // The page's clock: it runs as usual until the send, then moves only when the test says.
    await page.clock.install();
    await setUp(page, baseURL!, { wallets: [refusal.wallet], ...refusal.opts });
    const count = await transactionCount(baseURL!);
    const label = refusal.wallet === 'phantom' ? 'Send in Phantom' : 'Send in Solflare';
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await page.getByRole('button', { name: label }).click();

    // Time moves in steps of 20 ms until the notice shows: it showed within the last step.
    const notice = page.getByRole('status').filter({ hasText: CANCELLED });
    const STEP = 20;
    for (let i = 0; i < 500 && !(await notice.isVisible()); i += 1) {
      await page.clock.runFor(STEP);
    }
    await expect(notice).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Both buttons are usable again at once.
    await expect(page.getByRole('button', { name: label })).toBeEnabled();
    // §2 "auto-hides after 5 s" (oracle): still there just before, gone just after.
    await page.clock.runFor(SPEC_TIMERS.cancelNotice - 3 * STEP);
    await expect(notice).toBeVisible();
    await page.clock.runFor(3 * STEP);
    await expect(notice).toBeHidden();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await transactionCount(baseURL!)).toBe(count);
    expect((await fakeWalletCalls(page)).sent).toHaveLength(0);
  });
}

test('a double click sends exactly one transaction [§4.payment.flow]', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  await setUp(page, baseURL!, { wallets: ['phantom'], approvalDelayMs: 300 });
  const count = await transactionCount(baseURL!);
  const send = page.getByRole('button', { name: 'Send in Phantom' });
  // Two clicks in the same task (faster than any re-render), then a real double click.
  await send.evaluate((el: HTMLElement) => {
    el.click();
    el.click();
  });
  // The button may be gone already (access arrives quickly): the double click does not wait.
  await send.dblclick({ force: true, timeout: 2_000 }).catch(() => {});
  await expect(page.getByRole('dialog', { name: 'Ticket Purchased!' })).toBeVisible({
    timeout: 20_000,
  });
  expect(await transactionCount(baseURL!)).toBe(count + 1);
  const calls = await fakeWalletCalls(page);
  expect(calls.connect).toBe(1);
  expect(calls.sign).toBe(1);
});

test('a second request while the wallet has one open (-32002): explained, nothing sent, retry possible', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  await setUp(page, baseURL!, {
    wallets: ['phantom'],
    signError: { code: -32002, message: 'Requests already pending' },
  });
  const count = await transactionCount(baseURL!);
  const send = page.getByRole('button', { name: 'Send in Phantom' });
  await send.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('error-message')).toHaveText('Failed to process payment');
  await expect(dialog).toContainText('A wallet request is already open');
  await expect(page.getByText(CANCELLED)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(send).toBeEnabled();
  expect(await transactionCount(baseURL!)).toBe(count);
  expect((await fakeWalletCalls(page)).sent).toHaveLength(0);
});

/** A signed-in player without any wallet; Phantom's sites are answered here (nothing leaves). */
async function setUpWithoutWallet(page: Page, context: BrowserContext, baseURL: string) {
  await context.route(/^https:\/\/(www\.)?phantom\.(com|app)\//, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Phantom</title>' }),
  );
  await setUp(page, baseURL, { wallets: [] }, null);
}

test('no wallet: "Phantom wallet not detected" and phantom.com opens [§8.wallet.errors]', async ({
  page,
  context,
  baseURL,
}) => {
  await setUpWithoutWallet(page, context, baseURL!);
  const popup = context.waitForEvent('page');
  await page.getByRole('button', { name: 'Send in Phantom' }).click();
  const opened = await popup;
  await opened.waitForLoadState('domcontentloaded').catch(() => {});
  expect(opened.url()).toMatch(/^https:\/\/phantom\.com\//);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('error-message')).toHaveText('Phantom wallet not detected');
  // A desktop has an extension to install: no app link there.
  await expect(dialog.getByTestId('error-app-link')).toHaveCount(0);
  await expect(page.getByText(CANCELLED)).toHaveCount(0);
  // The player reads what failed and what to do; where in the code it failed is kept for a
  // report, behind a disclosure after them.
  await expect(dialog.getByTestId('error-solution')).toBeVisible();
  await expect(dialog.getByTestId('error-component')).toBeHidden();
  await expect(dialog.getByTestId('error-file')).toBeHidden();
  const order = await dialog.evaluate((root) =>
    ['error-message', 'error-solution', 'error-details'].map((id) => {
      const el = root.querySelector(`[data-testid="${id}"]`);
      return el ? Array.from(root.querySelectorAll('[data-testid]')).indexOf(el) : -1;
    }),
  );
  expect(order.every((at) => at >= 0)).toBe(true);
  expect(order, 'message, then solution, then the details').toEqual(
    [...order].sort((a, b) => a - b),
  );
  await dialog.getByText('Technical details', { exact: true }).click();
  await expect(dialog.getByTestId('error-component')).toHaveText('GetTicketTab');
  await expect(dialog.getByTestId('error-file')).toHaveText('src/views/ticket/GetTicketTab.tsx');
});

test.describe('on a phone without a wallet', () => {
  test.use({
    viewport: { width: 390, height: 844 },
    userAgent: PHONE_UA,
    isMobile: true,
    hasTouch: true,
  });

  test('the wallet error leads with "Open in the Phantom app", a link into the app', async ({
    page,
    context,
    baseURL,
  }) => {
    await setUpWithoutWallet(page, context, baseURL!);
    await page.getByRole('button', { name: 'Send in Phantom' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('error-message')).toHaveText('Phantom wallet not detected');
    const app = dialog.getByRole('link', { name: 'Open in the Phantom app' });
    await expect(app).toBeVisible();
    // The §8 solution still follows it; the link opens this very page inside the app.
    const href = (await app.getAttribute('href')) ?? '';
    expect(href.startsWith('https://phantom.app/ul/browse/')).toBe(true);
    expect(decodeURIComponent(href)).toContain(new URL(page.url()).origin);
    const appBox = await app.boundingBox();
    const solutionBox = await dialog.getByTestId('error-solution').boundingBox();
    expect((appBox?.y ?? 1e9) < (solutionBox?.y ?? 0)).toBe(true);
    await expect(app).toBeInViewport({ ratio: 1 });
  });
});

test('insufficient funds: the real error, not "cancelled"', async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  // Enough for the fee, far from the price.
  await setUp(page, baseURL!, { wallets: ['phantom'] }, 10_000_000);
  const count = await transactionCount(baseURL!);
  await page.getByRole('button', { name: 'Send in Phantom' }).click();
  await expect(page.getByRole('dialog').getByTestId('error-message')).toHaveText(
    'Insufficient funds',
    { timeout: 15_000 },
  );
  await expect(page.getByText(CANCELLED)).toHaveCount(0);
  expect(await transactionCount(baseURL!)).toBe(count);
});

test('an expired blockhash: the real error, not "cancelled"', async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  await setUp(page, baseURL!, { wallets: ['solflare'], expireBlockhashBeforeSend: true });
  await page.getByRole('button', { name: 'Send in Solflare' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('error-message')).toHaveText('Failed to process payment', {
    timeout: 15_000,
  });
  await expect(dialog).toContainText('expired');
  await expect(page.getByText(CANCELLED)).toHaveCount(0);
  expect((await fakeWalletCalls(page)).sent).toHaveLength(0);
});

test('server down during the balance refresh: "Failed to refresh balance" [§8.refreshBalance]', async ({
  page,
  baseURL,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/Failed to load resource|ERR_FAILED|ERR_CONNECTION_REFUSED/);
  await setUp(page, baseURL!, { wallets: ['phantom'] }, null);
  await page.route('**/user/wallet/balance', (route) => route.abort('connectionrefused'));
  await page.getByRole('button', { name: 'Refresh balance' }).click();
  await expect(page.getByRole('dialog').getByTestId('error-message')).toHaveText(
    'Failed to refresh balance',
    { timeout: 15_000 },
  );
  await expect(page.getByText(CANCELLED)).toHaveCount(0);
});
