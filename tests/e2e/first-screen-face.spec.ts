import type { Page } from '@playwright/test';
import { expect, test } from '../support/e2e';
import { keepScreenshot, layoutShifts, PHONE_UA, useTheme, waitForApp } from '../support/pages';

/**
 * The brand's type from a first visit's first paint (issue 55): the landing's first screen (the
 * header's mark, the hero's title, tagline and countdown) is drawn in Playfair Display from the
 * glyphs its page carries inline (src/prerender/firstScreenFace.ts), every glyph of it from that
 * face, with no layout shift, and laid out as the whole face lays it out on later visits.
 */
const SIZES = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;

type Frame = { width: number; family: string; firstFace: string | null };

declare global {
  interface Window {
    __smwFirstFrame?: Frame;
  }
}

/** Records the hero title at the first frame that draws it, before any later frame. */
async function watchFirstFrame(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const look = () => {
      const title = document.getElementById('hero-title');
      if (!title) {
        requestAnimationFrame(look);
        return;
      }
      const range = document.createRange();
      range.selectNodeContents(title);
      const face = [...document.fonts].find(
        (f) => f.family.replace(/"/g, '') === 'Smw Display First',
      );
      window.__smwFirstFrame = {
        width: [...range.getClientRects()].reduce((sum, rect) => sum + rect.width, 0),
        family: getComputedStyle(title).fontFamily,
        firstFace: face?.status ?? null,
      };
    };
    requestAnimationFrame(look);
  });
}

/** The hero title's drawn width now (the sum of its lines), and in the system serif. */
async function titleWidths(page: Page): Promise<{ now: number; systemSerif: number }> {
  return page.evaluate(() => {
    const title = document.getElementById('hero-title')!;
    const widthOf = (element: Element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return [...range.getClientRects()].reduce((sum, rect) => sum + rect.width, 0);
    };
    const copy = title.cloneNode(true) as HTMLElement;
    copy.removeAttribute('id');
    copy.style.fontFamily = getComputedStyle(document.documentElement).getPropertyValue(
      '--font-display-fallback',
    );
    title.after(copy);
    const systemSerif = widthOf(copy);
    copy.remove();
    return { now: widthOf(title), systemSerif };
  });
}

/**
 * The fonts the renderer drew each first-screen display text with (Chromium's own report). A
 * text the page replaced meanwhile (a countdown's ticking figure) is left out.
 */
async function firstScreenFonts(page: Page): Promise<Record<string, string[]>> {
  const targets = await page.evaluate(() => {
    const found: { probe: string; text: string }[] = [];
    document.querySelectorAll('.site-header *, .hero *').forEach((element, index) => {
      const text = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? '')
        .join('')
        .trim();
      if (!text || !element.checkVisibility()) return;
      if (!getComputedStyle(element).fontFamily.startsWith('"Smw Display First"')) return;
      element.setAttribute('data-face-probe', String(index));
      found.push({ probe: String(index), text });
    });
    return found;
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument');
  const fonts: Record<string, string[]> = {};
  for (const { probe, text } of targets) {
    const selector = `[data-face-probe="${probe}"]`;
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    if (!nodeId) continue;
    const used = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    fonts[text] = used.fonts.map((f) => `${f.familyName} (${f.isCustomFont ? 'web' : 'local'})`);
  }
  await cdp.detach();
  return fonts;
}

for (const size of SIZES) {
  test(`a first visit draws the landing's first screen in Playfair from the first paint, no shift, at ${size.width}×${size.height}`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await watchFirstFrame(page);
    // A first visit: a fresh context, nothing stored, nothing cached.
    await page.goto('/');
    await waitForApp(page);
    const first = await page.evaluate(() => window.__smwFirstFrame);
    expect(first, 'the title was drawn').toBeTruthy();
    console.log(`first screen face at ${size.width}: first frame ${JSON.stringify(first)}`);
    // At the first frame the title names the inline face, and the face is already usable.
    expect(first!.family.startsWith('"Smw Display First"')).toBe(true);
    expect(first!.firstFace).toBe('loaded');
    // Every glyph of the first screen's display text is drawn from it: no system font beside it.
    const fonts = await firstScreenFonts(page);
    console.log(`first screen face at ${size.width}: ${JSON.stringify(fonts)}`);
    expect(Object.keys(fonts)).toEqual(
      expect.arrayContaining(['Solana Mafia Wars', 'Build Your Criminal Empire']),
    );
    for (const [text, used] of Object.entries(fonts))
      expect(used, `the fonts of "${text}"`).toEqual(['Playfair Display (web)']);
    // The first frame's title is the title as it stays, and not the system serif's.
    const widths = await titleWidths(page);
    expect(Math.abs(first!.width - widths.now)).toBeLessThan(0.5);
    expect(Math.abs(widths.now - widths.systemSerif)).toBeGreaterThan(2);
    const shifts = await layoutShifts(page);
    expect(shifts.sum, `what moved: ${shifts.moved.join('; ')}`).toBe(0);
    // The whole face is not asked for before the app has started (as before), and the next
    // visit, in the whole face, lays the title out exactly as the inline glyphs did.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('fonts'))).toBe('ready');
    await page.reload();
    await waitForApp(page);
    const later = await page.evaluate(() => ({
      family: getComputedStyle(document.getElementById('hero-title')!).fontFamily,
    }));
    expect(later.family.startsWith('"Smw Display"')).toBe(true);
    const again = await titleWidths(page);
    console.log(
      `first screen face at ${size.width}: title ${first!.width.toFixed(2)} px first visit, ${again.now.toFixed(2)} px whole face, ${widths.systemSerif.toFixed(2)} px system serif`,
    );
    expect(Math.abs(again.now - first!.width)).toBeLessThan(0.5);
  });
}

const SHOTS = [
  { name: '360x740', width: 360, height: 740 },
  { name: '390x844', width: 390, height: 844 },
  { name: '1440x900', width: 1440, height: 900 },
] as const;

for (const shot of SHOTS) {
  for (const theme of ['dark', 'light'] as const) {
    test.describe(`first visit ${shot.name} ${theme}`, () => {
      if (shot.width < 600) test.use({ userAgent: PHONE_UA });
      test('the landing as a first visit draws it', async ({ page }) => {
        await page.setViewportSize({ width: shot.width, height: shot.height });
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await useTheme(page, theme);
        await page.goto('/');
        await waitForApp(page);
        await expect(page.locator('html')).not.toHaveAttribute('data-fonts', 'ready');
        const fonts = await firstScreenFonts(page);
        expect(fonts['Solana Mafia Wars']).toEqual(['Playfair Display (web)']);
        await keepScreenshot(page, `landing-first-visit-${shot.name}-${theme}`, {
          fullPage: false,
        });
      });
    });
  }
}
