import type { Page } from '@playwright/test';
import { expect, test } from '../support/e2e';
import {
  framesDrawn,
  registerUser,
  signInNewUser,
  signInPage,
  uniqueEmail,
  waitForApp,
} from '../support/pages';

/**
 * A tap before hydration is never lost (performance budget, §2 Loading overlay). The page comes
 * into view as soon as the session has loaded, before the app's code has run; these tests hold
 * every script of the app back, tap at that moment, then let the code arrive.
 */

/**
 * Holds every request for the app's JavaScript until `release()` is called; the files `later`
 * matches stay held after that, until `releaseLater()`.
 */
async function holdAppCode(
  page: Page,
  later?: RegExp,
): Promise<{ release: () => void; releaseLater: () => void; held: () => number; asked: string[] }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let releaseLater!: () => void;
  const laterGate = new Promise<void>((resolve) => (releaseLater = resolve));
  let held = 0;
  const asked: string[] = [];
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    held += 1;
    const path = new URL(route.request().url()).pathname;
    asked.push(path);
    await gate;
    if (later?.test(path)) await laterGate;
    await route.continue();
  });
  return { release, releaseLater, held: () => held, asked };
}

/** Holds sess/init's answer until `answerInit()`; `sent` lists the API paths asked, in order. */
async function holdSessInit(page: Page): Promise<{ sent: string[]; answerInit: () => void }> {
  const sent: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/')) sent.push(path.slice('/api/'.length));
  });
  let answerInit!: () => void;
  const initHeld = new Promise<void>((resolve) => (answerInit = resolve));
  await page.route('**/api/sess/init', async (route) => {
    await initHeld;
    await route.continue();
  });
  return { sent, answerInit };
}

/** The page is in view: the loading overlay has stepped aside, the pre-rendered page shows. */
async function expectInViewBeforeHydration(page: Page, heading: string | RegExp) {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeHidden();
  const hydrated = await page.evaluate(
    () => performance.getEntriesByName('smw-hydrated').length > 0,
  );
  expect(hydrated, 'the app must not have run yet').toBe(false);
}

test('Get Access tapped the moment the page is in view opens the sign-in dialog', async ({
  page,
}) => {
  const code = await holdAppCode(page);
  await page.goto('/', { waitUntil: 'commit' });
  await expectInViewBeforeHydration(page, 'Solana Mafia Wars');
  expect(code.held(), 'the app code was held back').toBeGreaterThan(0);
  const getAccess = page.getByRole('button', { name: 'Get Access' }).first();
  await getAccess.click();
  // Held, and answered at once: the dialog's frame, busy until the app draws the dialog.
  await expect(getAccess).toHaveAttribute('data-tap-held', '');
  const frame = page.getByRole('dialog', { name: 'Sign In' });
  await expect(frame).toBeVisible();
  await expect(frame).toHaveAttribute('aria-busy', 'true');
  await expect(frame).toBeFocused();
  await expect(page.getByLabel('E-mail')).toHaveCount(0);
  // The sign-in dialog's code is asked for at the tap, while the app's own code still loads.
  await expect
    .poll(() => code.asked.some((path) => /\/SignInModal-[^/]+\.js$/.test(path)))
    .toBe(true);
  code.release();
  // The app's dialog in the frame's place: one dialog, not busy, focus in it.
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('E-mail')).toBeVisible();
  await expect(dialog).toHaveCount(1);
  await expect(dialog).not.toHaveAttribute('aria-busy', 'true');
  await expect(dialog.getByLabel('E-mail')).toBeFocused();
  await expect(getAccess).not.toHaveAttribute('data-tap-held', '');
  // Closed, it gives focus back to the tapped button.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(getAccess).toBeFocused();
});

test("Tab while the dialog's frame waits for the dialog's code stays in it; closed, the dialog gives focus back to the tapped button", async ({
  page,
}) => {
  // The app runs and replays the tap while the sign-in dialog's own code is still on its way:
  // the frame keeps focus meanwhile, and the dialog, once drawn, knows where focus came from.
  const code = await holdAppCode(page, /\/SignInModal-[^/]+\.js$/);
  await page.goto('/', { waitUntil: 'commit' });
  await expectInViewBeforeHydration(page, 'Solana Mafia Wars');
  const getAccess = page.getByRole('button', { name: 'Get Access' }).first();
  await getAccess.click();
  const frame = page.getByRole('dialog', { name: 'Sign In' });
  await expect(frame).toBeFocused();
  code.release();
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByName('smw-hydrated').length))
    .toBe(1);
  await expect(getAccess).not.toHaveAttribute('data-tap-held', '');
  await expect(frame).toHaveAttribute('aria-busy', 'true');
  const inFrame = () =>
    page.evaluate(() => !!document.activeElement?.closest('.tap-shell__dialog'));
  expect(await inFrame(), 'the replayed tap leaves focus in the frame').toBe(true);
  for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    expect(await inFrame(), `${key} stays in the frame`).toBe(true);
  }
  code.releaseLater();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('E-mail')).toBeFocused();
  await expect(dialog).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(getAccess).toBeFocused();
});

