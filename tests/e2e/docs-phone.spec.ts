import { expect, test } from '../support/e2e';
import { keepScreenshot, useTheme, waitForApp } from '../support/pages';

/**
 * §2 Docs page on a phone (issue #55): a guide opens on its article, the contents one tap away
 * behind a Contents button (aria-expanded, its list next in the focus order), and Previous /
 * Next land on the article's top: its heading in view and focused, so a keyboard or screen
 * reader carries on in the text, not in the pager or the contents. A desktop keeps its sidebar.
 */
const SIZES = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;

for (const theme of ['light', 'dark'] as const) {
  test(`docs: the article first, the contents one tap away, Next and Previous land on the heading (${theme})`, async ({
    page,
  }) => {
    await useTheme(page, theme);
    for (const size of SIZES) {
      const label = `${size.width}×${size.height} ${theme}`;
      const phone = size.width < 900;
      await page.setViewportSize(size);
      await page.goto('/docs/gang');
      await waitForApp(page);
      const sidebar = page.getByRole('navigation', { name: 'Docs' });
      const contents = sidebar.getByRole('button', { name: /^Contents/ });
      const title = page.getByRole('heading', { level: 1 });
      await expect(title, label).toHaveText('Gangsters & Gang');
      await expect(title, label).toBeInViewport({ ratio: 1 });
      await expect(page.locator('.docs-body p').first(), label).toBeInViewport();
      await keepScreenshot(page, `docs-phone-${size.width}x${size.height}-${theme}`, {
        fullPage: false,
      });

      if (phone) {
        // The article comes first: the folded contents take one row above its heading.
        await expect(sidebar.getByRole('link', { name: 'Fights' }), label).toBeHidden();
        const bar = await sidebar.boundingBox();
        expect(bar?.height ?? 999, `${label}: the folded contents`).toBeLessThanOrEqual(80);
        await expect(contents, label).toHaveAttribute('aria-expanded', 'false');
        // One tap: the list opens right after the button in the focus order.
        await contents.focus();
        await page.keyboard.press('Enter');
        await expect(contents, label).toHaveAttribute('aria-expanded', 'true');
        await page.keyboard.press('Tab');
        await expect(sidebar.getByRole('link', { name: 'Introduction' }), label).toBeFocused();
        await keepScreenshot(page, `docs-phone-contents-${size.width}x${size.height}-${theme}`, {
          fullPage: false,
        });
        await contents.click();
        await expect(contents, label).toHaveAttribute('aria-expanded', 'false');
      } else {
        await expect(contents, label).toBeHidden();
        await expect(sidebar.getByRole('link', { name: 'Fights' }), label).toBeVisible();
      }

      // Next, from the end of the text: the next guide's heading, in view and focused.
      await page.getByRole('link', { name: /^Next/ }).click();
      await expect(title, label).toHaveText('Weapons & Packs');
      await expect(title, `${label}: Next lands on the heading`).toBeFocused();
      await expect(title, label).toBeInViewport({ ratio: 1 });
      await expect(page.locator('.docs-body p').first(), label).toBeInViewport();
      if (phone) await expect(sidebar.getByRole('link', { name: 'Fights' }), label).toBeHidden();
      // The next Tab goes into the article's text (or past it), never back to the contents.
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(() => Boolean(document.activeElement?.closest('.docs-sidebar'))),
        `${label}: Tab after Next stays out of the contents`,
      ).toBe(false);

      // Previous likewise.
      await page.getByRole('link', { name: /^Previous/ }).click();
      await expect(title, label).toHaveText('Gangsters & Gang');
      await expect(title, `${label}: Previous lands on the heading`).toBeFocused();
      await expect(title, label).toBeInViewport({ ratio: 1 });
    }
  });
}
