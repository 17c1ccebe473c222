import AxeBuilder from '@axe-core/playwright';
import type { Page, Route } from '@playwright/test';
import { expect, test } from '../support/e2e';
import {
  registerUser,
  signInNewUser,
  signInPage,
  uniqueEmail,
  useTheme,
  waitForApp,
} from '../support/pages';

/**
 * Flows that must not leave the player alone: every message the page shows is still true when
 * it is read, and every wait has a visible answer.
 */
const dialog = (page: Page) => page.getByRole('dialog');
const banner = (page: Page) => page.getByTestId('info-banner');

test.describe('sign-in messages', () => {
  test('a mistyped address banner does not follow the player into the signed-in home', async ({
    page,
  }) => {
    await page.clock.install();
    await page.goto('/');
    await page.getByRole('button', { name: 'Get Access' }).first().click();
    await expect(dialog(page).getByRole('heading', { name: 'Sign In' })).toBeVisible();
    // From here the page's time stands still: the banner's own 5 s cannot clear it.
    await page.clock.pauseAt(Date.now() + 5_000);
    await dialog(page).getByLabel('E-mail').fill('don@example');
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await expect(banner(page)).toHaveText('Please enter valid e-mail address.');

    const email = uniqueEmail('typo');
    await dialog(page).getByLabel('E-mail').fill(email);
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await expect(dialog(page).getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
    // Development mode prefills the code.
    await dialog(page).getByRole('button', { name: 'Verify' }).click();
    await expect(dialog(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Exit' })).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
  });
});

test.describe('other tabs', () => {
  test('a tab signed out by Exit in another tab says why', async ({ context, baseURL }) => {
    const user = await registerUser(baseURL!, uniqueEmail('exit-elsewhere'));
    const first = await context.newPage();
    await signInPage(first, user);
    await first.goto('/');
    await expect(first.getByRole('button', { name: 'Exit' })).toBeVisible();
    const second = await context.newPage();
    await second.goto('/');
    await expect(second.getByRole('button', { name: 'Exit' })).toBeVisible();

    await first.getByRole('button', { name: 'Exit' }).click();
    await expect(second.getByRole('button', { name: 'Get Access' }).first()).toBeVisible({
      timeout: 10_000,
    });
    await expect(banner(second)).toHaveText('You signed out in another tab.');
    // The tab where Exit was pressed knows why: no such word there.
    await expect(first.getByRole('button', { name: 'Get Access' }).first()).toBeVisible();
    await expect(banner(first)).toHaveCount(0);
  });
});

test.describe('docs while the server is down', () => {
  for (const theme of ['dark', 'light'] as const) {
    test(`a styled notice with one instruction, readable (${theme}); Retry brings the page`, async ({
      page,
      allowConsoleErrors,
    }) => {
      allowConsoleErrors(/could not load|dynamically imported module|ERR_CONNECTION_REFUSED/);
      await useTheme(page, theme);
      await page.goto('/');
      await waitForApp(page);
      // Everything the landing asks for has arrived (its parts loaded on demand too).
      await page.waitForLoadState('networkidle');
      // The server goes away: every request from now on is refused.
      const refuse = (route: Route) => route.abort('connectionrefused');
      await page.route('**/*', refuse);
      await page.getByRole('link', { name: 'Docs' }).first().click();

      const alerts = page.getByRole('alert');
      await expect(alerts.filter({ hasText: 'This page could not load' })).toBeVisible();
      await expect(alerts).toHaveCount(1);
      await expect(alerts).toContainText(
        'Unable to connect to the server. Please check your internet connection and try again.',
      );
      // One instruction: one button on screen for it, no second way (Reload Page) beside it.
      await expect(page.getByRole('button', { name: 'Reload Page' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(1);
      // Drawn by the site's styles: the theme's surface and its display face, not the browser's.
      const look = await alerts.evaluate((el) => {
        const style = getComputedStyle(el);
        const title = el.querySelector('h1');
        return {
          background: style.backgroundColor,
          titleFont: title ? getComputedStyle(title).fontFamily : '',
        };
      });
      expect(look.background).not.toBe('rgba(0, 0, 0, 0)');
      expect(look.titleFont).toMatch(/Playfair/);
      const scan = await new AxeBuilder({ page }).include('.chunk-failed').analyze();
      expect(scan.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      await page.screenshot({ path: test.info().outputPath(`docs-offline-${theme}.png`) });

      // Still down: Retry says so again.
      await page.getByRole('button', { name: 'Retry' }).click();
      await expect(alerts.filter({ hasText: 'This page could not load' })).toBeVisible();
      // Back: Retry brings the guide.
      await page.unroute('**/*', refuse);
      await page.getByRole('button', { name: 'Retry' }).click();
      await expect(page.locator('.docs-body p').first()).toBeVisible();
      await expect(page.getByRole('alert')).toHaveCount(0);
    });
  }
});

const LOCAL_WALLET = 'Pay with the local test wallet (local chain)';

async function openTicketTab(page: Page) {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Get Ticket' }).click();
  await expect(page.getByRole('heading', { name: 'Complete Transfer' })).toBeVisible({
    timeout: 15_000,
  });
}

/** Counts, from the first script on, every Ticket Purchased! receipt drawn on the page. */
async function watchReceipts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __receiptsSeen: number };
    w.__receiptsSeen = 0;
    let shown = false;
    new MutationObserver(() => {
      const now = document.getElementById('ticket-modal-title') !== null;
      if (now && !shown) w.__receiptsSeen += 1;
      shown = now;
    }).observe(document, { childList: true, subtree: true });
  });
}
const receiptsSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __receiptsSeen: number }).__receiptsSeen);

