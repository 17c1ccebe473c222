import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect } from './e2e';
import { postApi, registerUser, type RegisteredUser } from './api';
import { airdrop, getBalance, newTestKey, sendSol } from './fakeWallets';
import { rpc } from './rpc';

/** Browser tests of the pages: sign a user in over HTTP and hand the tokens to the page. */

let counter = 0;
export const uniqueEmail = (tag: string) =>
  `${tag}-${Date.now().toString(36)}-${(counter++).toString(36)}@example.com`;

/** Stores the user's tokens before any page script runs, as a finished sign-in would. */
export async function signInPage(page: Page, user: RegisteredUser): Promise<void> {
  await page.addInitScript(
    ([jwt, refreshToken, sessionToken]) => {
      if (sessionStorage.getItem('e2e-signed-in')) return;
      sessionStorage.setItem('e2e-signed-in', '1');
      localStorage.setItem('jwt', jwt);
      localStorage.setItem('refreshToken', refreshToken);
      localStorage.setItem('sessionToken', sessionToken);
    },
    [user.jwt, user.refreshToken, user.sessionToken] as const,
  );
}

/** Registers a new user (an e-mail made from `tag`) and signs the page in as them. */
export async function signInNewUser(
  page: Page,
  baseUrl: string,
  tag: string,
): Promise<RegisteredUser> {
  const user = await registerUser(baseUrl, uniqueEmail(tag));
  await signInPage(page, user);
  return user;
}

/** A new user (an e-mail made from `tag`) who has bought the ticket. */
export async function newMember(baseUrl: string, tag: string): Promise<RegisteredUser> {
  const user = await registerUser(baseUrl, uniqueEmail(tag));
  await buyTicket(baseUrl, user);
  return user;
}

/** Opens the home signed in as `user`, once the app has loaded. */
export async function openHomeAs(page: Page, user: RegisteredUser): Promise<void> {
  await signInPage(page, user);
  await page.goto('/');
  await waitForApp(page);
}

const SCREENSHOTS = resolve(import.meta.dirname, '../../test-results/screenshots');

/** A screenshot kept for review under test-results/screenshots/, its fonts loaded first. */
export async function keepScreenshot(
  page: Page,
  name: string,
  opts: { fullPage?: boolean } = {},
): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({
    path: join(SCREENSHOTS, `${name}.png`),
    fullPage: opts.fullPage ?? true,
  });
}

/** Stores a theme before the page loads (the inline head script applies it before the first paint). */
export async function useTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
}

/** Waits until the app loader is gone (the session has loaded). */
export async function waitForApp(page: Page): Promise<void> {
  await expect(page.locator('.loading-overlay')).toHaveCount(0, { timeout: 15_000 });
}

/** The sum of the page's layout shifts so far (CLS as the browser reports it). */
export async function layoutShift(page: Page): Promise<number> {
  return (await layoutShifts(page)).sum;
}

/**
 * The page's layout shifts without recent input: their sum, and what moved in each (an element's
 * tag, id and classes with its rectangle before and after), for a failure to say which.
 */
export async function layoutShifts(page: Page): Promise<{ sum: number; moved: string[] }> {
  return page.evaluate(
    () =>
      new Promise<{ sum: number; moved: string[] }>((done) => {
        let sum = 0;
        const moved: string[] = [];
        const box = (r: DOMRectReadOnly) =>
          `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
        const name = (node: Node | null) => {
          if (!(node instanceof Element)) return node ? node.nodeName : 'a removed node';
          const id = node.id ? `#${node.id}` : '';
          const classes = [...node.classList].map((c) => `.${c}`).join('');
          return `${node.tagName.toLowerCase()}${id}${classes}`;
        };
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
            sources?: {
              node: Node | null;
              previousRect: DOMRectReadOnly;
              currentRect: DOMRectReadOnly;
            }[];
          })[]) {
            if (entry.hadRecentInput) continue;
            sum += entry.value;
            for (const source of entry.sources ?? [])
              moved.push(
                `${entry.value.toFixed(5)} at ${Math.round(entry.startTime)} ms: ${name(source.node)} ${box(source.previousRect)} → ${box(source.currentRect)}`,
              );
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => done({ sum, moved }), 300);
      }),
  );
}

