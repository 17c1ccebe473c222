import { ERROR_TEXT } from '../../machines/errorModal/classifyError';
import { expectNoAxeViolations } from '../support/axe';
import { expect, test } from '../support/e2e';
import { info, notify, openApp, openError, openVideo, reportError } from '../support/overlays/e2e';

/** The global overlays in the real local-mode build against the local server (§2, §4, §8). */

/** Freezes the page clock (installed before load) so only runFor moves time. */
async function freezeClock(page: import('@playwright/test').Page): Promise<void> {
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 1_000);
}

/** Opens the app with the page clock installed, then freezes it. */
async function openWithFrozenClock(page: import('@playwright/test').Page): Promise<void> {
  await page.clock.install();
  await openApp(page);
  await freezeClock(page);
}

const toast = (page: import('@playwright/test').Page) => page.getByTestId('toast');
const toastMessage = (page: import('@playwright/test').Page) => page.getByTestId('toast-message');
const badge = (page: import('@playwright/test').Page) => page.getByTestId('toast-badge');
const banner = (page: import('@playwright/test').Page) => page.getByTestId('info-banner');
const modal = (page: import('@playwright/test').Page) =>
  page.getByRole('dialog', { name: 'Error Detected' });

test.describe('toast notifications', () => {
  test('5 queued toasts show one by one for 3.5 s each while the badge counts down [§4.notify.duration]', async ({
    page,
  }) => {
    await openWithFrozenClock(page);
    await notify(
      page,
      [1, 2, 3, 4, 5].map((i) => ({ message: `Notice ${i}`, messageType: 'info' as const })),
    );
    for (let i = 1; i <= 5; i += 1) {
      await expect(toastMessage(page)).toHaveText(`Notice ${i}`);
      if (i < 5) await expect(badge(page)).toContainText(String(5 - i));
      else await expect(badge(page)).toHaveCount(0);
      await page.clock.runFor(3_499);
      await expect(toastMessage(page)).toHaveText(`Notice ${i}`);
      await page.clock.runFor(1);
    }
    await expect(toast(page)).toHaveCount(0);
  });

  test('120 queued keeps 99 waiting, dropping the oldest [§4.notify.cap]', async ({ page }) => {
    await openWithFrozenClock(page);
    await notify(
      page,
      Array.from({ length: 120 }, (_, i) => ({
        message: `N${i + 1}`,
        messageType: 'default' as const,
      })),
    );
    await expect(toastMessage(page)).toHaveText('N1');
    await expect(badge(page)).toContainText('99');
    await page.clock.runFor(3_500);
    await expect(toastMessage(page)).toHaveText('N22');
    await expect(badge(page)).toContainText('98');
  });

  test('hovering the badge turns it into a clear icon; clicking it clears the queue and hides the toast [§2.toast.queue]', async ({
    page,
  }) => {
    await openWithFrozenClock(page);
    await notify(page, [
      { message: 'First', messageType: 'success' },
      { message: 'Second', messageType: 'warning' },
      { message: 'Third', messageType: 'error' },
    ]);
    await expect(badge(page).locator('.toast__count')).toBeVisible();
    await expect(badge(page).locator('.toast__clear')).toBeHidden();
    await badge(page).hover();
    await expect(badge(page).locator('.toast__clear')).toBeVisible();
    await expect(badge(page).locator('.toast__count')).toBeHidden();
    await badge(page).click();
    await expect(toast(page)).toHaveCount(0);
    await page.clock.runFor(3_500 * 3);
    await expect(toast(page)).toHaveCount(0);
  });

  test('a click hides the toast; one with a router_link navigates; load shows a spinner; width 396 px', async ({
    page,
  }) => {
    await openWithFrozenClock(page);
    await notify(page, [{ message: 'Working <b>on it</b>', messageType: 'load' }]);
    await expect(toast(page).locator('.overlay-spinner')).toBeVisible();
    await expect(toastMessage(page).locator('b')).toHaveText('on it');
    expect(await toast(page).evaluate((el) => getComputedStyle(el).maxWidth)).toBe('396px');
    await toast(page).click();
    await expect(toast(page)).toHaveCount(0);

    await notify(page, [
      { message: 'Read the guide', messageType: 'info', router_link: '/docs/lore' },
    ]);
    await toast(page).click();
    await expect(page).toHaveURL(/\/docs\/lore$/);
    await expect(toast(page)).toHaveCount(0);
  });

  test('the keyboard reaches the same: Dismiss hides a toast, Open follows its router_link', async ({
    page,
  }) => {
    await openWithFrozenClock(page);
    await notify(page, [
      { message: 'Saved', messageType: 'success' },
      { message: 'Read the guide', messageType: 'info', router_link: '/docs/lore' },
    ]);
    const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
    await dismiss.focus();
    await page.keyboard.press('Enter');
    await expect(toastMessage(page)).toHaveText('Read the guide');
    const open = page.getByRole('button', { name: 'Open notification' });
    await open.focus();
    await page.keyboard.press('Space');
    await expect(page).toHaveURL(/\/docs\/lore$/);
    await expect(toast(page)).toHaveCount(0);
  });
});

