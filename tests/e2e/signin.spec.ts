import type { Locator, Page, Request } from '@playwright/test';
import { readOutboxCode, registerUser } from '../support/api';
import { expectNoAxeViolations } from '../support/axe';
import { expect, test } from '../support/e2e';

/**
 * Sign-in end to end (§2 Sign-in modal, §4 Sign-in steps, §5, §7, §8) on the real local server
 * (development mode: codes are read from its outbox, and `sign_code` prefills the boxes).
 */
let counter = 0;
const newEmail = (tag: string) => `${tag}.${Date.now()}.${counter++}@example.com`;

const dialog = (page: Page) => page.getByRole('dialog');
const boxes = (page: Page) => dialog(page).getByRole('textbox', { name: /^Digit \d of 6$/ });
const verifyButton = (page: Page) => dialog(page).getByRole('button', { name: 'Verify' });
const notice = (page: Page) => dialog(page).locator('.signin-notice');

async function openModal(page: Page, path = '/') {
  await page.goto(path);
  await page.getByRole('button', { name: 'Get Access' }).first().click();
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).getByRole('heading', { name: 'Sign In' })).toBeVisible();
}

async function submitEmail(page: Page, email: string) {
  await dialog(page).getByLabel('E-mail').fill(email);
  await dialog(page).getByRole('button', { name: 'Continue' }).click();
  await expect(dialog(page).getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
}

/**
 * A fresh server whose clock runs with the page's (installed, not yet paused), without the
 * prefilled code: `later(ms)` moves the server's clock on where the test moves the page's.
 */
async function serverOnPageClock(
  page: Page,
  freshServer: (opts: { now: () => number }) => Promise<{ url: string }>,
) {
  let skew = 0;
  const server = await freshServer({ now: () => Date.now() + skew });
  await page.clock.install();
  await withoutPrefill(page);
  const later = (ms: number) => {
    skew += ms;
  };
  return { server, later };
}

/** Production-like answers: auth/email/init without the development `sign_code`. */
async function withoutPrefill(page: Page) {
  await page.route('**/api/auth/email/init', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    delete body.sign_code;
    await route.fulfill({ response, json: body });
  });
}

async function expectBoxes(page: Page, code: string) {
  const all = boxes(page);
  await expect(all).toHaveCount(6);
  for (let i = 0; i < 6; i += 1) await expect(all.nth(i)).toHaveValue(code[i] ?? '');
}

