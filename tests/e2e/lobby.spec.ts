import type { Page } from '@playwright/test';
import { readOutboxCode } from '../support/api';
import { expect, test } from '../support/e2e';
import {
  buyTicket,
  keepScreenshot,
  newMember,
  openHomeAs,
  registerUser,
  uniqueEmail,
  useTheme,
  waitForApp,
  type RegisteredUser,
} from '../support/pages';

/**
 * The signed-in home as a lobby, on the real local server: the player's gang at the centre
 * (what the ticket gives, +1 Gangster per friend who bought, arriving while the page is open),
 * the ticket and friends progress beside it, one counters block on the Invite tab, words that
 * agree when friends brought the player in, the Invite card leading to the invite link, and the
 * landing's word to a visitor who came through a friend's /r/CODE link.
 */
const LIVE_WITHIN_MS = 10_000;

const gang = (page: Page) => page.getByRole('region', { name: 'Your gang' });

async function openLobby(page: Page, user: RegisteredUser) {
  await openHomeAs(page, user);
  await expect(page.getByRole('button', { name: 'Exit' })).toBeVisible();
}

/** An inviter whose `friends` invitees have each bought a ticket. */
async function inviterWithBuyers(baseURL: string, friends: number, tag: string) {
  const inviter = await registerUser(baseURL, uniqueEmail(tag));
  for (let i = 0; i < friends; i += 1) {
    const friend = await registerUser(
      baseURL,
      uniqueEmail(`${tag}-f${i}`),
      inviter.userData.user_invite_code,
    );
    await buyTicket(baseURL, friend);
  }
  return inviter;
}

test('desktop 1440: the gang and the progress sit beside the tabs, the gang drawn large', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const user = await newMember(baseURL!, 'wide');
  await openLobby(page, user);
  await expect(gang(page)).toBeVisible();
  const gangBox = await gang(page).boundingBox();
  const tabsBox = await page.getByRole('tablist', { name: 'Home' }).boundingBox();
  expect(gangBox && tabsBox, 'gang and tabs drawn').toBeTruthy();
  // Two columns: the gang on the left, the tabs on the right, both starting above the fold.
  expect(gangBox!.x + gangBox!.width).toBeLessThanOrEqual(tabsBox!.x);
  expect(gangBox!.y).toBeLessThan(900);
  expect(tabsBox!.y).toBeLessThan(900);
  // The page uses the width: the two columns together span more than 1100 px.
  expect(tabsBox!.x + tabsBox!.width - gangBox!.x).toBeGreaterThan(1100);
  // What an Early Bird ticket gives, each drawn large in the game's art (loaded, not a gap).
  await expect(gang(page).getByTestId('gang-gangsters')).toHaveText('2 Gangsters');
  const art = gang(page).locator('.gang-item img');
  await expect(art.first()).toHaveJSProperty('complete', true);
  const drawn = await art.evaluateAll((images) =>
    images.map((image) => ({
      src: new URL((image as HTMLImageElement).src).pathname,
      loaded: (image as HTMLImageElement).naturalWidth > 0,
      width: image.getBoundingClientRect().width,
    })),
  );
  expect(drawn.map((image) => image.src)).toEqual(
    expect.arrayContaining(['/media/art/gangster.svg']),
  );
  for (const image of drawn) {
    expect(image.loaded, image.src).toBe(true);
    expect(image.width, image.src).toBeGreaterThanOrEqual(96);
  }
  await expect(gang(page).getByTestId('progress-ticket')).toHaveText('Issued');
});

test('phone 390: one column, the gang above the tabs, nothing wider than the screen', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const user = await registerUser(baseURL!, uniqueEmail('narrow'));
  await openLobby(page, user);
  await expect(gang(page)).toBeVisible();
  const gangBox = await gang(page).boundingBox();
  const tabsBox = await page.getByRole('tablist', { name: 'Home' }).boundingBox();
  expect(gangBox!.y + gangBox!.height).toBeLessThanOrEqual(tabsBox!.y);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // Without access the gang is what the ticket will give, not something held.
  await expect(gang(page)).toContainText('Not bought yet');
  await expect(gang(page).locator('.gang-figure svg path').first()).toBeAttached();
  await keepScreenshot(page, 'lobby-noaccess-390x844');
});

