import type { Page } from '@playwright/test';
import { codeEmail } from '../../server/mail';
import { expectNoAxeViolations } from '../support/axe';
import { expect, test } from '../support/e2e';
import { info, notify, openError } from '../support/overlays/e2e';
import {
  keepScreenshot,
  newMember,
  openHomeAs,
  PHONE_UA,
  registerUser,
  uniqueEmail,
  useTheme,
  waitForApp,
  type RegisteredUser,
} from '../support/pages';

/**
 * Screenshots of every page and overlay, both themes, two phones and a desktop, kept as artefacts
 * under test-results/screenshots/ for review. Each one also asserts the page is what it claims
 * to be and that axe finds no violation on it.
 */
const VIEWPORTS = [
  { name: '360x740', width: 360, height: 740 },
  { name: '390x844', width: 390, height: 844 },
  { name: '1440x900', width: 1440, height: 900 },
] as const;
const THEMES = ['dark', 'light'] as const;

async function shoot(
  page: Page,
  name: string,
  opts: { fullPage?: boolean; skipAxe?: string[] } = {},
) {
  await keepScreenshot(page, name, opts);
  await expectNoAxeViolations(page, { what: name, skip: opts.skipAxe });
}

async function openHome(page: Page, user: RegisteredUser, tab: 'Get Ticket' | 'Invite') {
  await openHomeAs(page, user);
  await page.getByRole('tab', { name: tab }).click();
  await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
}

