import type { Page } from '@playwright/test';
import { expect, test } from '../support/e2e';
import { info, notify, openApp } from '../support/overlays/e2e';
import { registerUser, signInPage, uniqueEmail, useTheme, waitForApp } from '../support/pages';

/**
 * How messages and controls look where players meet them: each message type's colours meet WCAG
 * AA in both themes, toasts never cover the header's controls, the invite code is whole on a
 * small phone, and the promo video answers Range requests.
 */
const TYPES = ['success', 'error', 'warning', 'info'] as const;
const THEMES = ['dark', 'light'] as const;

/** WCAG contrast of the element's text colour on its own background (both opaque here). */
async function contrastOf(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) throw new Error(`no ${sel}`);
    // The browser resolves color-mix(): draw each colour on a canvas and read it back as sRGB.
    const rgb = (css: string): [number, number, number] => {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 1;
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no canvas');
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0] = ctx.getImageData(0, 0, 1, 1).data;
      return [r, g, b];
    };
    const luminance = ([r, g, b]: [number, number, number]) => {
      const lin = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const box = el.closest('[data-testid="toast"], [data-testid="info-banner"]') ?? el;
    const text = luminance(rgb(getComputedStyle(el).color));
    const back = luminance(rgb(getComputedStyle(box).backgroundColor));
    const [hi, lo] = text > back ? [text, back] : [back, text];
    return (hi + 0.05) / (lo + 0.05);
  }, selector);
}

for (const theme of THEMES) {
  test(`every message type meets AA contrast (${theme} theme) and reads as its own type`, async ({
    page,
  }) => {
    await useTheme(page, theme);
    await openApp(page);
    const backgrounds = new Set<string>();
    for (const type of TYPES) {
      await notify(page, [{ message: `A ${type} toast`, messageType: type }]);
      const toast = page.getByTestId('toast');
      await expect(toast).toHaveClass(new RegExp(`toast--${type}`));
      await expect(toast.locator(`.msg-icon--${type}`)).toBeVisible();
      const ratio = await contrastOf(page, '[data-testid="toast-message"]');
      console.log(`look: ${theme} toast ${type} contrast ${ratio.toFixed(2)}:1`);
      expect(ratio).toBeGreaterThanOrEqual(4.5);
      backgrounds.add(await toast.evaluate((el) => getComputedStyle(el).backgroundColor));
      await toast.click();
      await expect(toast).toHaveCount(0);

      await info(page, { message: `A ${type} banner`, messageType: type });
      const banner = page.getByTestId('info-banner');
      await expect(banner).toHaveClass(new RegExp(`info-banner--${type}`));
      const bannerRatio = await contrastOf(page, '.info-banner__message');
      console.log(`look: ${theme} banner ${type} contrast ${bannerRatio.toFixed(2)}:1`);
      expect(bannerRatio).toBeGreaterThanOrEqual(4.5);
      await banner.click();
      await expect(banner).toHaveCount(0);
    }
    // Four types, four surfaces: no two types look alike.
    expect(backgrounds.size).toBe(TYPES.length);
  });
}

for (const viewport of [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
]) {
  test(`toasts never cover the header's controls at ${viewport.width} px`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(viewport);
    const user = await registerUser(baseURL!, uniqueEmail('toast-header'));
    await signInPage(page, user);
    await openApp(page);
    await expect(page.getByRole('button', { name: 'Exit' })).toBeVisible();
    await notify(page, [
      {
        message: 'A long message that wraps onto several lines on a small phone screen, really',
        messageType: 'info',
      },
    ]);
    const toast = page.getByTestId('toast');
    await expect(toast).toBeVisible();
    const box = await toast.boundingBox();
    const controls = [
      page.getByRole('button', { name: 'Exit' }),
      page.getByRole('button', { name: /^Theme:/ }),
      page.getByRole('link', { name: 'Solana Mafia Wars home' }),
    ];
    for (const control of controls) {
      const other = await control.boundingBox();
      expect(box && other).toBeTruthy();
      if (!box || !other) continue;
      const overlaps =
        box.x < other.x + other.width &&
        other.x < box.x + box.width &&
        box.y < other.y + other.height &&
        other.y < box.y + box.height;
      expect(overlaps, `toast over ${await control.getAttribute('aria-label')}`).toBe(false);
    }
    // And the control still takes the tap.
    await page.getByRole('button', { name: /^Theme:/ }).click();
  });
}