test('phone 390×844: the payment panel begins in the first screen, its wallet and QR way in above the fold; the development tool comes last', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const user = await registerUser(baseURL!, uniqueEmail('fold'));
  await openLobby(page, user);
  const wallet = page.getByTestId('wallet-card');
  await expect(wallet).toBeVisible();
  const walletBox = await wallet.boundingBox();
  const qrBox = await page.getByRole('button', { name: 'Pay with a QR code' }).boundingBox();
  expect(walletBox!.y, 'the play wallet starts above the fold').toBeLessThan(844);
  expect(qrBox!.y + qrBox!.height, 'Pay with a QR code fits the first screen').toBeLessThanOrEqual(
    844,
  );
  // The local build's own wallet is a developer's tool: after every way a player pays.
  const order = await page
    .getByTestId('wallet-card')
    .locator('xpath=..')
    .evaluate((panel) =>
      [...panel.children].map(
        (child) => (child as HTMLElement).dataset.testid ?? child.tagName.toLowerCase(),
      ),
    );
  expect(order.at(-1)).toBe('local-wallet');
});

test('each friend who buys adds a Gangster to the gang while the page is open', async ({
  page,
  baseURL,
}) => {
  const inviter = await newMember(baseURL!, 'grow');
  await openLobby(page, inviter);
  await expect(gang(page).getByTestId('gang-gangsters')).toHaveText('2 Gangsters');
  // Live updates are on before the friend buys (a change before the socket is up is not news).
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected');
  const friend = await registerUser(
    baseURL!,
    uniqueEmail('grow-friend'),
    inviter.userData.user_invite_code,
  );
  await buyTicket(baseURL!, friend);
  await expect(gang(page).getByTestId('gang-gangsters')).toHaveText('3 Gangsters', {
    timeout: LIVE_WITHIN_MS,
  });
  await expect(gang(page).getByTestId('gang-from-friends')).toHaveText('+1 from a friend');
  await expect(page.getByRole('list', { name: 'What you have' })).toContainText('3 Gangsters');
});

test('entry through friends: no ticket is said to be issued, and each friend counts a Gangster', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const inviter = await inviterWithBuyers(baseURL!, 3, 'byfriends');
  await openLobby(page, inviter);
  await expect(page.getByRole('heading', { name: 'Access Granted!' })).toBeVisible();
  await expect(page.getByText('Your ticket has been issued.')).toHaveCount(0);
  await expect(page.getByTestId('access-by-friends')).toHaveText(
    'Two friends bought tickets with your invite code.',
  );
  await expect(page.getByTestId('entry-line')).toHaveText(
    'You are in through your friends: no ticket needed.',
  );
  await expect(page.getByTestId('progress-ticket')).toHaveText('Not needed');
  await expect(page.getByTestId('progress-friends')).toHaveText('2/2');
  // 2 Gangsters come with entry, +1 for each of the 3 friends who bought.
  await expect(page.getByRole('list', { name: 'What you have' })).toHaveText('5 Gangsters');
  await expect(gang(page).getByTestId('gang-gangsters')).toHaveText('5 Gangsters');
  await expect(gang(page).locator('.gang-figure svg path').first()).toBeAttached();
  await keepScreenshot(page, 'lobby-byfriends-1280x800');
});

test('the Invite tab shows its counters once', async ({ page, baseURL }) => {
  const inviter = await inviterWithBuyers(baseURL!, 1, 'once');
  await registerUser(baseURL!, uniqueEmail('once-reg'), inviter.userData.user_invite_code);
  await openLobby(page, inviter);
  await page.getByRole('tab', { name: 'Invite' }).click();
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByTestId('counter-registered')).toHaveText('2');
  await expect(panel.getByTestId('counter-confirmed')).toHaveText('1/2');
  // Registered and confirmed figures appear in one block, not twice.
  await expect(panel.locator('[data-testid*="registered"]')).toHaveCount(1);
  await expect(panel.locator('[data-testid*="confirmed"]')).toHaveCount(1);
});

test('choosing "Invite 2 friends" on the landing leads, after sign-in, to the invite link', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('chooser');
  await page.goto('/');
  await waitForApp(page);
  await page.getByText('Invite 2 friends', { exact: true }).click();
  await expect(page.getByRole('radio', { name: /Invite 2 friends/ })).toBeChecked();
  await page.locator('.offer-cta').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
  const code = await readOutboxCode(baseURL!, email);
  const boxes = dialog.getByRole('textbox', { name: /^Digit \d of 6$/ });
  for (let i = 0; i < 6; i += 1) await boxes.nth(i).fill(code[i] ?? '');
  const verify = dialog.getByRole('button', { name: 'Verify' });
  if (await verify.isEnabled()) await verify.click().catch(() => {});
  await expect(dialog).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByRole('tab', { name: 'Invite' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('invite-link')).toBeVisible();
});