test.describe('paying', () => {
  test('the pressed pay button is busy until the receipt; the note agrees with the QR panel', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    await signInNewUser(page, baseURL!, 'busy-pay');
    await openTicketTab(page);
    const panel = page.getByRole('region', { name: 'Get Ticket' });
    // One account of the balance: it updates on its own (as the QR panel says), Refresh asks now.
    await expect(panel).toContainText(
      'After paying, the balance updates on its own; click Refresh if it does not.',
    );
    await expect(panel).not.toContainText('click refresh to update your balance');
    await panel.getByRole('button', { name: 'Pay with a QR code' }).click();
    await expect(panel).toContainText('The balance updates on its own.');
    await panel.getByRole('button', { name: 'Hide QR code' }).click();

    const pay = page.getByTestId('local-wallet').getByRole('button');
    await expect(pay).toHaveText(LOCAL_WALLET);
    // Every state of the pay button from the press on, read in the frame it changed in: a quick
    // confirmation (the server's push can grant access before the balance check) cannot slip
    // between the checks.
    await page.evaluate(() => {
      const w = window as unknown as { __payStates: unknown[] };
      w.__payStates = [];
      const read = () => {
        const button = document.querySelector<HTMLButtonElement>(
          '[data-testid="local-wallet"] button',
        );
        if (!button) return;
        const others = [...document.querySelectorAll<HTMLButtonElement>('button')].filter((b) =>
          /^Send in (Phantom|Solflare)$/.test(b.textContent?.trim() ?? ''),
        );
        w.__payStates.push({
          text: button.textContent?.trim() ?? '',
          disabled: button.disabled,
          busy: button.getAttribute('aria-busy'),
          others: others.map((b) => b.disabled),
        });
      };
      new MutationObserver(read).observe(document, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    await pay.click();
    await expect(page.getByRole('dialog', { name: 'Ticket Purchased!' })).toBeVisible({
      timeout: 20_000,
    });
    // From the press to the receipt: disabled, marked busy, saying where the payment stands, and
    // every other pay button disabled with it.
    type PayState = { text: string; disabled: boolean; busy: string | null; others: boolean[] };
    const states = (await page.evaluate(
      () => (window as unknown as { __payStates: unknown[] }).__payStates,
    )) as PayState[];
    const pressed = states.filter((state) => state.text !== LOCAL_WALLET);
    expect(pressed.length, 'states of the pressed button').toBeGreaterThan(0);
    for (const state of pressed) {
      expect(state.text).toMatch(/^(Connecting\.\.\.|Waiting for the wallet…|Confirming…)$/);
      expect(state).toMatchObject({ disabled: true, busy: 'true' });
      expect(state.others.every(Boolean), `other pay buttons while "${state.text}"`).toBe(true);
    }
  });

  test('the receipt pops in the tab that paid; another tab of the player updates quietly', async ({
    context,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const user = await registerUser(baseURL!, uniqueEmail('receipt-tab'));
    const payer = await context.newPage();
    const other = await context.newPage();
    await signInPage(payer, user);
    await watchReceipts(payer);
    await watchReceipts(other);
    await openTicketTab(payer);
    await openTicketTab(other);

    await payer.getByTestId('local-wallet').getByRole('button').click();
    await expect(payer.getByRole('dialog', { name: 'Ticket Purchased!' })).toBeVisible({
      timeout: 20_000,
    });
    // The other tab shows the access (the server's push), without a receipt of its own.
    await expect(other.getByRole('heading', { name: 'Access Granted!' })).toBeVisible({
      timeout: 15_000,
    });
    await other.waitForTimeout(1_000);
    expect(await receiptsSeen(other), 'receipts drawn in the other tab').toBe(0);
    expect(await receiptsSeen(payer), 'receipts drawn in the tab that paid').toBe(1);
  });
});
