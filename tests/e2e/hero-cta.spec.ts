import type { Page } from '@playwright/test';
import { calendarFromEnv, type LaunchCalendar } from '../../contract/calendar';
import { expect, test } from '../support/e2e';
import { INVITATION_RULE_OFF_FROM } from '../support/invitationRuleOff';
import { keepScreenshot, useTheme, waitForApp } from '../support/pages';

/**
 * The landing's hero has one call to action (§2 Home: "A 'Get Access' button opens the sign-in
 * modal"; issue #55): Get Access is the one primary button above the fold at every size, the
 * ticket's price readable right under it on a plate of its own (never on the art's neon signs),
 * and the docs a quiet link. Once the launch is reached the hero says what a player can do now,
 * beside the spec's 'Boarding now · Training Open'.
 */
const SIZES = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;
const THEMES = ['light', 'dark'] as const;
const DAY = 86_400_000;

/** The spec's prices with the Early Bird's end and the launch that many days from now. */
const calendarAt = (days: { earlyBirdEnd: number; launchAt: number }): LaunchCalendar => ({
  ...calendarFromEnv({}),
  earlyBirdEnd: Date.now() + days.earlyBirdEnd * DAY,
  launchAt: Date.now() + days.launchAt * DAY,
  invitationFrom: Date.parse(INVITATION_RULE_OFF_FROM),
});