test('a visitor from a friend’s /r/CODE link is told a friend invited them; others are not', async ({
  page,
  baseURL,
}) => {
  const inviter = await registerUser(baseURL!, uniqueEmail('cue-inviter'));
  const code = inviter.userData.user_invite_code;
  await page.goto('/');
  await waitForApp(page);
  await expect(page.getByTestId('invited-cue')).toHaveCount(0);
  await page.goto(`/r/${code}`);
  await waitForApp(page);
  await expect(page).toHaveURL(/\/$/);
  const cue = page.getByTestId('invited-cue');
  await expect(cue).toBeVisible();
  await expect(cue).toContainText('A friend invited you');
  await expect(cue).toContainText(code.toUpperCase());
  // Near the sign-in call to action: within the hero, above the fold of a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(cue).toBeInViewport();
  await keepScreenshot(page, 'landing-invited-390x844');
});

// The lobby as a player sees it, both sizes and themes (kept under test-results/screenshots/).
for (const theme of ['light', 'dark'] as const) {
  test(`lobby screenshots, ${theme}`, async ({ page, baseURL }) => {
    test.setTimeout(60_000);
    const inviter = await inviterWithBuyers(baseURL!, 1, `shot-${theme}`);
    await buyTicket(baseURL!, inviter);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await useTheme(page, theme);
    await page.addInitScript(() => localStorage.setItem('fonts', 'ready'));
    for (const [w, h] of [
      [390, 844],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await openLobby(page, inviter);
      await expect(gang(page).getByTestId('gang-gangsters')).toHaveText('3 Gangsters');
      // As the player sees it once settled: the icons drawn, the ticket panel in place.
      await expect(gang(page).locator('.gang-figure svg path').first()).toBeAttached();
      await expect(page.getByRole('heading', { name: 'Access Granted!' })).toBeVisible();
      await keepScreenshot(page, `lobby-${w}x${h}-${theme}`);
      await page.getByRole('tab', { name: 'Invite' }).click();
      await expect(page.getByTestId('invite-stats')).toBeVisible();
      await keepScreenshot(page, `lobby-invite-${w}x${h}-${theme}`);
    }
  });
}

// §2 Home logged in, the look issue's lobby: the player's gang as the key art's cast.
test("the player's gang stands on the key art's street: the city without its gang behind them, each held Gangster a black silhouette rim-lit like the scene's", async ({
  page,
  baseURL,
}) => {
  const inviter = await inviterWithBuyers(baseURL!, 1, 'street');
  await buyTicket(baseURL!, inviter);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLobby(page, inviter);
  await expect(gang(page).getByTestId('gang-gangsters')).toHaveText('3 Gangsters');
  const crew = gang(page).locator('.gang-crew');
  await expect(crew).toHaveCSS('background-image', /\/media\/lobby-street\.webp/);
  // The street is fetched and drawn, not only named.
  await expect
    .poll(() =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .some((entry) => entry.name.endsWith('/media/lobby-street.webp')),
      ),
    )
    .toBe(true);
  const figures = await crew.locator('.gang-figure').evaluateAll((nodes) =>
    nodes.map((node) => {
      const style = getComputedStyle(node);
      return {
        color: style.color,
        filter: style.filter,
        friend: node.classList.contains('gang-figure--friend'),
        pose: node.querySelector('svg')?.dataset.pose,
        box: node.getBoundingClientRect().toJSON() as DOMRect,
      };
    }),
  );
  expect(figures).toHaveLength(3);
  // Whole figures standing on the street, not an icon's hat: each at least twice as tall as it
  // is wide, in the scene's three poses from the left, their feet on one line.
  expect(figures.map((f) => f.pose)).toEqual(['smoking', 'tommy-gun', 'standing']);
  for (const { box } of figures) expect(box.height).toBeGreaterThanOrEqual(2 * box.width);
  expect(new Set(figures.map((f) => Math.round(f.box.bottom))).size).toBe(1);
  for (const figure of figures) {
    expect(figure.color, 'a silhouette').toBe('rgb(7, 7, 13)');
    // Lit from both sides: two coloured rims and a shadow on the street.
    expect(figure.filter.match(/drop-shadow/g) ?? []).toHaveLength(3);
  }
  // The friend's Gangster is lit by the BAR sign's teal, the two of entry by the HOTEL's red.
  expect(figures.filter((f) => f.friend)).toHaveLength(1);
  expect(figures.find((f) => f.friend)!.filter).toContain('rgba(92, 232, 220');
  expect(figures.find((f) => !f.friend)!.filter).toContain('rgba(255, 72, 104');
});
