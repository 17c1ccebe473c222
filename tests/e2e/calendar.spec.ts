import type { Page } from '@playwright/test';
import type { LaunchCalendar } from '../../contract/calendar';
import { expect, test } from '../support/e2e';
import { INVITATION_RULE_OFF_FROM } from '../support/invitationRuleOff';
import { registerUser, signInPage, uniqueEmail, waitForApp } from '../support/pages';

/**
 * The launch calendar is the server's (README, "Running a launch"): a studio moves the launch and
 * the Early Bird end, the site reads them from public_data, and every dated text follows. Each
 * test starts its own server with a calendar around today's real date (the page's clock is not
 * touched) and reads the landing, the Get Ticket tab and the receipt of a ticket paid with the
 * local test wallet.
 */
const PRICES = { earlyBird: '0.22', beforeLaunch: '0.33', afterLaunch: '0.55' } as const;

/** 'December 20' / 'Dec 20': the day as the spec writes its dates (UTC). */
const longDay = (ms: number) =>
  new Date(ms).toLocaleDateString('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });
const shortDay = (ms: number) =>
  new Date(ms).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** Whole days from now, at midnight UTC (so the labels do not move during the test). */
const daysFromNow = (days: number) => {
  const today = new Date();
  return Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + days);
};

async function openLanding(page: Page, url: string) {
  await page.goto(`${url}/`);
  await waitForApp(page);
}

/**
 * A server whose calendar puts the Early Bird's end and the launch that many days from now, and
 * its landing page open.
 */
async function landingWith(
  page: Page,
  freshServer: (opts: { calendar: LaunchCalendar }) => Promise<{ url: string }>,
  days: { earlyBirdEnd: number; launchAt: number },
) {
  const calendar: LaunchCalendar = {
    earlyBirdEnd: daysFromNow(days.earlyBirdEnd),
    launchAt: daysFromNow(days.launchAt),
    prices: PRICES,
    // These newcomers pay without an inviter: the invitation rule (its own tests are in
    // invitation.spec.ts) is set after the dates these tests read.
    invitationFrom: Date.parse(INVITATION_RULE_OFF_FROM),
  };
  const server = await freshServer({ calendar });
  await openLanding(page, server.url);
  return { calendar, server };
}

/** Signs a new player in on `url`, pays with the local test wallet, returns the receipt. */
async function payWithLocalWallet(page: Page, url: string) {
  const user = await registerUser(url, uniqueEmail('calendar'));
  await signInPage(page, user);
  await openLanding(page, url);
  await page.getByRole('tab', { name: 'Get Ticket' }).click();
  await expect(page.getByRole('heading', { name: 'Complete Transfer' })).toBeVisible({
    timeout: 15_000,
  });
  await page
    .getByTestId('local-wallet')
    .getByRole('button', { name: 'Pay with the local test wallet (local chain)' })
    .click();
  const receipt = page.getByRole('dialog', { name: 'Ticket Purchased!' });
  await expect(receipt).toBeVisible({ timeout: 20_000 });
  return receipt;
}