test("the dialog's frame closed before the app runs drops the tap: no dialog opens after", async ({
  page,
}) => {
  const code = await holdAppCode(page);
  await page.goto('/', { waitUntil: 'commit' });
  await expectInViewBeforeHydration(page, 'Solana Mafia Wars');
  const getAccess = page.getByRole('button', { name: 'Get Access' }).first();
  await getAccess.click();
  const frame = page.getByRole('dialog', { name: 'Sign In' });
  await expect(frame).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(frame).toHaveCount(0);
  await expect(getAccess).not.toHaveAttribute('data-tap-held', '');
  await expect(getAccess).toBeFocused();
  // Closed with its × the same way; then the app runs and opens nothing.
  await getAccess.click();
  await expect(frame).toBeVisible();
  await frame.getByRole('button', { name: 'Close' }).click();
  await expect(frame).toHaveCount(0);
  code.release();
  await waitForApp(page);
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByName('smw-hydrated').length))
    .toBe(1);
  await framesDrawn(page);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // And the app answers the next tap itself.
  await getAccess.click();
  await expect(page.getByRole('dialog').getByLabel('E-mail')).toBeVisible();
});

test('on an invite link, Get Access tapped before the app runs opens the dialog with the code', async ({
  page,
  baseURL,
}) => {
  // /r/CODE is served the landing page's file; the app draws its own page in place of the
  // pre-rendered one, so the tapped button is replaced before the tap is replayed.
  const friend = (await registerUser(baseURL!, uniqueEmail('early-friend'))).userData
    .user_invite_code;
  const code = await holdAppCode(page);
  await page.goto(`/r/${friend}`, { waitUntil: 'commit' });
  await expectInViewBeforeHydration(page, 'Solana Mafia Wars');
  // The offer's Get Access (the second on the page): the replay reaches that same control.
  const getAccess = page.getByRole('button', { name: 'Get Access' }).nth(1);
  await getAccess.click();
  await expect(getAccess).toHaveAttribute('data-tap-held', '');
  code.release();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(friend, { exact: true })).toBeVisible();
});

