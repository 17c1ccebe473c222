import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Response } from '@playwright/test';
import { expect, test } from '../support/e2e';
import { E2E_SITE_DIR, ROOT, type RunningServer } from '../support/local-server';
import {
  keepScreenshot,
  openDocsContents,
  signInPage,
  uniqueEmail,
  useTheme,
  waitForApp,
} from '../support/pages';
import { readOutboxCode, registerUser } from '../support/api';

/**
 * Issue 52: open pages survive restarts, deploys and outages. The server is restarted under open
 * pages with a *different* build of the site (a new release: other hashed names), on the same
 * port and data folder, and the pages, never reloaded, keep working; stopped and started again,
 * the pages recover by themselves; and with the old release's files truly gone, the page offers
 * the update.
 */
const CONNECT =
  'Unable to connect to the server. Please check your internet connection and try again.';
const UPDATE = 'A new version of the site is ready';
const SITE_B = join(ROOT, `.local/e2e-site-next-${process.env.E2E_RUN_ID ?? 'local'}`);
const DAY_MS = 24 * 60 * 60 * 1000;

const assetNames = (dir: string) => new Set(readdirSync(join(dir, 'assets')));
let namesA = new Set<string>();
let namesB = new Set<string>();

test.beforeAll(() => {
  test.setTimeout(120_000);
  // The next release: the same source dated a day later, so its hashed names differ.
  const commit = spawnSync('git', ['log', '-1', '--format=%ct'], { cwd: ROOT, encoding: 'utf8' });
  const builtAt = Number(commit.stdout.trim()) * 1000 + DAY_MS;
  const result = spawnSync(
    join(ROOT, 'node_modules/.bin/vite'),
    ['build', '--mode', 'localsite', '--outDir', SITE_B, '--emptyOutDir'],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, SMW_BUILT_AT: String(builtAt) } },
  );
  if (result.status !== 0) throw new Error(`the next release's build failed:\n${result.stderr}`);
  namesA = assetNames(E2E_SITE_DIR);
  namesB = assetNames(SITE_B);
});
test.afterAll(() => {
  for (const dir of [SITE_B, ...dataFolders]) rmSync(dir, { recursive: true, force: true });
});

test.beforeEach(({ allowConsoleErrors }) => {
  // What a stopped server or a replaced file leaves in the console, said by the page or Chromium.
  allowConsoleErrors(
    /could not load|dynamically imported module|ERR_CONNECTION_REFUSED|Failed to load resource|WebSocket|Failed to fetch|Unable to preload|The server does not answer/,
  );
});

/** The part of the old release the page asks for: in the first build, not in the next. */
const onlyInA = (prefix: string) =>
  [...namesA].filter(
    (name) => name.startsWith(`${prefix}-`) && name.endsWith('.js') && !namesB.has(name),
  );

type Restartable = {
  url: string;
  /** Stops the server (open sockets closed as a restart closes them). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data folder, with `site` (default: the same build). */
  start(site?: string): Promise<void>;
};

/** A server of the test's own, stoppable and restartable on one port and one data folder. */
async function restartable(
  freshServer: (opts?: {
    port?: number;
    dataDir?: string;
    siteDir?: string;
  }) => Promise<RunningServer>,
  dataDir: string,
): Promise<Restartable> {
  let server = await freshServer({ dataDir, siteDir: E2E_SITE_DIR });
  const url = server.url;
  const port = Number(new URL(url).port);
  return {
    url,
    stop: () => server.close(),
    async start(site = E2E_SITE_DIR) {
      server = await freshServer({ port, dataDir, siteDir: site });
    },
  };
}

/** The page has loaded what it loads by itself (the member services, fonts) before the stop. */
async function settled(page: Page) {
  await waitForApp(page);
  await page.waitForLoadState('networkidle');
}

/** A server of the test's own with `path` open on it, settled and marked. */
async function openOnServer(
  page: Page,
  freshServer: Parameters<typeof restartable>[0],
  path: string,
): Promise<Restartable> {
  const server = await restartable(freshServer, dataFolder());
  await page.goto(`${server.url}${path}`);
  await settled(page);
  await markPage(page);
  return server;
}

/** The page keeps a mark that only a reload would wipe. */
const markPage = (page: Page) =>
  page.evaluate(() => ((window as { e2eMark?: number }).e2eMark = 1));
const stillSamePage = async (page: Page) =>
  expect(await page.evaluate(() => (window as { e2eMark?: number }).e2eMark)).toBe(1);

/** Every /assets/ answer the page got, to check none was missing. */
function watchAssets(page: Page): Response[] {
  const answers: Response[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/assets/')) answers.push(response);
  });
  return answers;
}