test('the invite code is whole and visible on a 360 px phone', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const user = await registerUser(baseURL!, uniqueEmail('code-360'));
  await signInPage(page, user);
  await page.goto('/');
  await waitForApp(page);
  await page.getByRole('tab', { name: 'Invite' }).click();
  const code = page.getByTestId('invite-code');
  await expect(code).toHaveText(user.userData.user_invite_code);
  // The lobby's gang comes first on a phone: the Invite tab's card is below it, a scroll away.
  // Scrolled to the middle of the screen: scrolling "if needed" stops with its edge on the screen's
  // edge, where whole pixels of scrolling can leave a fraction of a pixel of it outside.
  await code.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await expect(code).toBeInViewport({ ratio: 1 });
  const clipped = await code.evaluate((el) => el.scrollWidth > el.clientWidth);
  expect(clipped).toBe(false);
  const box = await code.boundingBox();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 360).toBe(true);
  // The link field may shorten the host, never its /r/CODE end.
  const path = page.getByTestId('invite-link').locator('.invite-link-path');
  await expect(path).toHaveText(`/r/${user.userData.user_invite_code}`);
  await expect(path).toBeInViewport({ ratio: 1 });
  const linkBox = await page.getByTestId('invite-link').boundingBox();
  const pathBox = await path.boundingBox();
  expect((pathBox?.x ?? 0) + (pathBox?.width ?? 0)).toBeLessThanOrEqual(
    (linkBox?.x ?? 0) + (linkBox?.width ?? 0),
  );
});

test('a healthy connection draws nothing on a signed-in screen (no stray dot) at 360 px', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const user = await registerUser(baseURL!, uniqueEmail('dot-360'));
  await signInPage(page, user);
  await page.goto('/');
  await waitForApp(page);
  const status = page.getByTestId('connection-status');
  await expect(status).toHaveAttribute('data-state', 'connected');
  // Said to screen readers only: a 1 px clipped box, and no room kept for it.
  await expect(status).toHaveText('Live updates connected');
  for (const tab of ['Get Ticket', 'Invite']) {
    await page.getByRole('tab', { name: tab }).click();
    const box = await status.boundingBox();
    expect((box?.width ?? 0) * (box?.height ?? 0), `${tab}: drawn area`).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => parseFloat(getComputedStyle(document.body).paddingTop))).toBe(
      0,
    );
  }
});

test('the promo video answers a Range request with 206 and the asked bytes', async ({
  request,
}) => {
  const whole = await request.get('/media/promo.webm');
  expect(whole.status()).toBe(200);
  const size = (await whole.body()).length;
  const part = await request.get('/media/promo.webm', { headers: { Range: 'bytes=0-99' } });
  expect(part.status()).toBe(206);
  expect(part.headers()['content-range']).toBe(`bytes 0-99/${size}`);
  expect((await part.body()).length).toBe(100);
});

test('on a 390×844 phone the event, the price and Get Access are above the fold', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await waitForApp(page);
  for (const part of [
    page.locator('.hero-starts'),
    page.getByRole('button', { name: 'Get Access' }).first(),
    page.getByTestId('hero-price'),
  ])
    await expect(part).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('hero-price')).toContainText(/Ticket \d+\.\d+ SOL/);
});

test('the game’s art: two Gangsters on each way in and the art beside the bonus box, fetched only once the app answers taps, moving nothing', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/media/art/')) asked.push(path);
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await waitForApp(page);
  await expect(page.locator('html')).toHaveAttribute('data-app', 'ready');
  const art = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((element) => getComputedStyle(element, '::after').backgroundImage);
  expect(await art('.offer-card-body')).toMatch(/\/media\/art\/gangster\.svg.*gangster\.svg/);
  expect(await art('.bonus-box')).toMatch(/\/media\/art\/(pistol|gangster)\.svg/);
  // Every piece asked for is there (an SVG the server sends).
  await expect.poll(() => asked.length).toBeGreaterThanOrEqual(2);
  for (const path of new Set(asked)) {
    const answer = await page.request.get(path);
    expect(answer.status(), path).toBe(200);
    expect(answer.headers()['content-type'], path).toMatch(/^image\/svg\+xml/);
  }
  // Decoration keeps its room from the first paint: the page has shifted nothing.
  const shift = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
            total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );
  expect(shift).toBeLessThanOrEqual(0.01);
});

