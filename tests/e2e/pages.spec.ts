import type { Page } from '@playwright/test';
import { calendarFromEnv } from '../../contract/calendar';
import { LAUNCH_AT_MS } from '../../machines/launch/launch.types';
import { TAGLINES } from '../../machines/taglines/taglines.types';
import { postApi } from '../support/api';
import { expectNoAxeViolations } from '../support/axe';
import { expect, test } from '../support/e2e';
import {
  buyTicket,
  newMember,
  openHomeAs,
  registerUser,
  signInPage,
  uniqueEmail,
  waitForApp,
} from '../support/pages';

const GUIDES = [
  ['intro', 'Introduction', 2],
  ['lore', 'Lore', 4],
  ['info', 'How To Play', 3],
  ['token', 'Token $GNG', 2],
  ['gang', 'Gangsters & Gang', 4],
  ['weap', 'Weapons & Packs', 4],
  ['prop', 'Properties & Influence', 4],
  ['fight', 'Fights', 5],
  ['cash', 'Cash & Income', 3],
] as const;
const LEGAL = [
  ['terms', 'Terms of Service', 5],
  ['privacy', 'Privacy Policy', 4],
] as const;

const cards = (page: Page) => ({
  days: page.locator('.flip-card[aria-label="Days"] .flip-card-value'),
  hours: page.locator('.flip-card[aria-label="Hours"] .flip-card-value'),
  minutes: page.locator('.flip-card[aria-label="Minutes"] .flip-card-value'),
  seconds: page.locator('.flip-card[aria-label="Seconds"] .flip-card-value'),
});

const DAY = 24 * 3600 * 1000;
const EARLY_BIRD_END = Date.UTC(2025, 10, 20);

/** The page's clock stands still at `time` (it moves only when a test says so). */
async function pinClock(page: Page, time: number) {
  await page.clock.install({ time: time - 1000 });
  await page.clock.pauseAt(time);
}