/** The page is never empty: its header (or the docs sidebar) and a heading are on screen. */
async function notBlank(page: Page) {
  await expect(page.getByRole('banner').first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
}

/** Nothing says the player's internet failed, and no update is offered. */
async function noConnectionBlame(page: Page) {
  await expect(page.getByText(CONNECT)).toHaveCount(0);
  await expect(page.getByText(UPDATE)).toHaveCount(0);
}

/** A data folder of the test's own (the server's SQLite file and its kept releases). */
const dataFolders: string[] = [];
const dataFolder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'smw-restart-'));
  dataFolders.push(dir);
  return dir;
};

/** Clicks every guide and legal page in the docs sidebar; each shows its own text. */
async function readEveryGuide(page: Page) {
  const links = (await openDocsContents(page)).getByRole('link');
  const titles = (await links.allTextContents()).filter((t) => !t.includes('Back to Home'));
  expect(titles.length).toBe(11);
  for (const title of titles) {
    await (await openDocsContents(page)).getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const body = page.locator('.docs-body');
    await expect(body).not.toHaveClass(/docs-body-loading/);
    await expect(body).not.toBeEmpty();
  }
}

const DEVICES = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
] as const;

for (const device of DEVICES) {
  test.describe(`restarted with a new release under an open page (${device.name})`, () => {
    test.use({ viewport: device.viewport });
    test.setTimeout(90_000);

    test('the landing page: Get Access opens the dialog, Read Docs and every guide show their page', async ({
      page,
      freshServer,
    }) => {
      expect(onlyInA('SignInModal')).toHaveLength(1);
      expect(onlyInA('DocsPage')).toHaveLength(1);
      const server = await restartable(freshServer, dataFolder());
      const assets = watchAssets(page);
      await page.goto(server.url);
      await settled(page);
      await markPage(page);
      await server.stop();
      await server.start(SITE_B);

      await page.getByRole('button', { name: 'Get Access' }).first().click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: 'Sign In' })).toBeVisible();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toHaveCount(0);
      await page
        .getByRole('link', { name: /Read Docs|View Docs/ })
        .first()
        .click();
      await expect(page.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible();
      await readEveryGuide(page);
      await notBlank(page);
      await noConnectionBlame(page);
      await stillSamePage(page);
      // The old release's parts came from the kept files, none was missing.
      const fromOld = assets.filter((r) => !namesB.has(new URL(r.url()).pathname.slice(8)));
      expect(fromOld.map((r) => r.status()).filter((s) => s >= 400)).toEqual([]);
      expect(fromOld.some((r) => r.url().includes('/assets/SignInModal-'))).toBe(true);
      expect(fromOld.some((r) => r.url().includes('/assets/DocsPage-'))).toBe(true);
    });

    test('a docs page: every guide link shows its page, Back and Forward too', async ({
      page,
      freshServer,
    }) => {
      const server = await openOnServer(page, freshServer, '/docs/lore');
      await server.stop();
      await server.start(SITE_B);
      await readEveryGuide(page);
      await page.goBack();
      await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
      await page.goForward();
      await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
      await notBlank(page);
      await noConnectionBlame(page);
      await stillSamePage(page);
    });

    test('the sign-in dialog at its code step: Verify signs in and shows the home', async ({
      page,
      freshServer,
    }) => {
      const server = await openOnServer(page, freshServer, '/');
      await page.getByRole('button', { name: 'Get Access' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('E-mail').fill(uniqueEmail('restart'));
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await expect(dialog.getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
      await server.stop();
      await server.start(SITE_B);
      // Development mode prefills the code: Verify is ready.
      await dialog.getByRole('button', { name: 'Verify' }).click();
      await expect(page.getByRole('tab', { name: 'Get Ticket' })).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('tab', { name: 'Invite' })).toBeVisible();
      await noConnectionBlame(page);
      await stillSamePage(page);
    });

    test('the signed-in home: the Invite tab, the QR panel shows its code, paying shows only the receipt', async ({
      page,
      freshServer,
    }) => {
      test.setTimeout(120_000);
      const server = await restartable(freshServer, dataFolder());
      const user = await registerUser(server.url, uniqueEmail('restart-home'));
      await signInPage(page, user);
      await page.goto(server.url);
      await waitForApp(page);
      await expect(page.getByRole('tab', { name: 'Get Ticket' })).toBeVisible();
      await settled(page);
      await markPage(page);
      await server.stop();
      await server.start(SITE_B);

      await page.getByRole('tab', { name: 'Invite' }).click();
      await expect(page.getByRole('tabpanel')).toContainText('/r/');
      await page.getByRole('tab', { name: 'Get Ticket' }).click();
      const panel = page.getByRole('region', { name: 'Get Ticket' });
      await panel.getByRole('button', { name: 'Pay with a QR code' }).click();
      await expect(
        panel.getByRole('img', { name: 'Solana Pay QR code for the ticket transfer' }),
      ).toBeVisible();
      await panel.getByRole('button', { name: 'Hide QR code' }).click();
      await page
        .getByTestId('local-wallet')
        .getByRole('button', { name: 'Pay with the local test wallet (local chain)' })
        .click();
      await expect(page.getByRole('dialog', { name: 'Ticket Purchased!' })).toBeVisible({
        timeout: 30_000,
      });
      // Only the receipt: no notice, no toast about the connection or an update.
      await expect(page.getByRole('dialog')).toHaveCount(1);
      await noConnectionBlame(page);
      await stillSamePage(page);
    });
  });
}