test('before the app answers taps the game’s art is not fetched', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/media/art/')) asked.push(request.url());
  });
  // The app's code held back: the pre-rendered page is all there is.
  await page.route(/\/assets\/vendor-[^/]+\.js/, () => {});
  await page.goto('/');
  await expect(page.getByTestId('bonus-box')).toBeAttached();
  await page.waitForTimeout(1500);
  expect(asked).toEqual([]);
  expect(
    await page
      .locator('.offer-card-body')
      .first()
      .evaluate((element) => getComputedStyle(element, '::after').backgroundImage),
  ).toBe('none');
});

test('the promo video is a 20–40 s clip with the poster shown until it plays', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  await page.getByRole('button', { name: /Watch the trailer/ }).click();
  const player = page.getByTestId('video-player');
  await expect(player).toHaveAttribute('poster', '/media/poster.svg');
  const clip = await player.evaluate(
    (video: HTMLVideoElement) =>
      new Promise<{ duration: number; width: number }>((done) => {
        const report = () => done({ duration: video.duration, width: video.videoWidth });
        if (video.readyState >= 1) report();
        else video.addEventListener('loadedmetadata', report, { once: true });
      }),
  );
  expect(clip.duration).toBeGreaterThanOrEqual(20);
  expect(clip.duration).toBeLessThanOrEqual(40);
  expect(clip.width).toBe(960);
});

test('body text is set in the self-hosted Manrope face from the next page on, never waited for', async ({
  page,
  request,
  baseURL,
}) => {
  await page.goto('/');
  await waitForApp(page);
  // A first visit draws its page in the system face at once (no face pending while it lays out)
  // and fetches the site's faces once the app has started.
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).not.toContain(
    'Smw Body',
  );
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('fonts')), {
      message: 'the faces fetched in the background and marked for the next page load',
    })
    .toBe('ready');
  const href = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .find((path) => /^\/assets\/smw-body-[\w-]+\.woff2$/.test(path)),
  );
  expect(href, 'the page asks for the body face from the site itself').toBeTruthy();
  const font = await request.get(href!);
  expect(font.status()).toBe(200);
  expect(font.headers()['content-type']).toContain('font/woff2');
  // A subset: small enough to fetch alongside the page's own files.
  expect((await font.body()).length).toBeLessThan(20_000);
  // Still `optional`: should the cached file be gone, a face that misses the first paint is never
  // swapped in, so no text shifts.
  await page.reload();
  await waitForApp(page);
  const face = await page.evaluate(() => {
    const found = [...document.fonts].find((f) => f.family.replace(/"/g, '') === 'Smw Body');
    return { display: found?.display, family: getComputedStyle(document.body).fontFamily };
  });
  expect(face.display).toBe('optional');
  expect(face.family.startsWith('"Smw Body"')).toBe(true);
  // A later visit has it cached: the renderer really sets the page's text in Manrope, the
  // signed-in home's too (only its loader is laid out first: the cached face is preloaded).
  const fontOf = async (where: string, selector: string) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    await cdp.detach();
    // The variable face reports its default instance's name ("Manrope ExtraLight").
    expect(fonts.map((f) => f.familyName).join(', '), `${where}: the font used`).toMatch(
      /^Manrope\b/,
    );
  };
  // Body text: the hero's price line on the landing (its first line may be a display headline
  // once training is open), a guide's first paragraph on the docs.
  for (const [path, selector] of [
    ['/', 'main [data-testid="hero-price"]'],
    ['/docs/intro', 'main p'],
  ] as const) {
    await page.goto(path);
    await waitForApp(page);
    await fontOf(path, selector);
  }
  await signInPage(page, await registerUser(baseURL!, uniqueEmail('faces')));
  await page.goto('/');
  await expect(page.getByRole('tab', { name: 'Get Ticket' })).toBeVisible();
  await fontOf('the signed-in home', '[role="tab"]');
});