async function expectNoHorizontalOverflow(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

test.describe('landing page', () => {
  test('shows every text of the offer, with the price from the server', async ({
    page,
    freshServer,
  }) => {
    // A server with the spec's calendar, the invitation date included (the Early Bird end): the
    // shared one of these tests sets its invitation date far ahead (tests/support/invitationRuleOff.ts).
    const server = await freshServer({ calendar: calendarFromEnv({}) });
    const init = await postApi(server.url, 'sess/init', {});
    // Before Nov 20 (the spec's words for both dates), whatever today's date is.
    await pinClock(page, EARLY_BIRD_END - DAY);
    await page.goto(`${server.url}/`);
    await waitForApp(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Solana Mafia Wars' })).toBeVisible();
    for (const text of [
      'Build Your Criminal Empire',
      'Starts December 20',
      'Early Bird Entry',
      'Until Nov 20',
      'Invite 2 friends',
      'Entry plus 2 Gangsters when 2 friends buy tickets',
      '+ 5% of their in-game cash purchases',
      'Access to training',
      '4 extra starter weapons (+2 Guns, +2 Rifles)',
      'An extra pack',
      '999 invitation codes',
      'After Nov 20 an invitation via ref is required to enter',
    ]) {
      await expect(page.getByText(text, { exact: true }), text).toBeVisible();
      // Drawn as the spec writes it: no style changes its letters' case.
      await expect(page.getByText(text, { exact: true }), text).toHaveText(text, {
        useInnerText: true,
      });
    }
    // The countdown's labels (§2: Days, Hours, Minutes, Seconds), as drawn.
    await expect(page.locator('.flip-card-label')).toHaveText(
      ['Days', 'Hours', 'Minutes', 'Seconds'],
      { useInnerText: true },
    );
    await expect(page.locator('.offer-card').first()).toContainText('2 Gangsters');
    const served = init.body.data as { public_data: { ticket_price: string } };
    await expect(page.getByTestId('ticket-price')).toHaveText(
      `${served.public_data.ticket_price} SOL`,
    );
    await expect(page.getByRole('button', { name: 'Get Access' })).toHaveCount(2);
    await expect(page.getByRole('link', { name: 'Read Docs' })).toHaveAttribute(
      'href',
      '/docs/intro',
    );
    await expect(page.getByRole('link', { name: 'View Docs' })).toHaveAttribute(
      'href',
      '/docs/intro',
    );
    for (const name of ['X (Twitter)', 'Telegram', 'Discord']) {
      await expect(page.getByRole('link', { name })).toHaveAttribute('href', /^https:\/\//);
    }
    // Before the launch the countdown runs; the open state comes at the launch instant.
    await expect(page.getByRole('timer', { name: 'Time until training starts' })).toBeVisible();
    await expect(page.getByText('Boarding now · Training Open')).toHaveCount(0);
    // The two option cards are selectable.
    const invite = page.getByRole('radio', { name: /Invite 2 friends/ });
    await invite.check({ force: true });
    await expect(invite).toBeChecked();
    await expect(page.getByRole('radio', { name: /Early Bird Entry/ })).not.toBeChecked();
  });

  test('Early Bird price: old price struck through and percent off from the two [§9.prices]', async ({
    page,
  }) => {
    // The server's public data as it reads before Nov 20.
    await page.route('**/api/sess/init', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { public_data: Record<string, string> } };
      body.data.public_data = {
        ...body.data.public_data,
        price: '0.22',
        ticket_price: '0.22',
        old_price: '0.55',
      };
      await route.fulfill({ response, json: body });
    });
    await page.goto('/');
    await waitForApp(page);
    await expect(page.getByTestId('ticket-price')).toHaveText('0.22 SOL');
    await expect(page.getByTestId('old-price')).toHaveText('Old price 0.55 SOL');
    await expect(page.getByTestId('percent-off')).toHaveText('-60%');
    const tag = await page.getByTestId('old-price').evaluate((el) => el.tagName);
    expect(tag).toBe('S');
  });

  test('Get Access opens the sign-in modal; the play button opens the promo video [§2.home.getAccess]', async ({
    page,
  }) => {
    await page.goto('/');
    await waitForApp(page);
    await page.getByRole('button', { name: 'Get Access' }).first().click();
    await expect(page.getByRole('dialog').getByText('Sign In', { exact: true })).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: /Watch the trailer/ }).click();
    const video = page.getByRole('dialog', { name: 'Promo video' });
    await expect(video).toBeVisible();
    await expect(video.locator('video')).toHaveAttribute('src', '/media/promo.webm');
  });

  test('dated texts: the spec words before Nov 20 and Dec 20, true words from each date on', async ({
    page,
  }) => {
    const header = page.getByTestId('starts-header');
    const card = page.getByTestId('ticket-card');
    const badge = page.getByTestId('ticket-card-badge');
    const tier = page.getByTestId('hero-price-tier');
    const box = page.getByTestId('bonus-box');
    const open = page.getByText('Boarding now · Training Open');

    // The last second of the Early Bird.
    await pinClock(page, EARLY_BIRD_END - 1000);
    await page.goto('/');
    await waitForApp(page);
    await expect(page.getByRole('timer', { name: 'Time until training starts' })).toBeVisible();
    await expect(header).toHaveText('Starts December 20');
    await expect(card).toContainText('Early Bird Entry');
    await expect(badge).toHaveText('Until Nov 20');
    await expect(tier).toContainText('Early Bird price');
    await expect(box).toContainText('999 invitation codes');
    // Nov 20 00:00 UTC: the Early Bird has ended; the card is the entry ticket badged with the
    // tier now sold, and no Early Bird extra is promised (the clock reads just after each second).
    await page.clock.runFor(1010);
    await expect(card).toContainText('Entry Ticket');
    await expect(badge).toHaveText('Pre-launch price');
    await expect(page.getByText('Until Nov 20')).toHaveCount(0);
    await expect(tier).toContainText('Pre-launch price');
    await expect(box).toContainText('Your ticket');
    await expect(box).not.toContainText('999');
    await expect(page.getByRole('radio', { name: /Early Bird/ })).toHaveCount(0);
    await expect(header).toHaveText('Starts December 20');
    await expect(open).toHaveCount(0);

    // The last second before the training, then the launch instant.
    await page.clock.fastForward(LAUNCH_AT_MS - 1000 - (EARLY_BIRD_END + 10));
    await page.clock.runFor(50);
    await expect(header).toHaveText('Starts December 20');
    await expect(open).toHaveCount(0);
    await page.clock.runFor(1000);
    await expect(open).toBeVisible();
    await expect(header).toHaveText('Training is open: get your ticket and join now');
    await expect(page.getByText('Starts December 20', { exact: true })).toHaveCount(0);
    await expect(badge).toHaveText('Launch price');
    await expect(tier).toContainText('Launch price');

    // A page opened long after both dates reads the same from its first paint on.
    await pinClock(page, LAUNCH_AT_MS + 30 * DAY);
    await page.goto('/');
    await waitForApp(page);
    await expect(open).toBeVisible();
    await expect(header).toHaveText('Training is open: get your ticket and join now');
    await expect(badge).toHaveText('Launch price');
    await expect(tier).toContainText('Launch price');
  });

  test('the countdown ticks every second and switches at the launch instant [§4.launch.countdown]', async ({
    page,
  }) => {
    const start = LAUNCH_AT_MS - ((1 * 24 + 2) * 3600 + 3 * 60 + 5) * 1000;
    // The page's clock stands still at `start` and moves only when the test says so.
    await page.clock.install({ time: start - 1000 });
    await page.clock.pauseAt(start);
    await page.goto('/');
    const c = cards(page);
    await expect(c.days).toHaveText('01');
    await expect(c.hours).toHaveText('02');
    await expect(c.minutes).toHaveText('03');
    await expect(c.seconds).toHaveText('05');
    // The clock reads just after each whole second: 1.01 s later the card shows one less.
    await page.clock.runFor(1010);
    await expect(c.seconds).toHaveText('04');
    await page.clock.runFor(4000);
    await expect(c.minutes).toHaveText('03');
    await expect(c.seconds).toHaveText('00');
    await page.clock.runFor(1000);
    await expect(c.minutes).toHaveText('02');
    await expect(c.seconds).toHaveText('59');
    await expect(page.getByText('Boarding now · Training Open')).toHaveCount(0);
    // Jump to one second before the launch, then across it.
    await page.clock.fastForward(LAUNCH_AT_MS - 1000 - (start + 6010));
    await page.clock.runFor(50);
    await expect(c.days).toHaveText('00');
    await expect(c.hours).toHaveText('00');
    await expect(c.seconds).toHaveText('01');
    await page.clock.runFor(1000);
    await expect(page.getByText('Boarding now · Training Open')).toBeVisible();
    await expect(page.locator('.flip-card')).toHaveCount(0);
  });

  test('the subheader shows the next of the five taglines every 3 s [§2.home.taglines]', async ({
    page,
  }) => {
    const time = Date.parse('2026-01-01T00:00:00Z');
    await page.clock.install({ time: time - 1000 });
    await page.clock.pauseAt(time);
    await page.goto('/');
    // The pre-rendered HTML already reads the first tagline; the rotation starts when the hero
    // hydrates, which the countdown shows by leaving its reserved form (here: past the launch).
    await expect(page.getByText('Boarding now · Training Open')).toBeVisible();
    const tagline = page.locator('.taglines-text');
    await expect(tagline).toHaveText(TAGLINES[0]);
    // The first tagline is there with the page: nothing fades it in.
    expect(await tagline.evaluate((el) => el.getAnimations().length)).toBe(0);
    // The rotation starts with the subheader's part of the page, which may hydrate a moment after
    // the countdown shows: the clock moves in 100 ms steps until the second tagline shows (within
    // one period of that moment), and from there every step must take exactly 3 s.
    let waited = 0;
    while ((await tagline.textContent()) === TAGLINES[0] && waited < 6000) {
      await page.clock.runFor(100);
      waited += 100;
    }
    await expect(tagline).toHaveText(TAGLINES[1]);
    for (const next of [...TAGLINES.slice(2), TAGLINES[0]]) {
      await page.clock.runFor(2900);
      await expect(tagline).not.toHaveText(next);
      await page.clock.runFor(100);
      await expect(tagline).toHaveText(next);
      // Each next tagline slides in, the first one too when the rotation comes back to it.
      await expect(tagline).toHaveClass(/taglines-text--in/);
    }
  });

  test('nothing overflows at 360 px; no axe violations', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');
    await waitForApp(page);
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolations(page);
  });

  test('the pre-rendered HTML already holds the page (no JS needed to read it)', async ({
    request,
  }) => {
    const html = await (await request.get('/')).text();
    expect(html).toContain('data-prerendered="/"');
    expect(html).toContain('Solana Mafia Wars</h1>');
    expect(html).toContain('Build Your Criminal Empire');
    const docs = await (await request.get('/docs/fight')).text();
    expect(docs).toContain('data-prerendered="/docs/fight"');
    expect(docs).toContain('5<!-- --> min read');
  });

  test('every frame drawn while the page is read shows the loader, never a half-read page [§2.shell.loader]', async ({
    page,
  }) => {
    // A slow line delivers the document in pieces: the browser may draw between them.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 40,
      downloadThroughput: 8 * 1024,
      uploadThroughput: 8 * 1024,
    });
    await page.addInitScript(() => {
      // Each frame drawn while the document is read: whether any of the page is in it, and
      // whether the loader is, in front of the page's markup.
      const w = window as unknown as { __frames?: { page: boolean; loader: boolean }[] };
      w.__frames = [];
      const frame = () => {
        w.__frames?.push({
          page: document.querySelector('#root > :not(.loading-overlay)') !== null,
          loader: document.querySelector('#root > .loading-overlay:first-child') !== null,
        });
        if (document.readyState === 'loading') requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    const images: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'image') images.push(new URL(r.url()).pathname);
    });
    await page.goto('/', { waitUntil: 'domcontentloaded', timeout: 25_000 });
    const drawn = () =>
      page.evaluate(
        () =>
          (window as unknown as { __frames?: { page: boolean; loader: boolean }[] }).__frames ?? [],
      );
    await expect.poll(async () => (await drawn()).length).toBeGreaterThan(0);
    const frames = await drawn();
    // No frame has part of the page without the loader over it.
    expect(frames.filter((f) => f.page && !f.loader)).toEqual([]);
    // The header's mark is drawn with the page: no image of its own to fetch.
    await expect(page.locator('.site-logo svg')).toBeVisible();
    expect(images.filter((path) => path.includes('logo'))).toEqual([]);
    await cdp.detach();
  });

  test('the session starts from the head before the app code arrives; sess/init is sent once', async ({
    page,
  }) => {
    let inits = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/sess/init')) inits += 1;
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.+\.js$/, async (route) => {
      await gate;
      await route.continue();
    });
    await page.goto('/', { waitUntil: 'commit' });
    // With no app code yet, the session has loaded and the loader has stepped aside.
    await expect(page.locator('html')).toHaveAttribute('data-session', 'loaded');
    await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeHidden();
    expect(inits).toBe(1);
    release();
    await waitForApp(page);
    await expect
      .poll(() => page.evaluate(() => performance.getEntriesByName('smw-hydrated').length))
      .toBe(1);
    await page.waitForLoadState('networkidle');
    // The app adopts the session the head started: no second sess/init.
    expect(inits).toBe(1);
  });
});