test.describe('information banner', () => {
  test('hides after 5 s, and on click; width 792 px [§4.banner.duration]', async ({ page }) => {
    await openWithFrozenClock(page);
    await info(page, { message: 'Please enter valid e-mail address.', messageType: 'error' });
    await expect(banner(page)).toHaveText('Please enter valid e-mail address.');
    expect(await banner(page).evaluate((el) => getComputedStyle(el).maxWidth)).toBe('792px');
    await page.clock.runFor(4_999);
    await expect(banner(page)).toBeVisible();
    await page.clock.runFor(1);
    await expect(banner(page)).toHaveCount(0);

    await info(page, { message: 'Loading balance', messageType: 'load' });
    await expect(banner(page).locator('.overlay-spinner')).toBeVisible();
    await banner(page).click();
    await expect(banner(page)).toHaveCount(0);
  });
});

test.describe('global error handler (§8)', () => {
  const modalCases: {
    name: string;
    report: Record<string, unknown>;
    message: string;
    solution?: string;
  }[] = [
    {
      name: 'response data message first',
      report: { responseMessage: 'Server says no', errorMessage: 'Request failed' },
      message: 'Server says no',
    },
    {
      name: 'then the error message',
      report: { errorMessage: 'Something broke' },
      message: 'Something broke',
    },
    { name: 'then the fallback', report: {}, message: 'An unexpected error occurred' },
    {
      name: 'Expired version',
      report: {
        errorMessage: 'Expired version. Please reload the app - version 0.2.0 is required',
      },
      message: 'Expired version. Please reload the app - version 0.2.0 is required',
      solution: ERROR_TEXT.expiredVersionSolution,
    },
    {
      name: 'Failed to load session',
      report: { responseMessage: 'Failed to load session' },
      message: 'Failed to load session',
      solution: ERROR_TEXT.sessionSolution,
    },
    {
      name: 'Error loading session',
      report: { errorMessage: 'Error loading session' },
      message: 'Error loading session',
      solution: ERROR_TEXT.sessionSolution,
    },
    {
      name: 'reading a property of undefined',
      report: { errorMessage: "Cannot read properties of undefined (reading 'user_email')" },
      message: ERROR_TEXT.undefinedProperty,
      solution: ERROR_TEXT.undefinedPropertySolution,
    },
    {
      name: '404',
      report: { status: 404, errorMessage: 'Request failed with status code 404' },
      message: '404: Resource not found',
      solution: ERROR_TEXT.notFoundSolution,
    },
    {
      name: 'legacy /keys/ path',
      report: { status: 404, errorMessage: 'Not Found', path: '/api/keys/list' },
      message: '404: Resource not found',
      solution: ERROR_TEXT.legacyKeysSolution,
    },
  ];

  for (const c of modalCases) {
    test(`${c.name} → Error Detected: ${c.message}`, async ({ page, allowConsoleErrors }) => {
      allowConsoleErrors('[error]');
      await openApp(page);
      await reportError(page, c.report);
      await expect(modal(page)).toBeVisible();
      await expect(page.getByTestId('error-message')).toHaveText(c.message);
      if (c.solution) await expect(page.getByTestId('error-solution')).toContainText(c.solution);
      else await expect(page.getByTestId('error-solution')).toHaveCount(0);
      // Unknown component and file are hidden.
      await expect(page.getByTestId('error-component')).toHaveCount(0);
      await expect(page.getByTestId('error-file')).toHaveCount(0);
    });
  }

  test('an error and a toast reported before their chunks arrive show as reported (no hydration error)', async ({
    page,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors('[error]');
    // The error modal's and the toast's chunks are held back until both have been reported, so
    // the overlays first render with the error and the toast already queued.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/(ErrorModal|Toast)-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await openApp(page);
    await reportError(page, { errorMessage: 'Server says no' });
    await notify(page, [{ message: 'Queued before the chunk', messageType: 'success' }]);
    release();
    await expect(modal(page)).toBeVisible();
    await expect(page.getByTestId('error-message')).toHaveText('Server says no');
    await expect(toastMessage(page)).toHaveText('Queued before the chunk');
  });

  test('Provider not available → warning banner, no modal', async ({
    page,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors('[error]');
    await openApp(page);
    await reportError(page, { errorMessage: 'Provider not available' });
    await expect(banner(page)).toHaveText(ERROR_TEXT.providerWarning);
    await expect(banner(page)).toHaveClass(/info-banner--warning/);
    await expect(modal(page)).toHaveCount(0);
  });

  test('Deprecation warning is only logged', async ({ page }) => {
    await openApp(page);
    const logged = page.waitForEvent('console', (m) => m.text().includes('Deprecation warning'));
    await reportError(page, { errorMessage: 'Deprecation warning: old call' });
    await logged;
    await expect(modal(page)).toHaveCount(0);
    await expect(banner(page)).toHaveCount(0);
  });

  test('an uncaught error and an unhandled rejection reach the modal', async ({
    page,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors('[error]');
    allowConsoleErrors('Failed to load session');
    await openApp(page);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('Failed to load session');
      }, 0);
    });
    await expect(page.getByTestId('error-message')).toHaveText('Failed to load session');
    await expect(page.getByTestId('error-solution')).toContainText(ERROR_TEXT.sessionSolution);
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(modal(page)).toHaveCount(0);

    await page.evaluate(() => {
      void Promise.reject(
        new Error('Expired version. Please reload the app - version 0.2.0 is required'),
      );
    });
    await expect(page.getByTestId('error-message')).toHaveText(/^Expired version/);
    await expect(page.getByTestId('error-solution')).toContainText(
      ERROR_TEXT.expiredVersionSolution,
    );
  });
});

