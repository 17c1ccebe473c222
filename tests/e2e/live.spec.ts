import type { Browser, BrowserContext, Page } from '@playwright/test';
import { readOutboxCode } from '../support/api';
import { expect, test } from '../support/e2e';
import { airdrop, getBalance, newTestKey, sendSol } from '../support/fakeWallets';
import { uniqueEmail } from '../support/pages';

/**
 * The live site with all its actors at once, on the real local server and chain: an inviter (A)
 * keeps the page open, never reloaded, while two friends (B, C) follow A's invite link in their
 * own browsers, sign in and pay by sending SOL to the payment wallet their page shows, straight
 * through the chain's JSON-RPC (no extension, no development wallet). A's page follows every
 * change within 10 s; B's receipt shows what B's wallet received; A never sees a receipt.
 */
const LIVE_WITHIN_MS = 10_000;
const ONE_SOL = 1_000_000_000;

const dialog = (page: Page) => page.getByRole('dialog');

/** Records, from the first script on, whether a Ticket Purchased! receipt was ever on the page. */
async function watchReceipts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __receiptsSeen: number };
    w.__receiptsSeen = 0;
    new MutationObserver(() => {
      if (document.getElementById('ticket-modal-title')) w.__receiptsSeen += 1;
    }).observe(document, { childList: true, subtree: true });
  });
}

async function newPlayer(browser: Browser, baseURL: string): Promise<[BrowserContext, Page]> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await watchReceipts(page);
  return [context, page];
}

/** Signs in through the dialog as a player does; `path` is where the player lands first. */
async function signInThroughDialog(page: Page, baseURL: string, email: string, path = '/') {
  await page.goto(path);
  await page.getByRole('button', { name: 'Get Access' }).first().click();
  await dialog(page).getByLabel('E-mail').fill(email);
  await dialog(page).getByRole('button', { name: 'Continue' }).click();
  await expect(dialog(page).getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
  const code = await readOutboxCode(baseURL, email);
  const boxes = dialog(page).getByRole('textbox', { name: /^Digit \d of 6$/ });
  for (let i = 0; i < 6; i += 1) await boxes.nth(i).fill(code[i] ?? '');
  const verify = dialog(page).getByRole('button', { name: 'Verify' });
  if (await verify.isEnabled()) await verify.click().catch(() => {});
  await expect(dialog(page)).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByRole('button', { name: 'Exit' })).toBeVisible();
}

/** Pays the ticket from a funded key to the address the player's own page shows. */
async function payFromAnotherWallet(page: Page, baseURL: string, lamports: number) {
  await page.getByRole('tab', { name: 'Get Ticket' }).click();
  const address = (await page.getByTestId('payment-address').textContent())?.trim() ?? '';
  expect(address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  const payer = newTestKey();
  await airdrop(baseURL, payer.publicKey, ONE_SOL);
  await sendSol(baseURL, payer, address, lamports);
  expect(await getBalance(baseURL, address)).toBe(lamports);
}

test('an inviter sees friends register and buy, then Access Granted!, without a reload; no false receipt', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const [contextA, a] = await newPlayer(browser, baseURL!);
  const [contextB, b] = await newPlayer(browser, baseURL!);
  const [contextC, c] = await newPlayer(browser, baseURL!);
  try {
    // A signs in and opens the Invite tab; the page is never reloaded from here on.
    await signInThroughDialog(a, baseURL!, uniqueEmail('inviter'));
    let navigations = 0;
    a.on('framenavigated', (frame) => {
      if (frame === a.mainFrame()) navigations += 1;
    });
    await a.getByRole('tab', { name: 'Invite' }).click();
    const link = await a.getByTestId('invite-link').inputValue();
    const code = /\/r\/([A-Za-z0-9]+)$/.exec(link)?.[1] ?? '';
    expect(code, `invite link ${link}`).not.toBe('');
    await expect(a.getByTestId('requirement-registered')).toHaveText('0');
    await expect(a.getByTestId('requirement-confirmed')).toHaveText('0/2');

    // B and C follow the link and sign up: A's counters move.
    await signInThroughDialog(b, baseURL!, uniqueEmail('friend-b'), `/r/${code}`);
    await expect(a.getByTestId('requirement-registered')).toHaveText('1', {
      timeout: LIVE_WITHIN_MS,
    });
    await expect(a.getByTestId('counter-clicks')).not.toHaveText('0', { timeout: LIVE_WITHIN_MS });
    await signInThroughDialog(c, baseURL!, uniqueEmail('friend-c'), `/r/${code}`);
    await expect(a.getByTestId('requirement-registered')).toHaveText('2', {
      timeout: LIVE_WITHIN_MS,
    });

    // B pays 0.25 SOL from a wallet outside the site: B's receipt names what the chain received.
    const paidByB = 250_000_000;
    await payFromAnotherWallet(b, baseURL!, paidByB);
    const receipt = b.getByRole('dialog', { name: 'Ticket Purchased!' });
    await expect(receipt).toBeVisible({ timeout: LIVE_WITHIN_MS });
    await expect(receipt.getByTestId('ticket-amount')).toHaveText('0.25 SOL');
    await expect(a.getByTestId('requirement-confirmed')).toHaveText('1/2', {
      timeout: LIVE_WITHIN_MS,
    });

    // A watches the Get Ticket tab while C pays: Access Granted! through friends, no amount.
    await a.getByRole('tab', { name: 'Get Ticket' }).click();
    await expect(a.getByRole('heading', { name: 'Complete Transfer' })).toBeVisible();
    await payFromAnotherWallet(c, baseURL!, 220_000_000);
    await expect(a.getByRole('heading', { name: 'Access Granted!' })).toBeVisible({
      timeout: LIVE_WITHIN_MS,
    });
    await expect(a.getByTestId('access-by-friends')).toHaveText(
      'Access granted: 2 friends bought tickets',
    );
    await expect(c.getByRole('dialog', { name: 'Ticket Purchased!' })).toBeVisible({
      timeout: LIVE_WITHIN_MS,
    });
    await a.getByRole('tab', { name: 'Invite' }).click();
    await expect(a.getByTestId('stats-confirmed')).toHaveText('2');

    // A never saw a receipt with an amount, and never reloaded.
    await a.waitForTimeout(500);
    expect(
      await a.evaluate(() => (window as unknown as { __receiptsSeen: number }).__receiptsSeen),
    ).toBe(0);
    expect(navigations).toBe(0);
  } finally {
    await Promise.all([contextA.close(), contextB.close(), contextC.close()]);
  }
});