test('a second tap while the first is held opens one dialog, not two', async ({ page }) => {
  const code = await holdAppCode(page);
  await page.goto('/', { waitUntil: 'commit' });
  await expectInViewBeforeHydration(page, 'Solana Mafia Wars');
  const getAccess = page.getByRole('button', { name: 'Get Access' }).first();
  const box = await getAccess.boundingBox();
  await getAccess.click();
  // The second tap lands on the dimmed page under the dialog's frame: it changes nothing.
  await page.mouse.click((box?.x ?? 0) + (box?.width ?? 0) / 2, (box?.y ?? 0) + 4);
  await expect(page.getByRole('dialog', { name: 'Sign In' })).toBeVisible();
  code.release();
  await expect(page.getByRole('dialog').getByLabel('E-mail')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a docs link tapped before hydration opens the guide', async ({ page }) => {
  const code = await holdAppCode(page);
  await page.goto('/', { waitUntil: 'commit' });
  await expectInViewBeforeHydration(page, 'Solana Mafia Wars');
  await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Docs' }).click();
  await expect(page).toHaveURL(/\/docs\/intro$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible();
  code.release();
  await expect(page.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible();
});

test('the theme control tapped before hydration switches the theme once the app runs', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  const code = await holdAppCode(page);
  await page.goto('/', { waitUntil: 'commit' });
  await expectInViewBeforeHydration(page, 'Solana Mafia Wars');
  // Before the app runs, the header holds a stand-in for the control.
  const standIn = page.locator('[data-tap="theme"]');
  await expect(standIn).toBeVisible();
  await standIn.click();
  await expect(standIn).toHaveAttribute('data-tap-held', '');
  code.release();
  // Auto (system) → light, as one tap on the hydrated control does.
  const toggle = page.getByTestId('theme-toggle');
  await expect(toggle).toHaveAttribute('data-theme-current', 'light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});

test("a signed-in visitor's home code leaves with the page; a visitor's home never asks for it [§6.visitor]", async ({
  page,
  baseURL,
}) => {
  await signInNewUser(page, baseURL!, 'early-home');
  const code = await holdAppCode(page);
  await page.goto('/', { waitUntil: 'commit' });
  // Every script of the app is held: only the head's boot script can have asked for it.
  await expect
    .poll(() => code.asked.some((path) => /\/SignedInHome-[^/]+\.js$/.test(path)))
    .toBe(true);
  expect(await page.evaluate(() => performance.getEntriesByName('smw-hydrated').length)).toBe(0);
  code.release();
  await expect(page.getByRole('tab', { name: 'Get Ticket' })).toBeVisible();

  const visitor = await page.context().browser()!.newPage();
  try {
    const asked: string[] = [];
    visitor.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await visitor.goto(new URL('/', baseURL).href);
    await waitForApp(visitor);
    await expect(visitor.getByRole('button', { name: 'Get Access' }).first()).toBeVisible();
    await visitor.waitForLoadState('networkidle');
    expect(asked.filter((path) => /\/SignedInHome-/.test(path))).toEqual([]);
  } finally {
    await visitor.close();
  }
});

test('no stylesheet the page already carries inline is fetched again, signed in or tapping Get Access', async ({
  page,
  baseURL,
}) => {
  /** The CSS files the page fetched, by path, with their text. */
  const watchCss = (target: Page) => {
    const fetched = new Map<string, Promise<string>>();
    target.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path.endsWith('.css')) fetched.set(path, response.text());
    });
    return fetched;
  };
  /** The files of `fetched` whose rules the page's own <style> blocks hold already. */
  const alreadyInline = async (target: Page, fetched: Map<string, Promise<string>>) => {
    const inline = await target.evaluate(() =>
      [...document.querySelectorAll('style')].map((style) => style.textContent ?? '').join('\n'),
    );
    const twice: string[] = [];
    for (const [path, text] of fetched) if (inline.includes((await text).trim())) twice.push(path);
    return twice;
  };

  await signInNewUser(page, baseURL!, 'css-once');
  const signedIn = watchCss(page);
  await page.goto('/');
  await expect(page.getByRole('tab', { name: 'Get Ticket' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(signedIn.size, 'the signed-in home fetched its own CSS').toBeGreaterThan(0);
  // And the page carries each of its stylesheets once.
  const blocks = await page.evaluate(() =>
    [...document.querySelectorAll('style')].map((style) => style.textContent ?? ''),
  );
  expect(new Set(blocks).size).toBe(blocks.length);
  expect(await alreadyInline(page, signedIn)).toEqual([]);

  const visitor = await page.context().browser()!.newPage();
  try {
    const tapped = watchCss(visitor);
    await visitor.goto(new URL('/', baseURL).href);
    await waitForApp(visitor);
    await visitor.getByRole('button', { name: 'Get Access' }).first().click();
    await expect(visitor.getByRole('dialog')).toBeVisible();
    await visitor.waitForLoadState('networkidle');
    expect(tapped.size, 'the sign-in dialog fetched its own CSS').toBeGreaterThan(0);
    expect(await alreadyInline(visitor, tapped)).toEqual([]);
  } finally {
    await visitor.close();
  }
});

test("a signed-in visitor's stored session and user data are asked for with sess/init, and taken once it answers", async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('early-reads');
  const user = await registerUser(baseURL!, email);
  await signInPage(page, user);
  // sess/init is held: the reads that do not depend on its answer still leave.
  const { sent, answerInit } = await holdSessInit(page);
  await page.goto('/', { waitUntil: 'commit' });
  await expect
    .poll(() => [...sent].sort(), { message: 'sess/load and user/data sent with sess/init' })
    .toEqual(['sess/init', 'sess/load', 'user/data']);
  // The session has not loaded while sess/init is unanswered: the loader stays.
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeVisible();
  answerInit();
  await expect(page.getByRole('tab', { name: 'Get Ticket' })).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();
  // The head's answers were taken: the app asked for none of them again.
  expect(sent.filter((path) => path === 'user/data' || path.startsWith('sess/')).sort()).toEqual([
    'sess/init',
    'sess/load',
    'user/data',
  ]);
});

test("a new visitor's sess/create leaves with sess/init; the page comes into view once both answered", async ({
  page,
}) => {
  const createAnswer = page.waitForResponse('**/api/sess/create');
  const { sent, answerInit } = await holdSessInit(page);
  await page.goto('/', { waitUntil: 'commit' });
  await expect
    .poll(() => [...sent].sort(), { message: 'sess/create sent with sess/init' })
    .toEqual(['sess/create', 'sess/init']);
  // The session has not loaded while sess/init (its version check) is unanswered.
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeVisible();
  answerInit();
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Get Access' }).first()).toBeVisible();
  // The app took the head's new session: stored, and no second one asked for.
  const created = ((await (await createAnswer).json()) as { sessionToken?: unknown }).sessionToken;
  expect(created).toEqual(expect.any(String));
  await expect.poll(() => page.evaluate(() => localStorage.getItem('sessionToken'))).toBe(created);
  expect(sent.filter((path) => path.startsWith('sess/')).sort()).toEqual([
    'sess/create',
    'sess/init',
  ]);
});