test.describe('the launch calendar from the server', () => {
  test.setTimeout(90_000);

  test('a launch in the future with the Early Bird running: the spec words on its dates, Early Bird receipt', async ({
    page,
    freshServer,
  }) => {
    const { calendar, server } = await landingWith(page, freshServer, {
      earlyBirdEnd: 10,
      launchAt: 40,
    });
    await expect(page.getByTestId('starts-header')).toHaveText(
      `Starts ${longDay(calendar.launchAt)}`,
    );
    await expect(page.getByRole('timer', { name: 'Time until training starts' })).toBeVisible();
    const card = page.getByTestId('ticket-card');
    await expect(card).toContainText('Early Bird Entry');
    await expect(page.getByTestId('ticket-card-badge')).toHaveText(
      `Until ${shortDay(calendar.earlyBirdEnd)}`,
    );
    await expect(page.getByTestId('ticket-price')).toHaveText('0.22 SOL');
    await expect(page.getByTestId('hero-price-tier')).toContainText('Early Bird price');
    const box = page.getByTestId('bonus-box');
    await expect(box).toContainText('Early Bird bonus');
    await expect(box).toContainText('999 invitation codes');
    // The invitation date is the server's (public_data's invitation_from): these servers set it
    // far ahead (landingWith).
    await expect(box).toContainText(
      `After ${shortDay(calendar.invitationFrom ?? 0)} an invitation via ref is required to enter`,
    );

    const receipt = await payWithLocalWallet(page, server.url);
    await expect(receipt.getByTestId('ticket-amount')).toHaveText('0.22 SOL');
    await expect(receipt.getByTestId('ticket-access-level')).toHaveText('Early Bird');
    await expect(receipt.getByTestId('ticket-benefits')).toContainText('999 invitation codes');
    await expect(receipt.getByText(`Training starts ${longDay(calendar.launchAt)}`)).toBeVisible();
    await receipt.getByRole('button', { name: "Let's Build My Gang" }).click();
    const granted = page.locator('.ticket-granted');
    await expect(granted.getByRole('heading', { name: 'Access Granted!' })).toBeVisible();
    // The gang the Early Bird ticket gives, drawn in the lobby's gang panel.
    await expect(page.getByTestId('gang').getByText('+2 Rifles')).toBeVisible();
  });

  test('the Early Bird ended, the launch ahead: no Early Bird promised, the receipt says Pre-launch', async ({
    page,
    freshServer,
  }) => {
    const { calendar, server } = await landingWith(page, freshServer, {
      earlyBirdEnd: -3,
      launchAt: 20,
    });
    await expect(page.getByTestId('starts-header')).toHaveText(
      `Starts ${longDay(calendar.launchAt)}`,
    );
    const card = page.getByTestId('ticket-card');
    await expect(card).toContainText('Entry Ticket');
    await expect(card).not.toContainText('Early Bird');
    await expect(page.getByTestId('ticket-card-badge')).toHaveText('Pre-launch price');
    await expect(page.getByRole('radio', { name: /Entry Ticket/ })).toBeChecked();
    await expect(page.getByTestId('ticket-price')).toHaveText('0.33 SOL');
    await expect(page.getByTestId('hero-price-tier')).toContainText('Pre-launch price');
    const box = page.getByTestId('bonus-box');
    await expect(box).toContainText('Your ticket');
    await expect(box).not.toContainText('999');
    await expect(box).not.toContainText('extra');

    const receipt = await payWithLocalWallet(page, server.url);
    await expect(receipt.getByTestId('ticket-amount')).toHaveText('0.33 SOL');
    await expect(receipt.getByTestId('ticket-access-level')).toHaveText('Pre-launch');
    await expect(receipt.getByTestId('ticket-benefits')).not.toContainText('999');
    await expect(receipt.getByTestId('ticket-benefits')).not.toContainText('extra');
    await receipt.getByRole('button', { name: "Let's Build My Gang" }).click();
    const granted = page.locator('.ticket-granted');
    await expect(granted.getByRole('heading', { name: 'Access Granted!' })).toBeVisible();
    // The gang panel draws the ticket's contents: no Early Bird extras for this tier.
    await expect(page.getByTestId('gang-gangsters')).toHaveText('2 Gangsters');
    await expect(page.getByTestId('gang').getByText('+2 Rifles')).toHaveCount(0);
    await expect(granted.getByText(`Training starts ${longDay(calendar.launchAt)}`)).toBeVisible();
  });

  test('a launch in the past: the landing says training is open, the receipt says Launch', async ({
    page,
    freshServer,
  }) => {
    const { calendar, server } = await landingWith(page, freshServer, {
      earlyBirdEnd: -30,
      launchAt: -5,
    });
    await expect(page.getByTestId('starts-header')).toHaveText(
      'Training is open: get your ticket and join now',
    );
    await expect(page.getByText('Boarding now · Training Open')).toBeVisible();
    await expect(page.getByTestId('ticket-card-badge')).toHaveText('Launch price');
    await expect(page.getByTestId('ticket-price')).toHaveText('0.55 SOL');
    await expect(page.getByTestId('bonus-box')).not.toContainText('999');

    const receipt = await payWithLocalWallet(page, server.url);
    await expect(receipt.getByTestId('ticket-amount')).toHaveText('0.55 SOL');
    await expect(receipt.getByTestId('ticket-access-level')).toHaveText('Launch');
    await expect(
      receipt.getByText(
        `Training has been open since ${longDay(calendar.launchAt)}: your gang can play now`,
      ),
    ).toBeVisible();
  });
});