test.describe('docs', () => {
  test('each page renders its title and read time', async ({ page }) => {
    for (const [id, title, minutes] of [...GUIDES, ...LEGAL]) {
      await page.goto(`/docs/${id}`);
      await expect(page.getByRole('heading', { level: 1 }), id).toHaveText(title);
      await expect(page.locator('.docs-read-time'), id).toHaveText(`${minutes} min read`);
      await expect(page.locator('.docs-body p').first(), id).toBeVisible();
    }
  });

  test('previous / next walk the nine guides in order; legal pages have none', async ({ page }) => {
    await page.goto('/docs/intro');
    await expect(page.getByRole('link', { name: /^Previous/ })).toHaveCount(0);
    for (const [id, title] of GUIDES.slice(1)) {
      await page.getByRole('link', { name: /^Next/ }).click();
      await expect(page).toHaveURL(new RegExp(`/docs/${id}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    }
    await expect(page.getByRole('link', { name: /^Next/ })).toHaveCount(0);
    for (const [id, title] of [...GUIDES].reverse().slice(1)) {
      await page.getByRole('link', { name: /^Previous/ }).click();
      await expect(page).toHaveURL(new RegExp(`/docs/${id}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    }
    for (const [id] of LEGAL) {
      await page.goto(`/docs/${id}`);
      await expect(page.getByRole('navigation', { name: 'Previous and next guides' })).toHaveCount(
        0,
      );
    }
  });

  test('sidebar with Contents, Legal and Back to Home; unknown ids show intro', async ({
    page,
  }) => {
    await page.goto('/docs/no-such-guide');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Introduction');
    const sidebar = page.getByRole('navigation', { name: 'Docs' });
    await expect(sidebar.getByRole('heading', { name: 'Contents' })).toBeVisible();
    await expect(sidebar.getByRole('heading', { name: 'Legal' })).toBeVisible();
    await expect(sidebar.getByRole('link')).toHaveCount(1 + GUIDES.length + LEGAL.length);
    await sidebar.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/docs');
    await expect(page).toHaveURL(/\/docs\/intro$/);
  });

  test('a signed-in player loading a docs page: the guide with their e-mail and Exit, no error', async ({
    page,
    baseURL,
  }) => {
    const user = await registerUser(baseURL ?? '', uniqueEmail('reader'));
    await signInPage(page, user);
    for (const [id, title] of [GUIDES[7], LEGAL[0]]) {
      // Loaded from the address bar (a reload): the pre-rendered page is a signed-out visitor's.
      await page.goto(`/docs/${id}`);
      await waitForApp(page);
      await expect(page.getByRole('heading', { level: 1 }), id).toHaveText(title);
      await expect(page.getByTestId('user-email'), id).toHaveText(user.userData.user_email);
      await expect(page.getByRole('button', { name: 'Exit' }), id).toBeVisible();
      await expect(page.getByTestId('error-message'), id).toHaveCount(0);
    }
  });

  test('on a phone a guide opens on its text, the contents one tap away; Next lands on the next text', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/docs/lore');
    await waitForApp(page);
    const sidebar = page.getByRole('navigation', { name: 'Docs' });
    const contents = sidebar.getByRole('button', { name: /^Contents/ });
    const title = page.getByRole('heading', { level: 1 });
    await expect(title).toHaveText('Lore');
    await expect(title).toBeInViewport();
    // The article's first words are on the first screen, under the folded contents.
    await expect(page.locator('.docs-body p').first()).toBeInViewport();
    await expect(contents).toHaveAttribute('aria-expanded', 'false');
    await expect(sidebar.getByRole('link', { name: 'Fights' })).toBeHidden();

    await contents.click();
    await expect(contents).toHaveAttribute('aria-expanded', 'true');
    await expect(sidebar.getByRole('link')).toHaveCount(1 + GUIDES.length + LEGAL.length);
    await sidebar.getByRole('link', { name: 'Fights' }).click();
    await expect(title).toHaveText('Fights');
    await expect(contents, 'a chosen guide folds the contents again').toHaveAttribute(
      'aria-expanded',
      'false',
    );

    // Next from the end of the text: the next guide's title and text, not the contents.
    await page.getByRole('link', { name: /^Next/ }).click();
    await expect(title).not.toHaveText('Fights');
    await expect(title).toBeInViewport();
    await expect(page.locator('.docs-body p').first()).toBeInViewport();
    await expect(sidebar.getByRole('link', { name: 'Fights' })).toBeHidden();

    // A wide screen shows the contents always, with no button.
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(contents).toBeHidden();
    await expect(sidebar.getByRole('link', { name: 'Fights' })).toBeVisible();
  });

  test('docs pages: no overflow at 360 px, no axe violations', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const id of ['intro', 'terms']) {
      await page.goto(`/docs/${id}`);
      await waitForApp(page);
      await expectNoHorizontalOverflow(page);
      await expectNoAxeViolations(page);
    }
  });
});