async function pasteInto(box: Locator, text: string) {
  await box.evaluate((el, value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    el.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

async function expectSignedIn(page: Page, email: string) {
  await expect(dialog(page)).toHaveCount(0);
  await expect(page.getByText(email, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Exit' })).toBeVisible();
}

function authRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (/\/api\/auth\/email\//.test(request.url())) seen.push(request);
  });
  return seen;
}

test.describe('sign-in', () => {
  test('registers a new e-mail, the code typed box by box [§2.signin.steps]', async ({
    page,
    baseURL,
  }) => {
    await withoutPrefill(page);
    const email = newEmail('typed');
    await openModal(page);
    await expect(dialog(page)).toHaveAttribute('aria-modal', 'true');
    await expect(dialog(page).getByLabel('E-mail')).toBeFocused();
    await submitEmail(page, email);
    await expect(dialog(page)).toContainText(`We sent a 6-digit code to ${email}.`);
    await expectBoxes(page, '');
    await expect(boxes(page).first()).toHaveAttribute('autocomplete', 'one-time-code');
    await expect(boxes(page).first()).toHaveAttribute('inputmode', 'numeric');
    await expect(boxes(page).first()).toBeFocused();
    await expect(verifyButton(page)).toBeDisabled();

    const code = await readOutboxCode(baseURL!, email);
    for (const [i, digit] of [...code].entries()) {
      await page.keyboard.type(digit);
      if (i < 5) await expect(boxes(page).nth(i + 1)).toBeFocused();
    }
    await expectBoxes(page, code);
    await expect(verifyButton(page)).toBeFocused();
    // Backspace on an empty box goes back; on a filled box it erases.
    await boxes(page).nth(5).press('Backspace');
    await expect(boxes(page).nth(5)).toHaveValue('');
    await expect(verifyButton(page)).toBeDisabled();
    await boxes(page).nth(5).press('Backspace');
    await expect(boxes(page).nth(4)).toBeFocused();
    await boxes(page).nth(5).click();
    await page.keyboard.type(code[5]!);
    await expect(verifyButton(page)).toBeEnabled();
    await verifyButton(page).click();
    await expectSignedIn(page, email);
    // Focus follows the flow: from the closed dialog to the signed-in home's heading.
    await expect(page.getByRole('heading', { level: 1, name: 'Solana Mafia Wars' })).toBeFocused();
  });

  test('registers a new e-mail, the code pasted whole', async ({ page, baseURL }) => {
    await withoutPrefill(page);
    const email = newEmail('pasted');
    await openModal(page);
    await submitEmail(page, email);
    const code = await readOutboxCode(baseURL!, email);
    await pasteInto(boxes(page).first(), ` ${code.slice(0, 3)}-${code.slice(3)} `);
    await expectBoxes(page, code);
    await expect(verifyButton(page)).toBeFocused();
    await page.keyboard.press('Enter');
    await expectSignedIn(page, email);
  });

  test('signs the same user in again (development prefill)', async ({ page, baseURL }) => {
    const email = newEmail('again');
    await registerUser(baseURL!, email);
    await openModal(page);
    await submitEmail(page, email);
    const code = await readOutboxCode(baseURL!, email);
    await expectBoxes(page, code);
    await verifyButton(page).click();
    await expect(dialog(page).getByRole('button', { name: 'Verifying...' })).toHaveCount(0);
    await expectSignedIn(page, email);
  });

  test('a wrong code shows the message, clears the boxes and focuses the first [§8.verifyFailed]', async ({
    page,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors(/status of 400/);
    await withoutPrefill(page);
    await openModal(page);
    const email = newEmail('wrong');
    await submitEmail(page, email);
    await pasteInto(boxes(page).first(), '000000');
    await verifyButton(page).click();
    await expect(notice(page)).toHaveText('Invalid code');
    await expectBoxes(page, '');
    await expect(boxes(page).first()).toBeFocused();
    await expect(dialog(page).locator('[aria-live]')).toHaveText('Invalid code');
  });

  test('resend is blocked for 30 s, then allowed, and the code mailed first still signs in [§5.resend.blocked]', async ({
    page,
    freshServer,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors(/status of 400/);
    // The server enforces the same 30 s; its clock moves with the page's.
    const { server, later } = await serverOnPageClock(page, freshServer);
    await openModal(page, server.url);
    // From here on the page's time moves only when the test says so.
    await page.clock.pauseAt(Date.now() + 5_000);
    const email = newEmail('resend');
    await submitEmail(page, email);
    const oldCode = await readOutboxCode(server.url, email);
    const resend = dialog(page).getByRole('button', { name: /^Resend/ });
    await expect(resend).toHaveText('Resend in 30s');
    await expect(resend).toBeDisabled();
    await page.clock.runFor(1_000);
    await expect(resend).toHaveText('Resend in 29s');
    await page.clock.runFor(28_000);
    await expect(resend).toHaveText('Resend in 1s');
    await expect(resend).toBeDisabled();
    later(30_000);
    await page.clock.runFor(1_000);
    await expect(resend).toHaveText('Resend Code');
    await expect(resend).toBeEnabled();
    await resend.click();
    await expect(resend).toHaveText('Resend in 30s');
    // The resend mailed a new code; the first one is not taken away (docs/server.md).
    expect(await readOutboxCode(server.url, email)).toMatch(/^\d{6}$/);
    await pasteInto(boxes(page).first(), oldCode);
    await page.clock.resume();
    await verifyButton(page).click();
    await expectSignedIn(page, email);
  });

  test('Change E-mail, same address: the code step comes back with its countdown, the code verifies', async ({
    page,
    freshServer,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors(/status of 429/);
    // The server's 30 s runs on the page's clock.
    const { server, later } = await serverOnPageClock(page, freshServer);
    const requests = authRequests(page);
    const inits = () => requests.filter((r) => r.url().endsWith('/auth/email/init')).length;
    await openModal(page, server.url);
    await page.clock.pauseAt(Date.now() + 5_000);
    const email = newEmail('same');
    await submitEmail(page, email);
    const code = await readOutboxCode(server.url, email);
    const resend = dialog(page).getByRole('button', { name: /^Resend/ });
    await page.clock.runFor(3_000);
    later(3_000);
    await expect(resend).toHaveText('Resend in 27s');

    await dialog(page).getByRole('button', { name: 'Change E-mail' }).click();
    await expect(dialog(page).getByRole('heading', { name: 'Sign In' })).toBeVisible();
    await page.clock.runFor(2_000);
    later(2_000);
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await expect(dialog(page).getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
    await expect(dialog(page)).toContainText(`We sent a 6-digit code to ${email}.`);
    await expect(resend).toHaveText('Resend in 25s');
    await expect(resend).toBeDisabled();
    await expect(notice(page)).toHaveCount(0);
    expect(inits()).toBe(1);

    // A new modal asks the server, which refuses inside the 30 s (429, Retry-After): the code
    // step comes back with the server's countdown instead of an error.
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toHaveCount(0);
    await page.getByRole('button', { name: 'Get Access' }).first().click();
    await dialog(page).getByLabel('E-mail').fill(email);
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await expect(dialog(page).getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
    await expect(resend).toHaveText(/^Resend in (1\d|2[0-5])s$/);
    await expect(resend).toBeDisabled();
    await expect(notice(page)).toHaveCount(0);
    expect(inits()).toBe(2);
    const shown = Number((await resend.textContent())?.match(/\d+/)?.[0]);
    await page.clock.runFor(1_000);
    await expect(resend).toHaveText(`Resend in ${shown - 1}s`);

    await pasteInto(boxes(page).first(), code);
    await page.clock.resume();
    await verifyButton(page).click();
    await expectSignedIn(page, email);
  });

  test('Change E-mail, another address: a new code goes out as before [§4.signin.changeEmail]', async ({
    page,
  }) => {
    await withoutPrefill(page);
    await openModal(page);
    await submitEmail(page, newEmail('first'));
    await dialog(page).getByRole('button', { name: 'Change E-mail' }).click();
    const other = newEmail('other');
    await submitEmail(page, other);
    await expect(dialog(page)).toContainText(`We sent a 6-digit code to ${other}.`);
    await expect(dialog(page).getByRole('button', { name: /^Resend/ })).toHaveText('Resend in 30s');
    await expect(notice(page)).toHaveCount(0);
  });

  test('an invalid e-mail and a short code show their messages and make no request [§5.email]', async ({
    page,
  }) => {
    await withoutPrefill(page);
    const requests = authRequests(page);
    await openModal(page);
    for (const bad of ['', 'plain', 'a@b', 'a b@c.d']) {
      await dialog(page).getByLabel('E-mail').fill(bad);
      await dialog(page).getByRole('button', { name: 'Continue' }).click();
      await expect(notice(page)).toHaveText('Please enter valid e-mail address.');
    }
    expect(requests).toHaveLength(0);
    const email = newEmail('short');
    await submitEmail(page, email);
    expect(requests).toHaveLength(1);
    await boxes(page).first().click();
    await page.keyboard.type('123');
    await expect(verifyButton(page)).toBeDisabled();
    await page.keyboard.press('Enter');
    await expect(notice(page)).toHaveText('Please enter a valid 6-digit code.');
    expect(requests).toHaveLength(1);
    // Change E-mail returns to step 1 with the e-mail kept; Continue with it inside the 30 s
    // goes back to the code already sent, with no new request and no error.
    await dialog(page).getByRole('button', { name: 'Change E-mail' }).click();
    await expect(dialog(page).getByLabel('E-mail')).toHaveValue(email);
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await expect(dialog(page).getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
    await expect(notice(page)).toHaveCount(0);
    expect(requests).toHaveLength(1);
  });

  test('stays signed in after a reload; Exit signs out [§4.auth.logout]', async ({ page }) => {
    const email = newEmail('reload');
    await openModal(page);
    await submitEmail(page, email);
    await verifyButton(page).click(); // prefilled by the development sign_code
    await expectSignedIn(page, email);
    await page.reload();
    await expectSignedIn(page, email);
    await page.getByRole('button', { name: 'Exit' }).click();
    await expect(page.getByRole('button', { name: 'Exit' })).toHaveCount(0);
    await expect(dialog(page)).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();
    await page.getByRole('button', { name: 'Get Access' }).first().click();
    await expect(dialog(page).getByRole('heading', { name: 'Sign In' })).toBeVisible();
  });

  test('Escape closes the modal, focus stays inside while open', async ({ page }) => {
    await openModal(page);
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog(page).evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await dialog(page).evaluate((d) => d.contains(document.activeElement))).toBe(true);
    const terms = dialog(page).getByRole('link', { name: 'Terms of Service' });
    await expect(terms).toHaveAttribute('href', '/docs/terms');
    await expect(terms).toHaveAttribute('target', '_blank');
    await expect(terms).toHaveAttribute('rel', /noopener/);
    await expect(dialog(page).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/docs/privacy',
    );
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Get Access' }).first()).toBeFocused();
  });
});

/** A friend's invite code: the site keeps only a link's code that belongs to a player. */
const friendCode = async (baseURL: string | undefined) =>
  (await registerUser(baseURL!, newEmail('code-owner'))).userData.user_invite_code;

test.describe('invite codes', () => {
  test('/r/AB-c!d stores ABcd and the modal shows ABCD [§5.invite.sanitize]', async ({
    page,
    baseURL,
  }) => {
    // A friend's code written as a player might: AB-c!d for ABCD.
    const code = await friendCode(baseURL);
    const written = `${code.slice(0, 2)}-${code.slice(2, 4).toLowerCase()}!${code.slice(4)}`;
    const kept = `${code.slice(0, 2)}${code.slice(2, 4).toLowerCase()}${code.slice(4)}`;
    await page.goto(`/r/${written}`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('codeInvite'))).toBe(kept);
    await page.getByRole('button', { name: 'Get Access' }).first().click();
    await expect(dialog(page).getByText(code, { exact: true })).toBeVisible();
  });

  test('an escaped link is read as the player wrote it: /r/ab%20cd stores abcd, an emoji nothing', async ({
    page,
    baseURL,
  }) => {
    const code = (await friendCode(baseURL)).toLowerCase();
    await page.goto(`/r/${code.slice(0, 4)}%20${code.slice(4)}`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('codeInvite'))).toBe(code);
    await page.evaluate(() => localStorage.removeItem('codeInvite'));
    await page.goto('/r/%F0%9F%98%80');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await page.getByRole('button', { name: 'Get Access' }).first().click();
    await expect(dialog(page).getByText(/Invite code/)).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('codeInvite'))).toBeNull();
  });

  test('the longest code (30 letters) wraps inside the dialog on a 360 px phone', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const code = 'W'.repeat(41);
    // invite/check answers once the dialog is open, so the dialog is where the code is said.
    let answer: () => void = () => {};
    const opened = new Promise<void>((done) => (answer = done));
    await page.route('**/api/invite/check', async (route) => {
      await opened;
      await route.continue();
    });
    await page.goto(`/r/${code}`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await page.getByRole('button', { name: 'Get Access' }).first().click();
    await expect(dialog(page).getByRole('heading', { name: 'Sign In' })).toBeVisible();
    answer();
    // No player has it: the dialog says so, naming the code as §5 cut it.
    await expect(dialog(page).getByTestId('unknown-invite-code')).toContainText('W'.repeat(30));
    const box = await dialog(page).boundingBox();
    expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(360);
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  });

  test('/ref/ with an empty code stores nothing [§2.routes.ref]', async ({ page }) => {
    await page.goto('/ref/');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(() => localStorage.getItem('codeInvite'))).toBeNull();
    await page.getByRole('button', { name: 'Get Access' }).first().click();
    await expect(dialog(page).getByText(/Invite code/)).toHaveCount(0);
  });

  test('?i= on the home page stores the code; a fallback is sent otherwise, never shown', async ({
    page,
    baseURL,
  }) => {
    // A player's code, spelled with a dash (§5 cleans it): kept once invite/check knows it.
    const friend = await registerUser(baseURL ?? '', newEmail('query-friend'));
    const code = friend.userData.user_invite_code;
    await page.goto(`/?i=${code.slice(0, 3)}-${code.slice(3)}`);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('codeInvite'))).toBe(code);
    await page.evaluate(() => localStorage.removeItem('codeInvite'));
    await page.goto('/');
    const bodies: { data: { code_invite: string; resend: boolean } }[] = [];
    await page.route('**/api/auth/email/init', async (route) => {
      bodies.push(JSON.parse(route.request().postData() ?? 'null') as (typeof bodies)[number]);
      await route.continue();
    });
    await page.getByRole('button', { name: 'Get Access' }).first().click();
    await submitEmail(page, newEmail('fallback'));
    expect(bodies).toHaveLength(1);
    const body = bodies[0]!;
    expect(body.data.code_invite).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(body.data.resend).toBe(false);
    // §2: the modal shows a code that came from a link; the fallback is not the player's code.
    await dialog(page).getByRole('button', { name: 'Change E-mail' }).click();
    await expect(dialog(page).getByRole('heading', { name: 'Sign In' })).toBeVisible();
    await expect(dialog(page).getByText(/Invite code/)).toHaveCount(0);
    await expect(dialog(page).getByText(body.data.code_invite.toUpperCase())).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('codeInvite'))).toBeNull();
    // The same fallback goes out with the next request of this page.
    await submitEmail(page, newEmail('fallback-again'));
    expect(bodies.map((b) => b.data.code_invite)).toEqual([
      body.data.code_invite,
      body.data.code_invite,
    ]);
  });
});