/**
 * Resolves once the page has drawn `frames` more frames: whatever its last events changed (React
 * commits them before the next frame) is on screen by then.
 */
export async function framesDrawn(page: Page, frames = 2): Promise<void> {
  await page.evaluate(
    (count) =>
      new Promise<void>((done) => {
        const step = (left: number): void => {
          if (left === 0) done();
          else requestAnimationFrame(() => step(left - 1));
        };
        step(count);
      }),
    frames,
  );
}

/**
 * Buys the user's ticket the way the chain sees it: the local chain airdrops the ticket price
 * to the user's payment wallet, then the balance check grants access (and confirms the inviter).
 */
export async function buyTicket(baseUrl: string, user: RegisteredUser): Promise<void> {
  const init = await postApi(baseUrl, 'sess/init', {});
  const data = init.body.data as { public_data: { ticket_price_lamports: string } };
  const lamports = Number(data.public_data.ticket_price_lamports);
  await rpc(baseUrl, 'requestAirdrop', [user.userData.user_payment_wallet, lamports]);
  const balance = await postApi(
    baseUrl,
    'user/wallet/balance',
    {
      session: user.sessionToken,
      data: { wallet_id: user.userData.user_payment_wallet_data.wallet_id },
    },
    user.jwt,
  );
  if (balance.body.access_granted !== true) {
    throw new Error(`access not granted: ${JSON.stringify(balance.body)}`);
  }
}

export { registerUser };
export type { RegisteredUser };

/** An iPhone's Safari: phones get the link into the Phantom app instead of an extension to install. */
export const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const ONE_SOL = 1_000_000_000;

/**
 * Opens the Invite tab of a signed-in page with no friends yet (counters at 0 and 0/2) and
 * answers the invite code of its link.
 */
export async function openFreshInviteTab(page: Page): Promise<string> {
  await page.getByRole('tab', { name: 'Invite' }).click();
  const link = (await page.getByTestId('invite-link').getAttribute('data-link')) ?? '';
  const code = /\/r\/([A-Za-z0-9]+)$/.exec(link)?.[1] ?? '';
  expect(code, `invite link ${link}`).not.toBe('');
  await expect(page.getByTestId('counter-registered')).toHaveText('0');
  await expect(page.getByTestId('counter-confirmed')).toHaveText('0/2');
  return code;
}

/**
 * Pays the ticket from a funded key to the address the player's own page shows, straight
 * through the chain's JSON-RPC at `chainUrl` (a wallet app, no extension): the price the page
 * asks for plus `extra` lamports. Answers the lamports sent.
 */
export async function payFromAnotherWallet(
  page: Page,
  chainUrl: string,
  extra: number,
): Promise<number> {
  await page.getByRole('tab', { name: 'Get Ticket' }).click();
  const address = (await page.getByTestId('payment-address').textContent())?.trim() ?? '';
  expect(address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  const priceText = (await page.locator('.ticket-amount strong').textContent()) ?? '';
  const price = Math.round(Number(/^(\d+(?:\.\d+)?) SOL$/.exec(priceText.trim())?.[1]) * ONE_SOL);
  expect(price, `price text ${priceText}`).toBeGreaterThan(0);
  const lamports = price + extra;
  const payer = newTestKey();
  await airdrop(chainUrl, payer.publicKey, 2 * ONE_SOL);
  await sendSol(chainUrl, payer, address, lamports);
  expect(await getBalance(chainUrl, address)).toBe(lamports);
  return lamports;
}

/**
 * Opens the docs' contents where a phone folds them behind the Contents button (a wider screen
 * shows them always); answers the sidebar.
 */
export async function openDocsContents(page: Page) {
  const sidebar = page.getByRole('navigation', { name: 'Docs' });
  const toggle = sidebar.getByRole('button', { name: /^Contents/ });
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false')
    await toggle.click();
  return sidebar;
}