test.describe('Error Detected modal', () => {
  test('shows component, file, stack and time; Copy Error Details copies the summary and shows Copied! for 2 s [§2.errorModal.copy]', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.clock.install({ time: new Date('2025-11-20T09:30:00Z') });
    await openApp(page);
    await page.clock.pauseAt(new Date('2025-11-20T09:31:00Z'));
    await openError(page, {
      message: 'Insufficient funds',
      solution: 'Add SOL to your wallet and try again.',
      component: 'GetTicketTab',
      file: 'src/views/ticket/GetTicketTab.tsx',
      stack: 'Error: Insufficient funds\n    at pay (payment.ts:1:1)',
    });
    await expect(modal(page)).toBeVisible();
    // §2: the message and the solution lead; the component and file and the time are shown
    // behind the Technical details disclosure, the stack trace behind its own toggle.
    await expect(page.getByTestId('error-solution')).toBeVisible();
    await expect(page.getByTestId('error-component')).toBeHidden();
    await page.getByText('Technical details', { exact: true }).click();
    await expect(page.getByTestId('error-component')).toHaveText('GetTicketTab');
    await expect(page.getByTestId('error-component')).toBeVisible();
    await expect(page.getByTestId('error-file')).toHaveText('src/views/ticket/GetTicketTab.tsx');
    await expect(page.getByTestId('error-file')).toBeVisible();
    await expect(page.getByTestId('error-time')).toHaveText('2025-11-20T09:31:00.000Z');
    await expect(page.getByTestId('error-time')).toBeVisible();
    const stack = page.getByText('at pay (payment.ts:1:1)');
    await expect(stack).toBeHidden();
    await page.getByText('Stack trace', { exact: true }).click();
    await expect(stack).toBeVisible();

    const copy = page.getByTestId('copy-error-details');
    await expect(copy).toHaveText('Copy Error Details');
    await copy.click();
    await expect(copy).toHaveText('Copied!');
    const text = await page.evaluate(() => navigator.clipboard.readText());
    expect(text).toContain('Message: Insufficient funds');
    expect(text).toContain('Solution: Add SOL to your wallet and try again.');
    expect(text).toContain('Component: GetTicketTab');
    expect(text).toContain('File: src/views/ticket/GetTicketTab.tsx');
    expect(text).toContain('at pay (payment.ts:1:1)');
    await page.clock.runFor(1_999);
    await expect(copy).toHaveText('Copied!');
    await page.clock.runFor(1);
    await expect(copy).toHaveText('Copy Error Details');
  });

  test('focus stays inside; Escape, Close and a backdrop click close it [§2.errorModal.close]', async ({
    page,
  }) => {
    await openApp(page);
    await openError(page, { message: 'Network connection failed' });
    await expect(modal(page)).toBeVisible();
    const focusInside = () =>
      page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));
    expect(await focusInside()).toBe(true);
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      expect(await focusInside()).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await focusInside()).toBe(true);
    await page.keyboard.press('Escape');
    await expect(modal(page)).toHaveCount(0);

    await openError(page, { message: 'Network connection failed' });
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(modal(page)).toHaveCount(0);

    await openError(page, { message: 'Network connection failed' });
    await page.getByTestId('error-modal-backdrop').click({ position: { x: 5, y: 5 } });
    await expect(modal(page)).toHaveCount(0);
  });
});

