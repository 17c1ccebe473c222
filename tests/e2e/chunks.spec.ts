import type { Page, Route } from '@playwright/test';
import { expect, test } from '../support/e2e';
import { signInNewUser, waitForApp } from '../support/pages';

/**
 * Parts of the site that load on demand (the sign-in dialog, the overlays, the signed-in home,
 * the member services) never fail silently: when their code cannot load (the server is gone),
 * the page says so with a Retry button, and Retry brings the part once the server is back.
 */
const CONNECT =
  'Unable to connect to the server. Please check your internet connection and try again.';

/** Refuses the chunk whose file name starts with `name` until the returned function is called. */
async function holdChunk(page: Page, name: string): Promise<() => Promise<void>> {
  // With or without the query a retry adds (src/platform/retryableImport.ts): the server is gone.
  const pattern = new RegExp(`/assets/${name}-[^/?]+\\.js(\\?.*)?$`);
  const refuse = (route: Route) => route.abort('connectionrefused');
  await page.route(pattern, refuse);
  return () => page.unroute(pattern, refuse);
}

const notice = (page: Page) => page.getByRole('alert').filter({ hasText: CONNECT });

/**
 * Presses the notice's Retry. The page also asks again by itself on its backoff (1, 2, 4 s… after
 * the failure, src/platform/chunkRetry.ts): under load the notice can be gone, the parts loaded,
 * before the press lands, and then there is nothing left to press.
 */
const pressRetry = (page: Page) =>
  notice(page)
    .getByRole('button', { name: 'Retry' })
    .click({ timeout: 5_000 })
    .catch(() => expect(notice(page)).toHaveCount(0));

test.beforeEach(({ allowConsoleErrors }) => {
  allowConsoleErrors(/could not load|dynamically imported module|ERR_CONNECTION_REFUSED/);
});

test('Get Access with the sign-in code unreachable says so in the dialog’s place; it opens once the code is back', async ({
  page,
}) => {
  const release = await holdChunk(page, 'SignInModal');
  await page.goto('/');
  await waitForApp(page);
  await page.getByRole('button', { name: 'Get Access' }).first().click();
  const card = page.getByRole('dialog').filter({ hasText: CONNECT });
  await expect(card.getByRole('heading', { name: 'The sign-in could not open' })).toBeVisible();
  // One message: the card carries it, the corner notice steps aside.
  await expect(notice(page)).toHaveCount(1);
  await expect(page.getByText('Part of the page could not load.')).toHaveCount(0);
  // Still unreachable: Retry asks the server again at once and the card stays.
  const asked = page.waitForRequest(/\/assets\/SignInModal-[^/?]+\.js/);
  await card.getByRole('button', { name: 'Retry' }).click();
  await asked;
  await expect(card).toBeVisible();
  await release();
  // Back: the dialog opens by itself (or by Retry), styled, in the card's place.
  await expect(page.getByRole('dialog').getByRole('heading', { name: 'Sign In' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(notice(page)).toHaveCount(0);
});

test('the signed-in home with its code unreachable says so; Retry shows it', async ({
  page,
  baseURL,
}) => {
  await signInNewUser(page, baseURL!, 'chunks');
  const release = await holdChunk(page, 'SignedInHome');
  await page.goto('/');
  await expect(notice(page)).toBeVisible();
  await release();
  await notice(page).getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Solana Mafia Wars' })).toBeVisible();
  await expect(notice(page)).toHaveCount(0);
});

test('overlays and member services that cannot load say so; Retry loads them', async ({ page }) => {
  const releases = await Promise.all(
    ['ErrorModal', 'Toast', 'VideoModal', 'members'].map((name) => holdChunk(page, name)),
  );
  await page.goto('/');
  await waitForApp(page);
  await expect(notice(page)).toBeVisible();
  for (const release of releases) await release();
  await pressRetry(page);
  await expect(notice(page)).toHaveCount(0);
  // The video modal came with the retry: the promo video opens.
  await page.getByRole('button', { name: /Watch the trailer/ }).click();
  await expect(page.getByRole('dialog', { name: 'Promo video' })).toBeVisible();
});

test('the member services that cannot load say so on the signed-in home; Retry loads them', async ({
  page,
  baseURL,
}) => {
  await signInNewUser(page, baseURL!, 'members');
  const release = await holdChunk(page, 'members');
  await page.goto('/');
  await expect(page.getByRole('tab', { name: 'Get Ticket' })).toBeVisible();
  await expect(notice(page)).toBeVisible();
  await expect(page.getByText('Payment is not available right now.')).toBeVisible();
  await release();
  await notice(page).getByRole('button', { name: 'Retry' }).click();
  await expect(notice(page)).toHaveCount(0);
  // The payment service came with the retry: the ticket's send buttons are there.
  await expect(page.getByRole('button', { name: 'Send in Phantom' })).toBeVisible();
});

test('while the member services are still on their way Get Ticket says it is loading, not unavailable', async ({
  page,
  baseURL,
}) => {
  await signInNewUser(page, baseURL!, 'members-slow');
  let letThrough: () => void = () => {};
  const held = new Promise<void>((resolve) => (letThrough = resolve));
  const pattern = /\/assets\/members-[^/?]+\.js(\?.*)?$/;
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  await expect(page.getByRole('tab', { name: 'Get Ticket' })).toBeVisible();
  const pending = page.getByRole('status').filter({ hasText: 'Loading payment…' });
  await expect(pending).toBeVisible();
  await expect(page.getByText('Payment is not available right now.')).toHaveCount(0);
  letThrough();
  await expect(page.getByRole('button', { name: 'Send in Phantom' })).toBeVisible();
  await expect(pending).toHaveCount(0);
});

test('the wallet code (web3) that cannot load says so on Get Ticket; Retry loads it', async ({
  page,
  baseURL,
}) => {
  await signInNewUser(page, baseURL!, 'web3');
  let asked = 0;
  const release = await holdChunk(page, 'index.browser.esm');
  page.on('request', (request) => {
    if (/\/assets\/index\.browser\.esm-[^/]+\.js(\?[^/]*)?$/.test(request.url())) asked += 1;
  });
  await page.goto('/');
  await expect(page.getByRole('tab', { name: 'Get Ticket' })).toBeVisible();
  await expect(notice(page)).toBeVisible();
  await release();
  const before = asked;
  // Retry hides the notice at once; the file must then really arrive, and no new notice follow.
  const arrived = page.waitForResponse(
    (response) => /\/assets\/index\.browser\.esm-[^/]+\.js/.test(response.url()) && response.ok(),
  );
  await pressRetry(page);
  await arrived;
  await expect(notice(page)).toHaveCount(0);
  expect(asked).toBeGreaterThan(before);
});