for (const viewport of VIEWPORTS) {
  for (const theme of THEMES) {
    test.describe(`${viewport.name} ${theme}`, () => {
      // The phones are phones: their browser says so, as the site's phone paths read it.
      if (viewport.width < 600) test.use({ userAgent: PHONE_UA });
      test.beforeEach(async ({ page }) => {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await useTheme(page, theme);
        // As a returning visitor sees the site: in its own faces (src/platform/webFonts.ts).
        await page.addInitScript(() => localStorage.setItem('fonts', 'ready'));
      });

      test('landing and docs', async ({ page }) => {
        await page.goto('/');
        await waitForApp(page);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Solana Mafia Wars');
        await shoot(page, `landing-${viewport.name}-${theme}`);
        await page.goto('/docs/fight');
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fights');
        await shoot(page, `docs-${viewport.name}-${theme}`);
      });

      test('overlays: sign-in dialog, toast and banner, error modal', async ({ page }) => {
        await page.goto('/');
        await waitForApp(page);
        await page.getByRole('button', { name: 'Get Access' }).first().click();
        await expect(page.getByRole('dialog', { name: 'Sign In' })).toBeVisible();
        await shoot(page, `signin-${viewport.name}-${theme}`, { fullPage: false });
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);
        await page.waitForFunction(() => Boolean(window.__smwOverlays));
        await notify(page, [
          { message: 'A friend bought a ticket with your invite code.', messageType: 'success' },
        ]);
        await info(page, { message: 'Live updates are back.', messageType: 'info' });
        await expect(page.getByTestId('toast')).toBeVisible();
        await expect(page.getByTestId('info-banner')).toBeVisible();
        await shoot(page, `messages-${viewport.name}-${theme}`, { fullPage: false });
        // Clear them before the error modal: a click dismisses what is still up (on a loaded
        // machine the toast's 3.5 s may already have run out during the screenshot and axe).
        for (const id of ['toast', 'info-banner']) {
          const shown = page.getByTestId(id);
          if ((await shown.count()) > 0) await shown.click({ timeout: 2_000 }).catch(() => {});
          await expect(shown).toHaveCount(0, { timeout: 10_000 });
        }
        await openError(page, {
          message: 'Phantom wallet not detected',
          solution: 'Install the Phantom extension from phantom.com, then reload this page.',
          component: 'GetTicketTab',
          file: 'src/views/ticket/GetTicketTab.tsx',
        });
        await expect(page.getByRole('dialog', { name: 'Error Detected' })).toBeVisible();
        await expect(page.getByRole('link', { name: 'Open in the Phantom app' })).toHaveCount(
          viewport.width < 600 ? 1 : 0,
        );
        await shoot(page, `error-${viewport.name}-${theme}`, { fullPage: false });
      });

      test('overlays: the code step, the trailer, the receipt', async ({ page, baseURL }) => {
        test.setTimeout(90_000);
        await page.goto('/');
        await waitForApp(page);
        await page.getByRole('button', { name: 'Get Access' }).first().click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('E-mail').fill(uniqueEmail('shotcode'));
        await dialog.getByRole('button', { name: 'Continue' }).click();
        await expect(dialog.getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
        await shoot(page, `signin-code-${viewport.name}-${theme}`, { fullPage: false });
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);

        await page.getByRole('button', { name: /Watch the trailer/ }).click();
        await expect(page.getByRole('dialog', { name: 'Promo video' })).toBeVisible();
        await expect(page.getByTestId('video-player')).toHaveJSProperty('muted', true);
        await shoot(page, `trailer-${viewport.name}-${theme}`, { fullPage: false });
        await page.getByRole('button', { name: 'Close video' }).click();
        await expect(page.getByRole('dialog')).toHaveCount(0);

        // The receipt, paid from the page with the local test wallet (the local-mode build's).
        const user = await registerUser(baseURL ?? '', uniqueEmail('shotreceipt'));
        await openHome(page, user, 'Get Ticket');
        await page
          .getByTestId('local-wallet')
          .getByRole('button', { name: 'Pay with the local test wallet (local chain)' })
          .click();
        await expect(page.getByRole('dialog', { name: 'Ticket Purchased!' })).toBeVisible({
          timeout: 30_000,
        });
        await shoot(page, `receipt-${viewport.name}-${theme}`, { fullPage: false });
      });

      test('the sign-in code e-mail', async ({ page }) => {
        const mail = codeEmail(
          'player@example.com',
          '483920',
          'https://play.solanamafiawars.example',
        );
        await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        // As a careful mail client: offline, any request the HTML made would fail.
        await page.route('**/*', (route) => route.abort());
        await page.setContent(mail.html, { waitUntil: 'load' });
        await expect(page.getByText('483920', { exact: true })).toBeVisible();
        // Its colours and text are checked; a page's landmarks and h1 belong to the mail client.
        await shoot(page, `mail-${viewport.name}-${theme}`, {
          skipAxe: ['landmark-one-main', 'page-has-heading-one', 'region'],
        });
      });

      test('page not found', async ({ page, allowConsoleErrors }) => {
        allowConsoleErrors(/status of 404 \(Not Found\)/);
        await page.goto('/no-such-page');
        await waitForApp(page);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
        await shoot(page, `not-found-${viewport.name}-${theme}`);
      });

      test('home without access, both tabs', async ({ page, baseURL }) => {
        const user = await registerUser(baseURL ?? '', uniqueEmail('shot'));
        await openHome(page, user, 'Get Ticket');
        await expect(page.getByTestId('wallet-card')).toBeVisible();
        await shoot(page, `home-ticket-${viewport.name}-${theme}`);
        await openHome(page, user, 'Invite');
        await expect(page.getByText('Get access when 2 friends buy tickets')).toBeVisible();
        await shoot(page, `home-invite-${viewport.name}-${theme}`);
      });

      test('home with access, both tabs', async ({ page, baseURL }) => {
        const user = await newMember(baseURL ?? '', 'shotpaid');
        await openHome(page, user, 'Get Ticket');
        await expect(page.getByText('Access Granted!')).toBeVisible();
        await shoot(page, `home-access-ticket-${viewport.name}-${theme}`);
        await openHome(page, user, 'Invite');
        await expect(page.getByTestId('invite-stats')).toBeVisible();
        await shoot(page, `home-access-invite-${viewport.name}-${theme}`);
      });
    });
  }
}