type Fault = {
  name: string;
  apply: (route: import('@playwright/test').Route) => Promise<void>;
  sendMessage: RegExp;
  verifyMessage: string;
};

const FAULTS: Fault[] = [
  {
    name: 'a 500',
    apply: (route) => route.fulfill({ status: 500, body: 'Internal Server Error' }),
    sendMessage: /^Failed to send code: Request failed with status 500$/,
    verifyMessage: 'Failed to verify code. Please try again.',
  },
  {
    name: 'a timeout',
    apply: (route) => route.abort('timedout'),
    sendMessage: /^Failed to send code: Unable to connect to the server\./,
    verifyMessage: 'Failed to verify code. Please try again.',
  },
  {
    name: 'a body `{`',
    apply: (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{' }),
    sendMessage: /^Failed to send code: The server sent an answer that is not JSON$/,
    verifyMessage: 'Failed to verify code. Please try again.',
  },
  {
    name: 'a wrong shape',
    apply: (route) => route.fulfill({ status: 200, json: { result: 'yes', jwt: 42 } }),
    sendMessage: /^Failed to send code: The server sent an unexpected answer \(.+\)$/,
    verifyMessage: 'Failed to verify code. Please try again.',
  },
];

test.describe('faults', () => {
  for (const fault of FAULTS) {
    test(`auth/email/init answering ${fault.name}`, async ({ page, allowConsoleErrors }) => {
      allowConsoleErrors(/Failed to load resource/);
      await page.route('**/api/auth/email/init', fault.apply);
      const email = newEmail('initfault');
      await openModal(page);
      await dialog(page).getByLabel('E-mail').fill(email);
      await dialog(page).getByRole('button', { name: 'Continue' }).click();
      await expect(notice(page)).toHaveText(fault.sendMessage);
      await expect(dialog(page).getByLabel('E-mail')).toHaveValue(email);
      await expect(dialog(page).getByRole('button', { name: 'Continue' })).toBeEnabled();
      await page.unroute('**/api/auth/email/init');
      await dialog(page).getByRole('button', { name: 'Continue' }).click();
      await expect(dialog(page).getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
    });

    test(`auth/email/verify answering ${fault.name}`, async ({ page, allowConsoleErrors }) => {
      allowConsoleErrors(/Failed to load resource/);
      const email = newEmail('verifyfault');
      await openModal(page);
      await submitEmail(page, email);
      const code = await boxes(page).evaluateAll((all) =>
        all.map((b) => (b as HTMLInputElement).value).join(''),
      );
      await page.route('**/api/auth/email/verify', fault.apply);
      await verifyButton(page).click();
      await expect(notice(page)).toHaveText(fault.verifyMessage);
      await expectBoxes(page, '');
      await expect(boxes(page).first()).toBeFocused();
      await page.unroute('**/api/auth/email/verify');
      await pasteInto(boxes(page).first(), code);
      await verifyButton(page).click();
      await expectSignedIn(page, email);
    });
  }
});

test.describe('layout', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the modal fits a 360 px wide screen on both steps', async ({ page }) => {
    const fits = async () => {
      const box = await dialog(page).boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(360);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        360,
      );
    };
    await openModal(page);
    await fits();
    await submitEmail(page, newEmail('narrow'));
    await fits();
    for (let i = 0; i < 6; i += 1) await expect(boxes(page).nth(i)).toBeInViewport();
    await expect(verifyButton(page)).toBeInViewport();
  });
});