/** Waits for `done`, printing how long it took after the server came back. */
async function recoveredWithin(label: string, since: number, done: Promise<void>) {
  await done;
  console.log(
    `${label}: recovered ${((Date.now() - since) / 1000).toFixed(1)} s after the server came back (realtime backoff 1, 2, 4, 8, 16 s, then every 30 s)`,
  );
}

for (const device of DEVICES) {
  test.describe(`stopped and started again under an open page (${device.name})`, () => {
    test.use({ viewport: device.viewport });
    test.setTimeout(120_000);

    test('a docs page: other guides show the connection card inside the page, Back works, and the guide comes by itself', async ({
      page,
      freshServer,
    }) => {
      const server = await openOnServer(page, freshServer, '/docs/lore');
      await server.stop();
      const sidebar = await openDocsContents(page);
      const card = page.locator('#docs-article').getByRole('alert');
      await sidebar.getByRole('link', { name: 'Fights' }).click();
      await expect(card).toContainText(CONNECT);
      await expect(card.getByRole('button', { name: 'Retry' })).toBeVisible();
      // The chrome stays: header, sidebar, the guide's title.
      await expect(page.getByRole('heading', { level: 1, name: 'Fights' })).toBeVisible();
      await notBlank(page);
      await (await openDocsContents(page)).getByRole('link', { name: 'Weapons & Packs' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Weapons & Packs' })).toBeVisible();
      await expect(card).toContainText(CONNECT);
      await page.goBack();
      await expect(page.getByRole('heading', { level: 1, name: 'Fights' })).toBeVisible();
      await expect(card).toContainText(CONNECT);
      // One message about the connection: the card, no corner notice beside it.
      await expect(page.getByText(CONNECT)).toHaveCount(1);
      await server.start();
      const back = Date.now();
      await recoveredWithin(
        `docs (${device.name})`,
        back,
        expect(page.locator('.docs-body')).toContainText(/\w{4,}/, { timeout: 60_000 }),
      );
      await expect(card).toHaveCount(0);
      await page.goForward();
      await expect(page.getByRole('heading', { level: 1, name: 'Weapons & Packs' })).toBeVisible();
      await expect(page.locator('.docs-body')).toContainText(/\w{4,}/);
      await noConnectionBlame(page);
      await stillSamePage(page);
    });

    test('Read Docs from the landing page: the page card, and the docs page by itself once the server is back', async ({
      page,
      freshServer,
    }) => {
      const server = await openOnServer(page, freshServer, '/');
      await server.stop();
      await page.getByRole('link', { name: 'Read Docs' }).first().click();
      const card = page.getByRole('main').getByRole('alert');
      await expect(card.getByRole('heading', { name: 'This page could not load' })).toBeVisible();
      await expect(card).toContainText(CONNECT);
      await server.start();
      const back = Date.now();
      await recoveredWithin(
        `Read Docs (${device.name})`,
        back,
        expect(page.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible({
          timeout: 60_000,
        }),
      );
      await expect(page.locator('.docs-body')).toContainText(/\w{4,}/);
      // Styled too: the page's stylesheet came with it (a fresh link for the one that failed).
      await expect(page.locator('.docs-layout')).toHaveCSS('display', 'grid');
      await noConnectionBlame(page);
    });

    test('the sign-in dialog: Get Access shows the card in its place, and the dialog opens by itself once the server is back', async ({
      page,
      freshServer,
    }) => {
      const server = await openOnServer(page, freshServer, '/');
      await server.stop();
      await page.getByRole('button', { name: 'Get Access' }).first().click();
      const dialog = page.getByRole('dialog');
      await expect(
        dialog.getByRole('heading', { name: 'The sign-in could not open' }),
      ).toBeVisible();
      await expect(dialog).toContainText(CONNECT);
      await expect(page.getByText(CONNECT)).toHaveCount(1);
      // Retry asks again while the server is still away: the card stays, still honest.
      await dialog.getByRole('button', { name: 'Retry' }).click();
      await expect(dialog).toContainText(CONNECT);
      await server.start();
      const back = Date.now();
      await recoveredWithin(
        `sign-in (${device.name})`,
        back,
        expect(dialog.getByRole('heading', { name: 'Sign In' })).toBeVisible({ timeout: 60_000 }),
      );
      // The dialog works: the code step follows.
      const email = uniqueEmail('outage');
      await dialog.getByLabel('E-mail').fill(email);
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await expect(dialog.getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
      // Stopped at the code step: Verify fails inside the dialog (§8 clears the boxes); back,
      // the same code verifies.
      await server.stop();
      await dialog.getByRole('button', { name: 'Verify' }).click();
      await expect(dialog.getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Verify' })).toBeDisabled();
      await server.start();
      const code = await readOutboxCode(server.url, email);
      await dialog.getByLabel(`Digit 1 of 6`).focus();
      await page.keyboard.type(code);
      await dialog.getByRole('button', { name: 'Verify' }).click();
      await expect(page.getByRole('tab', { name: 'Get Ticket' })).toBeVisible({ timeout: 15_000 });
      await stillSamePage(page);
    });
  });
}

for (const device of DEVICES)
  for (const theme of ['light', 'dark'] as const)
    test(`the outage card and the update offer, ${device.viewport.width} px, ${theme}`, async ({
      page,
      freshServer,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(device.viewport);
      await useTheme(page, theme);
      const data = dataFolder();
      const server = await restartable(freshServer, data);
      await page.goto(`${server.url}/docs/lore`);
      await settled(page);
      await server.stop();
      await (await openDocsContents(page)).getByRole('link', { name: 'Fights' }).click();
      const card = page.locator('#docs-article').getByRole('alert');
      await expect(card).toContainText(CONNECT);
      await card.scrollIntoViewIfNeeded();
      await keepScreenshot(page, `outage-card-${device.viewport.width}-${theme}`, {
        fullPage: false,
      });
      await server.start();
      await expect(card).toHaveCount(0, { timeout: 60_000 });

      // A release whose files are truly gone (the kept releases deleted): the update offer.
      await page.getByRole('link', { name: 'Back to Home' }).click();
      await expect(page.getByRole('button', { name: 'Get Access' }).first()).toBeVisible();
      await server.stop();
      rmSync(join(data, 'site-releases'), { recursive: true, force: true });
      await server.start(SITE_B);
      await page.getByRole('button', { name: 'Get Access' }).first().click();
      const offer = page.getByRole('dialog');
      await expect(offer.getByRole('heading', { name: UPDATE })).toBeVisible();
      await expect(offer.getByRole('button', { name: 'Reload' })).toHaveCount(1);
      await expect(page.getByRole('button', { name: 'Reload' })).toHaveCount(1);
      await expect(page.getByText(CONNECT)).toHaveCount(0);
      await keepScreenshot(page, `update-offer-${device.viewport.width}-${theme}`, {
        fullPage: false,
      });
      await offer.getByRole('button', { name: 'Reload' }).click();
      await waitForApp(page);
      // The new release: Get Access opens its dialog.
      await page.getByRole('button', { name: 'Get Access' }).first().click();
      await expect(
        page.getByRole('dialog').getByRole('heading', { name: 'Sign In' }),
      ).toBeVisible();
    });

test('the signed-in home with its release gone: Docs offers the update in the page’s place; Reload keeps the sign-in', async ({
  page,
  freshServer,
}) => {
  test.setTimeout(90_000);
  const data = dataFolder();
  const server = await restartable(freshServer, data);
  const user = await registerUser(server.url, uniqueEmail('update-home'));
  await signInPage(page, user);
  await page.goto(server.url);
  await waitForApp(page);
  await expect(page.getByRole('tab', { name: 'Get Ticket' })).toBeVisible();
  await settled(page);
  await server.stop();
  rmSync(join(data, 'site-releases'), { recursive: true, force: true });
  await server.start(SITE_B);
  await page.getByRole('banner').getByRole('link', { name: 'Docs' }).click();
  const offer = page.getByRole('main').getByRole('alert');
  await expect(offer.getByRole('heading', { level: 1, name: UPDATE })).toBeVisible();
  await expect(offer).toContainText('You stay signed in.');
  await expect(page.getByRole('button', { name: 'Reload' })).toHaveCount(1);
  await expect(page.getByText(CONNECT)).toHaveCount(0);
  await offer.getByRole('button', { name: 'Reload' }).click();
  // The new release's docs page, still signed in: Home shows the tabs, not the landing page.
  await expect(page.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page.getByRole('tab', { name: 'Get Ticket' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Get Access' })).toHaveCount(0);
});
