import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/e2e';
import { serverProcess, ROOT } from '../support/serverProcess';
import { codeIn, startTestSmtp, type TestSmtp } from '../support/smtp';

/**
 * Production as a studio runs it (README, "Running a launch"): the production build (dist/) served
 * by `npm run server` in production mode on the local chain, mailing sign-in codes through a real
 * SMTP server this test starts on 127.0.0.1. The player signs in with the code read from the
 * e-mail; when the mail server is down the dialog says `Failed to send code: …` (§8), keeps the
 * address, and a later Continue works once it is back.
 */
const FROM = 'Solana Mafia Wars <play@studio.test>';
const server = serverProcess('production-e2e', 'tsx');
let smtp: TestSmtp;
let dataDir = '';
let url = '';

test.beforeAll(async () => {
  smtp = await startTestSmtp();
  dataDir = mkdtempSync(join(tmpdir(), 'smw-production-'));
  url = await server.start({
    SERVER_MODE: 'production',
    LOCAL_CHAIN: '1',
    SITE_DIR: join(ROOT, 'dist'),
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    MAIL_FROM: FROM,
    MAIL_TRANSPORT: '',
    SITE_URL: 'https://play.studio.test',
  });
});

test.afterAll(async () => {
  server.dispose();
  await smtp.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const dialog = (page: Page) => page.getByRole('dialog');

async function askForCode(page: Page, email: string) {
  await page.getByRole('button', { name: 'Get Access' }).first().click();
  await expect(dialog(page).getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await dialog(page).getByLabel('E-mail').fill(email);
  await dialog(page).getByRole('button', { name: 'Continue' }).click();
}

/** Reads the code from the e-mail's two MIME parts and types it into the six boxes. */
async function enterCodeFromMail(page: Page, email: string) {
  await expect(dialog(page).getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
  const mail = await smtp.next(email);
  expect(mail.from?.value).toEqual([{ name: 'Solana Mafia Wars', address: 'play@studio.test' }]);
  const fromText = codeIn(mail.text);
  const fromHtml = codeIn(typeof mail.html === 'string' ? mail.html : undefined);
  expect(fromText, 'the plain-text part carries the code').toMatch(/^\d{6}$/);
  expect(fromHtml, 'the HTML part carries the same code').toBe(fromText);
  // Production never prefills the code: the boxes are empty until the player types it.
  const boxes = dialog(page).getByRole('textbox', { name: /^Digit \d of 6$/ });
  await expect(boxes.first()).toHaveValue('');
  await boxes.first().click();
  await page.keyboard.type(fromText!);
  await dialog(page).getByRole('button', { name: 'Verify' }).click();
  await expect(dialog(page)).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByText(email, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Exit' })).toBeVisible();
  return fromText!;
}

test('a player signs in with the code from the e-mail; a mail outage shows the spec error and keeps the address', async ({
  page,
  allowConsoleErrors,
}) => {
  test.setTimeout(90_000);
  await page.goto(`${url}/`);
  await expect(page.locator('.loading-overlay')).toHaveCount(0, { timeout: 15_000 });

  const first = `prod-${Date.now().toString(36)}@player.test`;
  await askForCode(page, first);
  const code = await enterCodeFromMail(page, first);
  expect(server.output(), 'production never logs a sign-in code').not.toContain(code);

  // Exit, then the mail server goes down: the request answers an error the dialog shows.
  await page.getByRole('button', { name: 'Exit' }).click();
  await expect(page.getByRole('button', { name: 'Get Access' }).first()).toBeVisible();
  await smtp.stop();
  allowConsoleErrors(/502|Bad Gateway/);
  const second = `prod2-${Date.now().toString(36)}@player.test`;
  await askForCode(page, second);
  await expect(dialog(page).locator('.signin-notice')).toHaveText(/^Failed to send code: \S.+/, {
    timeout: 15_000,
  });
  await expect(dialog(page).getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expect(dialog(page).getByLabel('E-mail'), 'the address is kept').toHaveValue(second);

  // The mail server is back: Continue again (no cooldown was started) and sign in.
  await smtp.start();
  await dialog(page).getByRole('button', { name: 'Continue' }).click();
  const again = await enterCodeFromMail(page, second);
  expect(server.output()).not.toContain(again);
});