test.describe('accessibility', () => {
  const scan = async (page: Page) => {
    await expectNoAxeViolations(page, { include: '[role="dialog"]' });
  };

  test('each step has no axe violations', async ({ page, baseURL }) => {
    // Four scans of a few seconds each on a slow host.
    test.setTimeout(60_000);
    const code = (await registerUser(baseURL!, newEmail('axe-owner'))).userData.user_invite_code;
    await page.route('**/api/auth/email/verify', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { user_data: Record<string, unknown> };
      body.user_data.user_telegram_link = 'https://t.me/smw_bot?start=e2e';
      await route.fulfill({ response, json: body });
    });
    await page.goto(`/r/${code}`);
    await page.getByRole('button', { name: 'Get Access' }).first().click();
    await expect(dialog(page).getByText(code, { exact: true })).toBeVisible();
    await scan(page);
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await expect(notice(page)).toHaveText('Please enter valid e-mail address.');
    await scan(page);
    await submitEmail(page, newEmail('axe'));
    await scan(page);
    await verifyButton(page).click();
    await expect(dialog(page).getByRole('heading', { name: 'Telegram' })).toBeVisible();
    const link = dialog(page).getByRole('link', { name: 'Open Telegram' });
    await expect(link).toHaveAttribute('href', 'https://t.me/smw_bot?start=e2e');
    await scan(page);
    await dialog(page).getByRole('button', { name: 'Back to E-mail' }).click();
    await expect(dialog(page).getByRole('heading', { name: 'Sign In' })).toBeVisible();
  });
});