test.describe('video modal', () => {
  test('plays the given source; the close button and an overlay click close it [§2.video.modal]', async ({
    page,
  }) => {
    await openApp(page);
    await openVideo(page, '/media/promo.webm', true);
    const dialog = page.getByRole('dialog', { name: 'Promo video' });
    await expect(dialog).toBeVisible();
    const player = page.getByTestId('video-player');
    await expect(player).toHaveAttribute('src', '/media/promo.webm');
    expect(await player.evaluate((v: HTMLVideoElement) => v.autoplay)).toBe(true);
    await page.getByRole('button', { name: 'Close video' }).click();
    await expect(dialog).toHaveCount(0);

    await openVideo(page, '/media/promo.webm');
    await page.getByTestId('video-modal-backdrop').click({ position: { x: 5, y: 5 } });
    await expect(dialog).toHaveCount(0);
  });

  test('the trailer starts with its sound off; turned on, its sound track plays', async ({
    page,
  }) => {
    await openApp(page);
    await openVideo(page, '/media/promo.webm', true);
    const player = page.getByTestId('video-player');
    expect(await player.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
    // The player's own sound button, as a player turns the sound on.
    await player.evaluate((v: HTMLVideoElement) => {
      v.muted = false;
      return v.play();
    });
    // Chromium counts the sound it decoded: a clip without a track decodes none.
    await expect
      .poll(
        () =>
          player.evaluate(
            (v: HTMLVideoElement & { webkitAudioDecodedByteCount?: number }) =>
              v.webkitAudioDecodedByteCount ?? -1,
          ),
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
  });
});

test.describe('theme', () => {
  test('cycles light → dark → auto → light, stored and applied, and survives a reload without a flash [§4.theme.cycle]', async ({
    page,
  }) => {
    await openApp(page);
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'auto');
    const toggle = page.getByTestId('theme-toggle');
    await expect(toggle).toHaveAccessibleName('Theme: auto (system). Switch to light');
    await toggle.click();
    await expect(html).toHaveAttribute('data-theme', 'light');
    await expect(toggle).toHaveAccessibleName('Theme: light. Switch to dark');
    await toggle.click();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await toggle.click();
    await expect(html).toHaveAttribute('data-theme', 'auto');
    await toggle.click();
    await expect(html).toHaveAttribute('data-theme', 'light');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');

    // Before any module script runs (readyState "interactive" precedes deferred and module
    // scripts), the stored theme is already applied: only the blocking head script can have done it.
    await page.addInitScript(() => {
      const w = window as unknown as { __themeAtInteractive?: string | null };
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive') {
          w.__themeAtInteractive = document.documentElement.getAttribute('data-theme');
        }
      });
    });
    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'light');
    expect(
      await page.evaluate(
        () => (window as unknown as { __themeAtInteractive?: string | null }).__themeAtInteractive,
      ),
    ).toBe('light');
    // The theme script is an inline classic script in <head>, ahead of the page's styles and
    // content, so it runs before the first paint.
    const firstInHead = await page.evaluate(() => {
      const script = [...document.head.querySelectorAll('script')].find((el) =>
        el.textContent?.includes("localStorage.getItem('theme')"),
      );
      const firstStyle = document.head.querySelector('style, link[rel="stylesheet"]');
      return {
        found: Boolean(script),
        inline: Boolean(script && !script.src && !script.type && !script.async && !script.defer),
        beforeStyles: Boolean(
          script &&
          firstStyle &&
          script.compareDocumentPosition(firstStyle) & Node.DOCUMENT_POSITION_FOLLOWING,
        ),
      };
    });
    expect(firstInHead).toEqual({ found: true, inline: true, beforeStyles: true });
    const bg = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--bg').trim(),
    );
    expect(bg).toBe('#f6f1e9');
  });
});

test.describe('accessibility (axe-core) with each overlay open', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`0 violations in the ${theme} theme`, async ({ page, allowConsoleErrors }) => {
      allowConsoleErrors('[error]');
      await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
      await page.clock.install();
      await openApp(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);

      await notify(page, [
        { message: 'Ticket <strong>saved</strong>', messageType: 'success' },
        { message: 'Next', messageType: 'info' },
      ]);
      await info(page, { message: 'Please enter a valid 6-digit code.', messageType: 'error' });
      await expect(toast(page)).toBeVisible();
      await expect(banner(page)).toBeVisible();
      await expectNoAxeViolations(page);

      await reportError(page, {
        errorMessage: 'Failed to load session',
        stack: 'Error: Failed to load session\n    at init',
      });
      await expect(modal(page)).toBeVisible();
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');

      await openVideo(page, '/media/promo.webm');
      await expect(page.getByRole('dialog', { name: 'Promo video' })).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }
});