test.describe('signed-in home', () => {
  test('e-mail, Exit and the two tabs; the Invite tab copies <origin>/r/<code> [§2.home.tabs]', async ({
    page,
    context,
    baseURL,
  }) => {
    const user = await registerUser(baseURL ?? '', uniqueEmail('don'));
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openHomeAs(page, user);
    await expect(page.getByTestId('user-email')).toHaveText(user.userData.user_email);
    const tabs = page.getByRole('tablist');
    await expect(tabs.getByRole('tab', { name: 'Get Ticket' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expectNoAxeViolations(page);
    await tabs.getByRole('tab', { name: 'Invite' }).click();
    await expect(tabs.getByRole('tab', { name: 'Invite' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const origin = new URL(page.url()).origin;
    const link = `${origin}/r/${user.userData.user_invite_code}`;
    await expect(page.getByTestId('invite-link')).toHaveAttribute('data-link', link);
    await expect(page.getByTestId('invite-link')).toContainText(
      `/r/${user.userData.user_invite_code}`,
    );
    await expect(page.getByText('Referral Benefits')).toBeVisible();
    await expect(page.getByText('Get access when 2 friends buy tickets')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Share Invite Link' })).toBeVisible();
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByRole('button', { name: 'Copied!', exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible({ timeout: 4000 });
    // Without the Web Share API (desktop Chromium on Linux) sharing copies the link.
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.getByRole('button', { name: 'Share Invite Link' }).click();
    // The button pressed says so, in view (the Copy button may be scrolled away).
    await expect(page.getByRole('button', { name: 'Link copied!' })).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Copied!', exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Exit' }).click();
    await expect(page.getByRole('button', { name: 'Get Access' }).first()).toBeVisible();
  });

  test('counters match the server after two invitees register and one buys [§2.invite.link]', async ({
    page,
    baseURL,
    request,
  }) => {
    const base = baseURL ?? '';
    const inviter = await registerUser(base, uniqueEmail('boss'));
    const code = inviter.userData.user_invite_code;
    await request.get(`/r/${code}`);
    const first = await registerUser(base, uniqueEmail('friend1'), code);
    await registerUser(base, uniqueEmail('friend2'), code);
    await buyTicket(base, first);

    const served = await postApi(base, 'user/data', { session: inviter.sessionToken }, inviter.jwt);
    const data = served.body.user_data as {
      user_ref_registered: number;
      user_ref_confirmed: number;
      user_data: { referral: { clicks: number } };
    };
    expect([
      data.user_data.referral.clicks,
      data.user_ref_registered,
      data.user_ref_confirmed,
    ]).toEqual([1, 2, 1]);

    await openHomeAs(page, inviter);
    await page.getByRole('tab', { name: 'Invite' }).click();
    await expect(page.getByTestId('counter-clicks')).toHaveText('1');
    await expect(page.getByTestId('counter-registered')).toHaveText('2');
    // Without access the confirmed tickets read against the 2 that give entry (§2 Invite tab).
    await expect(page.getByTestId('counter-confirmed')).toHaveText('1/2');
  });

  test('Access Granted names the training start before it, and says it is open from it on', async ({
    page,
    baseURL,
  }) => {
    const user = await newMember(baseURL ?? '', 'dated');
    await signInPage(page, user);
    await pinClock(page, LAUNCH_AT_MS - 1000);
    await page.goto('/');
    await waitForApp(page);
    const granted = page.locator('.ticket-granted');
    await expect(granted.getByRole('heading', { name: 'Access Granted!' })).toBeVisible();
    await expect(granted.getByText('Training starts December 20', { exact: true })).toBeVisible();
    // The launch instant (the clock reads just after each whole second).
    await page.clock.runFor(1010);
    await expect(
      granted.getByText('Training has been open since December 20: your gang can play now', {
        exact: true,
      }),
    ).toBeVisible();
    await expect(page.getByText('Training starts December 20')).toHaveCount(0);
  });

  test('with access the Invite tab shows Stats; no overflow at 360 px', async ({
    page,
    baseURL,
  }) => {
    const user = await newMember(baseURL ?? '', 'paid');
    await page.setViewportSize({ width: 360, height: 740 });
    await openHomeAs(page, user);
    await expectNoHorizontalOverflow(page);
    await expect(page.getByText('Access Granted!')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('tab', { name: 'Invite' }).click();
    await expect(page.getByTestId('invite-stats')).toContainText('Stats');
    await expect(page.getByText('Tickets purchased')).toBeVisible();
    await expect(page.getByText('Registered via the link')).toBeVisible();
    await expect(page.getByText('Get access when 2 friends buy tickets')).toHaveCount(0);
    await expectNoHorizontalOverflow(page);
    await expectNoAxeViolations(page);
  });
});