/** The relative luminance of a CSS `rgb()`/`rgba()` colour (WCAG 2). */
function luminance(rgb: readonly number[]): number {
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

/** What the price line is drawn on: its text colour, its own plate's colour and opacity. */
async function priceLook(page: Page) {
  return page.getByTestId('hero-price').evaluate((el) => {
    const style = getComputedStyle(el);
    const parts = (text: string) => (text.match(/[\d.]+/g) ?? []).map(Number);
    return { color: parts(style.color), plate: parts(style.backgroundColor) };
  });
}

/** The hero's one call to action, checked at the current size. */
async function expectOneCallToAction(page: Page, label: string) {
  const hero = page.locator('section.hero');
  const getAccess = hero.getByRole('button', { name: 'Get Access' });
  await expect(getAccess, label).toBeInViewport({ ratio: 1 });
  // The hero's buttons: Get Access, and the trailer's quiet play control.
  await expect(hero.getByRole('button'), label).toHaveCount(2);
  const trailer = hero.getByRole('button', { name: /Watch the trailer/ });
  await expect(trailer, `${label}: the trailer above the fold`).toBeInViewport({ ratio: 1 });
  const docs = hero.getByRole('link', { name: 'Read Docs' });
  await expect(docs, label).toHaveAttribute('href', '/docs/intro');
  const cta = await getAccess.boundingBox();
  const link = await docs.boundingBox();
  if (!cta || !link) throw new Error(`${label}: Get Access or Read Docs is not drawn`);
  // The docs are a quiet link: no fill, no frame, far smaller than the call to action.
  const docsLook = await docs.evaluate((el) => {
    const style = getComputedStyle(el);
    return { background: style.backgroundColor, border: style.borderTopWidth };
  });
  expect(docsLook.background, `${label}: Read Docs has no fill`).toBe('rgba(0, 0, 0, 0)');
  expect(docsLook.border, `${label}: Read Docs has no frame`).toBe('0px');
  expect(cta.width * cta.height, `${label}: Get Access outweighs Read Docs`).toBeGreaterThan(
    2.5 * link.width * link.height,
  );
  // The trailer is as quiet: no fill, no frame, far smaller, below the call to action.
  const trailerBox = await trailer.boundingBox();
  if (!trailerBox) throw new Error(`${label}: the trailer's control is not drawn`);
  const trailerLook = await trailer.evaluate((el) => {
    const style = getComputedStyle(el);
    return { background: style.backgroundColor, border: style.borderTopWidth };
  });
  expect(trailerLook, `${label}: the trailer's control is quiet`).toEqual({
    background: 'rgba(0, 0, 0, 0)',
    border: '0px',
  });
  expect(cta.width * cta.height, `${label}: Get Access outweighs the trailer`).toBeGreaterThan(
    1.5 * trailerBox.width * trailerBox.height,
  );
  expect(trailerBox.y, `${label}: the trailer under Get Access`).toBeGreaterThan(
    cta.y + cta.height,
  );
  expect(cta.height, `${label}: Get Access is a large target`).toBeGreaterThanOrEqual(52);

  // The price right under Get Access, in view, centred on it.
  const price = page.getByTestId('hero-price');
  await expect(price, label).toBeInViewport({ ratio: 1 });
  await expect(price, label).toContainText(/Ticket \d+\.\d+ SOL/);
  const priceBox = await price.boundingBox();
  if (!priceBox) throw new Error(`${label}: the price is not drawn`);
  const gap = priceBox.y - (cta.y + cta.height);
  expect(gap, `${label}: the price sits right under Get Access`).toBeGreaterThanOrEqual(0);
  expect(gap, `${label}: the price sits right under Get Access`).toBeLessThanOrEqual(20);
  const centre = (b: { x: number; width: number }) => b.x + b.width / 2;
  expect(Math.abs(centre(priceBox) - centre(cta)), label).toBeLessThanOrEqual(2);
  // Readable whatever the art draws behind it: a plate of its own, nearly opaque, at AA contrast.
  const look = await priceLook(page);
  const alpha = look.plate.length === 4 ? (look.plate[3] ?? 0) : 1;
  expect(alpha, `${label}: the price's plate`).toBeGreaterThanOrEqual(0.8);
  const [light, dark] = [luminance(look.color), luminance(look.plate)].sort((a, b) => b - a);
  const ratio = ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
  expect(ratio, `${label}: the price's contrast on its plate`).toBeGreaterThanOrEqual(4.5);
}

for (const theme of THEMES) {
  test(`before the launch: Get Access is the one call to action with the price under it, docs a quiet link (${theme})`, async ({
    page,
    freshServer,
  }) => {
    const server = await freshServer({ calendar: calendarAt({ earlyBirdEnd: 10, launchAt: 20 }) });
    await useTheme(page, theme);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.goto(`${server.url}/`);
      await waitForApp(page);
      await expect(page.getByRole('timer', { name: 'Time until training starts' })).toBeVisible();
      await expectOneCallToAction(page, `${size.width}×${size.height} ${theme}`);
      await keepScreenshot(page, `hero-cta-${size.width}x${size.height}-${theme}`, {
        fullPage: false,
      });
    }
  });

  test(`after the launch: the hero says what a player can do now, above Get Access (${theme})`, async ({
    page,
    freshServer,
  }) => {
    const server = await freshServer({ calendar: calendarAt({ earlyBirdEnd: -30, launchAt: -5 }) });
    await useTheme(page, theme);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.goto(`${server.url}/`);
      await waitForApp(page);
      const label = `${size.width}×${size.height} ${theme}, after the launch`;
      // The spec's words stay (§2: once reached it shows 'Boarding now · Training Open').
      await expect(page.getByText('Boarding now · Training Open'), label).toBeVisible();
      // What a player can do now leads the call to action: large, right above Get Access.
      const now = page.getByTestId('starts-header');
      await expect(now, label).toHaveText('Training is open: get your ticket and join now');
      await expect(now, label).toBeInViewport({ ratio: 1 });
      const nowBox = await now.boundingBox();
      const cta = await page
        .locator('section.hero')
        .getByRole('button', { name: 'Get Access' })
        .boundingBox();
      const title = await page.getByRole('heading', { level: 1 }).boundingBox();
      if (!nowBox || !cta || !title) throw new Error(`${label}: the hero is not drawn`);
      expect(nowBox.y, `${label}: below the title`).toBeGreaterThan(title.y + title.height);
      const gap = cta.y - (nowBox.y + nowBox.height);
      expect(gap, `${label}: right above Get Access`).toBeGreaterThanOrEqual(0);
      expect(gap, `${label}: right above Get Access`).toBeLessThanOrEqual(40);
      const size_px = await now.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      expect(size_px, `${label}: a headline, not a pill's label`).toBeGreaterThanOrEqual(20);
      await expectOneCallToAction(page, label);
      await keepScreenshot(page, `hero-cta-launched-${size.width}x${size.height}-${theme}`, {
        fullPage: false,
      });
    }
  });
}
