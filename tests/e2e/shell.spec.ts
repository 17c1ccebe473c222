import { expect, test } from '../support/e2e';

/**
 * The shell (§2 Shell, Loading overlay, Routes) and the session bootstrap (§4, §8) in the built
 * site against the real local server.
 */
const CONNECT_TEXT =
  'Unable to connect to the server. Please check your internet connection and try again.';

test('the loading overlay shows the logo and Loading until the session has loaded', async ({
  page,
}) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/sess/init', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  const overlay = page.getByRole('status').filter({ hasText: 'Loading' });
  await expect(overlay).toBeVisible();
  await expect(overlay.getByRole('img', { name: 'Solana Mafia Wars' })).toBeVisible();
  release();
  await expect(overlay).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Solana Mafia Wars' })).toBeVisible();
  // The app (which runs once the page is in view) stores the session it was given.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('sessionToken'))).toBeTruthy();
});

test('an unreachable API shows the Connection Error view; Reload Page recovers [§2.loading.connectionError]', async ({
  page,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/Failed to load resource|net::ERR_/);
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await page.goto('/');
  const dialog = page.getByRole('alertdialog', { name: 'Connection Error' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(CONNECT_TEXT);

  await page.unroute('**/api/**');
  await dialog.getByRole('button', { name: 'Reload Page' }).click();
  await expect(page.getByRole('alertdialog')).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Solana Mafia Wars' })).toBeVisible();
});

test('a stopped server gives the connection text', async ({
  page,
  freshServer,
  allowConsoleErrors,
}) => {
  // Stopping the server also fails the site's own lazily loaded chunks: expected here.
  allowConsoleErrors(/Failed to load resource|net::ERR_|dynamically imported module/);
  const server = await freshServer();
  // Load the site from the server, then stop it before the bootstrap can reach the API.
  await page.route('**/api/sess/init', async (route) => {
    await server.close();
    // The request now meets a closed port; should Playwright refuse to forward it, it is refused
    // here the same way, so the request never hangs.
    await route.continue().catch(() => route.abort('connectionrefused'));
  });
  await page.goto(`${server.url}/`);
  await expect(page.getByRole('alertdialog', { name: 'Connection Error' })).toContainText(
    CONNECT_TEXT,
    { timeout: 15_000 },
  );
});

test("the app's code failing to load turns the loader into the Connection Error view; Reload Page recovers", async ({
  page,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/Failed to load resource|net::ERR_/);
  await page.route(/\/assets\/.+\.js$/, (route) => route.abort('connectionrefused'));
  await page.goto('/', { waitUntil: 'commit' });
  const view = page.getByRole('alertdialog', { name: 'Connection Error' });
  await expect(view).toContainText(CONNECT_TEXT);
  await page.unroute(/\/assets\/.+\.js$/);
  await view.getByRole('button', { name: 'Reload Page' }).click();
  await expect(view).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Get Access' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Get Access' }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('a server answering version 0.1.9 shows the expired-version text', async ({
  page,
  freshServer,
}) => {
  const server = await freshServer({ apiVersion: '0.1.9' });
  await page.goto(`${server.url}/`);
  await expect(page.getByRole('alertdialog', { name: 'Connection Error' })).toContainText(
    'Expired version. Please reload the app - version 0.2.0 is required',
  );
});

test('a failing sess/init shows its server message, or Failed to load session without one', async ({
  page,
  allowConsoleErrors,
}) => {
  // §8 Session init: otherwise the server message or 'Failed to load session'; the status code
  // itself is never shown.
  allowConsoleErrors(/Failed to load resource/);
  let body = JSON.stringify({ status: 'error', message: 'Sessions are paused for maintenance' });
  await page.route('**/api/sess/init', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body }),
  );
  await page.goto('/');
  const dialog = page.getByRole('alertdialog', { name: 'Connection Error' });
  await expect(dialog).toContainText('Sessions are paused for maintenance');
  await expect(dialog).not.toContainText('503');

  body = '<html><body>Bad gateway</body></html>';
  await page.reload();
  await expect(dialog).toContainText('Failed to load session');
  await expect(dialog).not.toContainText('Bad gateway');
});

test('a stored stale session token is replaced by a new session', async ({
  page,
  allowConsoleErrors,
}) => {
  // The browser logs the refused sess/load (a 4xx) itself.
  allowConsoleErrors(/Failed to load resource: the server responded with a status of 4\d\d/);
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('sessionToken', 'stale-token-from-last-year');
    }
  });
  const calls: { path: string; status: number }[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/api/sess/')) return;
    calls.push({ path: url.pathname.slice('/api/'.length), status: response.status() });
  });
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeHidden();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  // The app (which runs once the page is in view) stores the new session in place of the old.
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('sessionToken')))
    .not.toBe('stale-token-from-last-year');
  const token = await page.evaluate(() => localStorage.getItem('sessionToken'));
  expect(token).toBeTruthy();
  // sess/load leaves with sess/init (either may answer first); sess/create once it is refused.
  const paths = calls.map((c) => c.path);
  expect([...paths].sort()).toEqual(['sess/create', 'sess/init', 'sess/load']);
  expect(paths.indexOf('sess/create')).toBeGreaterThan(paths.indexOf('sess/load'));
  // The server refused the stale token; the bootstrap then created a new session.
  expect(calls.find((c) => c.path === 'sess/load')?.status).toBeGreaterThanOrEqual(400);
  expect(calls.find((c) => c.path === 'sess/create')?.status).toBe(200);

  // The new session is kept: the next visit loads it instead of creating another.
  calls.length = 0;
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeHidden();
  expect(calls.map((c) => c.path).sort()).toEqual(['sess/init', 'sess/load']);
  expect(await page.evaluate(() => localStorage.getItem('sessionToken'))).toBe(token);
});

test('/docs lands on /docs/intro and an unknown guide shows the intro [§2.routes.docs]', async ({
  page,
}) => {
  await page.goto('/docs');
  await expect(page).toHaveURL(/\/docs\/intro$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible();
  await page.goto('/docs/nope');
  await expect(page.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible();
});

test('an invite link goes Home', async ({ page }) => {
  await page.goto('/r/ABC123');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Solana Mafia Wars' })).toBeVisible();
});
