import { REFRESH_GRACE_MS } from '../../../server/tokens';
import { afterEach, describe, expect, it } from 'vitest';
import { CALLS, MESSAGES, userDataSchema } from '../../../contract/api';
import type { RunningServer, StartOptions } from '../../../server/app';
import { postApi, query, readOutboxCode, registerUser, startTestServer } from '../../support/api';
import * as v from 'valibot';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server whose clock the test moves. */
async function serverWithClock(opts: Partial<StartOptions> = {}) {
  const clock = { ms: Date.parse('2025-11-10T10:00:00Z') };
  server = await startTestServer({ plugins: [], now: () => clock.ms, ...opts });
  return { url: server.url, advance: (ms: number) => (clock.ms += ms) };
}

const init = (url: string, email: string, extra: Record<string, unknown> = {}) =>
  postApi(url, 'auth/email/init', { data: { email, ...extra } });
const verify = (url: string, email: string, code: string) =>
  postApi(url, 'auth/email/verify', { data: { email, code } });
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('auth/email/init and auth/email/verify', () => {
  it('sends a six-digit code, returns it as sign_code in development mode, and verifies it', async () => {
    const { url } = await serverWithClock();
    const sent = await init(url, 'Player@Example.com');
    expect(sent.status).toBe(200);
    expect(() => v.parse(CALLS.authEmailInit.response, sent.body)).not.toThrow();
    expect(sent.body.result).toBe(true);
    expect(String(sent.body.sign_code)).toMatch(/^\d{6}$/);
    expect(await readOutboxCode(url, 'player@example.com')).toBe(sent.body.sign_code);

    const verified = await verify(url, 'player@example.com', String(sent.body.sign_code));
    expect(verified.status).toBe(200);
    expect(() => v.parse(CALLS.authEmailVerify.response, verified.body)).not.toThrow();
    const user = v.parse(userDataSchema, verified.body.user_data);
    expect(user).toMatchObject({
      user_email: 'player@example.com',
      user_lvl: 1,
      user_access: 0,
      user_payment_wallet_balance: '0',
      user_ref_registered: 0,
      user_ref_confirmed: 0,
      user_data: { referral: { clicks: 0, registered: 0, confirmed: 0 } },
    });
    expect(user.user_invite_code).toMatch(/^[A-Z0-9]{8}$/);
    expect(user.user_payment_wallet).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(user.user_payment_wallet_data.wallet_id.length).toBeGreaterThan(0);
    expect(user.user_telegram_link).toBeUndefined();
    expect(String(verified.body.jwt).split('.')).toHaveLength(3);
    expect(String(verified.body.refresh_token).length).toBeGreaterThanOrEqual(32);
  });

  it('the outbox lists messages newest first with e-mail, code, subject and time', async () => {
    const { url, advance } = await serverWithClock();
    await init(url, 'outbox@site.test');
    advance(31_000);
    await init(url, 'outbox@site.test', { resend: true });
    const response = await fetch(`${url}/api/dev/outbox?email=outbox@site.test`);
    const { messages } = (await response.json()) as {
      messages: { email: string; code: string; subject: string; at: string }[];
    };
    expect(messages).toHaveLength(2);
    expect(Date.parse(messages[0]!.at)).toBeGreaterThan(Date.parse(messages[1]!.at));
    expect(messages[0]).toMatchObject({
      email: 'outbox@site.test',
      subject: expect.stringMatching(/code/i),
    });
  });

  it('a signed-in e-mail signs in again to the same account', async () => {
    const { url, advance } = await serverWithClock();
    const first = await registerUser(url, 'again@site.test');
    advance(31_000);
    const second = await registerUser(url, 'AGAIN@site.test');
    expect(second.userData.user_invite_code).toBe(first.userData.user_invite_code);
    expect(second.userData.user_payment_wallet).toBe(first.userData.user_payment_wallet);
  });

  it('refuses an invalid e-mail address and a code that is not six digits', async () => {
    const { url } = await serverWithClock();
    const badEmail = await init(url, 'not-an-email');
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.message).toBe('Please enter valid e-mail address.');
    await init(url, 'digits@site.test');
    const badCode = await verify(url, 'digits@site.test', '12ab56');
    expect(badCode.status).toBe(400);
    expect(badCode.body.message).toBe('Please enter a valid 6-digit code.');
  });

  it('a wrong code gets 400 Invalid code', async () => {
    const { url } = await serverWithClock();
    const sent = await init(url, 'wrong@site.test');
    const answer = await verify(url, 'wrong@site.test', wrongCode(String(sent.body.sign_code)));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 'error', result: false, message: 'Invalid code' });
  });

  it('a code is single use', async () => {
    const { url } = await serverWithClock();
    const code = String((await init(url, 'once@site.test')).body.sign_code);
    expect((await verify(url, 'once@site.test', code)).status).toBe(200);
    const again = await verify(url, 'once@site.test', code);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Invalid code');
  });

  it('allows at most 5 wrong tries per code: after them even the right code is refused', async () => {
    const { url } = await serverWithClock();
    const code = String((await init(url, 'tries@site.test')).body.sign_code);
    for (let i = 0; i < 5; i += 1) {
      const answer = await verify(url, 'tries@site.test', wrongCode(code));
      expect(answer.body.message).toBe('Invalid code');
    }
    const sixth = await verify(url, 'tries@site.test', code);
    expect(sixth.status).toBe(400);
    expect(sixth.body.message).toMatch(/too many attempts/i);
  });

  it('4 wrong tries still leave the right code working', async () => {
    const { url } = await serverWithClock();
    const code = String((await init(url, 'four@site.test')).body.sign_code);
    for (let i = 0; i < 4; i += 1) await verify(url, 'four@site.test', wrongCode(code));
    expect((await verify(url, 'four@site.test', code)).status).toBe(200);
  });

  it('a code is valid for 10 minutes', async () => {
    const { url, advance } = await serverWithClock();
    const early = String((await init(url, 'early@site.test')).body.sign_code);
    advance(10 * 60_000 - 1000);
    expect((await verify(url, 'early@site.test', early)).status).toBe(200);

    const late = String((await init(url, 'late@site.test')).body.sign_code);
    advance(10 * 60_000);
    const answer = await verify(url, 'late@site.test', late);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/expired/i);
  });

  it('enforces the 30 s resend cooldown with 429, Retry-After and a message', async () => {
    const { url, advance } = await serverWithClock();
    await init(url, 'cool@site.test');
    advance(10_000);
    const blocked = await init(url, 'cool@site.test', { resend: true });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('20');
    expect(blocked.body).toMatchObject({ status: 'error', result: false });
    expect(blocked.body.message).toMatch(/20 s/);
    advance(20_000);
    expect((await init(url, 'cool@site.test', { resend: true })).status).toBe(200);
  });

  it('a resend mails a new code and the earlier one still works, once', async () => {
    const { url, advance } = await serverWithClock();
    const first = String((await init(url, 'resend@site.test')).body.sign_code);
    advance(30_000);
    const second = String((await init(url, 'resend@site.test', { resend: true })).body.sign_code);
    expect(second).toMatch(/^\d{6}$/);
    // Either mailed code signs in (a stranger's request can never take the player's away)...
    expect((await verify(url, 'resend@site.test', first)).status).toBe(200);
    // ...and each only once.
    expect((await verify(url, 'resend@site.test', first)).body.message).toBe('Invalid code');
  });

  it('a resend also resets the tries', async () => {
    const { url, advance } = await serverWithClock();
    const first = String((await init(url, 'reset@site.test')).body.sign_code);
    for (let i = 0; i < 5; i += 1) await verify(url, 'reset@site.test', wrongCode(first));
    advance(30_000);
    const fresh = String((await init(url, 'reset@site.test', { resend: true })).body.sign_code);
    expect((await verify(url, 'reset@site.test', fresh)).status).toBe(200);
  });

  it('answers the same whether or not the e-mail belongs to an account', async () => {
    const { url, advance } = await serverWithClock({ mode: 'production', localChain: true });
    await server!.ctx.users.findOrCreate('known@site.test', null);
    const known = await init(url, 'known@site.test');
    const unknown = await init(url, 'unknown@site.test');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    advance(5_000);
    const knownAgain = await init(url, 'known@site.test');
    const unknownAgain = await init(url, 'unknown@site.test');
    expect(knownAgain.status).toBe(429);
    expect(unknownAgain.status).toBe(429);
    expect(unknownAgain.body).toEqual(knownAgain.body);
  });

  it('stores codes hashed, never in plain text', async () => {
    const { url } = await serverWithClock();
    const code = String((await init(url, 'hash@site.test')).body.sign_code);
    const [row] = await query<{ code_hash: string }>(
      server!,
      'SELECT code_hash FROM sign_in_codes WHERE email = ?',
      'hash@site.test',
    );
    expect(row!.code_hash).not.toContain(code);
    expect(row!.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('production mode', () => {
  it('never returns sign_code, hides the dev outbox and logs no code', async () => {
    const lines: string[] = [];
    const collect = (line: string) => lines.push(line);
    server = await startTestServer({
      plugins: [],
      mode: 'production',
      localChain: true,
      log: { info: collect, warn: collect, error: collect },
    });
    const sent = await init(server.url, 'prod@site.test');
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ result: true });
    const outbox = await fetch(`${server.url}/api/dev/outbox?email=prod@site.test`);
    expect(outbox.status).toBe(404);
    expect(((await outbox.json()) as { message: string }).message).toBeTruthy();
    const [stored] = await query<{ n: number }>(server, 'SELECT COUNT(*) AS n FROM outbox');
    expect(Number(stored!.n)).toBe(0);
    expect(lines.join('\n')).not.toMatch(/\b\d{6}\b/);
  });

  it('hands the code to a configured mailer', async () => {
    const mails: { email: string; text: string }[] = [];
    server = await startTestServer({
      plugins: [],
      mode: 'production',
      localChain: true,
      mailer: async (mail) => {
        mails.push(mail);
      },
    });
    await init(server.url, 'mailer@site.test');
    expect(mails).toHaveLength(1);
    const code = /\b(\d{6})\b/.exec(mails[0]!.text)?.[1];
    expect(code).toBeDefined();
    expect((await verify(server.url, 'mailer@site.test', code!)).status).toBe(200);
  });
});

describe('auth/refresh', () => {
  it('rotates: a new jwt and a new refresh token, the old token retired', async () => {
    server = await startTestServer({ plugins: [] });
    const { refreshToken } = await registerUser(server.url, 'rotate@site.test');
    const first = await postApi(server.url, 'auth/refresh', { refresh_token: refreshToken });
    expect(first.status).toBe(200);
    expect(() => v.parse(CALLS.authRefresh.response, first.body)).not.toThrow();
    expect(first.body.refresh_token).not.toBe(refreshToken);
    expect((await postApi(server.url, 'user/data', {}, String(first.body.jwt))).status).toBe(200);
    const second = await postApi(server.url, 'auth/refresh', {
      refresh_token: first.body.refresh_token,
    });
    expect(second.status).toBe(200);
  });

  it('reusing a rotated token after the grace revokes the whole family', async () => {
    const { url, advance } = await serverWithClock();
    const { refreshToken } = await registerUser(url, 'reuse@site.test');
    const rotated = await postApi(url, 'auth/refresh', { refresh_token: refreshToken });
    const current = String(rotated.body.refresh_token);
    advance(REFRESH_GRACE_MS + 1);
    const reuse = await postApi(url, 'auth/refresh', { refresh_token: refreshToken });
    expect(reuse.status).toBe(401);
    expect(reuse.body).toEqual({ status: 'error', result: false, message: MESSAGES.refreshFailed });
    const afterReuse = await postApi(url, 'auth/refresh', { refresh_token: current });
    expect(afterReuse.status).toBe(401);
  });

  it('within the grace a token used again (parallel tabs, a lost answer) gets the same working successor', async () => {
    const { url, advance } = await serverWithClock();
    const { refreshToken } = await registerUser(url, 'grace@site.test');
    const [first, second] = await Promise.all([
      postApi(url, 'auth/refresh', { refresh_token: refreshToken }),
      postApi(url, 'auth/refresh', { refresh_token: refreshToken }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    advance(REFRESH_GRACE_MS - 1);
    const retried = await postApi(url, 'auth/refresh', { refresh_token: refreshToken });
    expect(retried.status).toBe(200);
    expect(new Set([first, second, retried].map((a) => a.body.refresh_token)).size).toBe(1);
    for (const answer of [first, second, retried]) {
      const next = await postApi(url, 'auth/refresh', {
        refresh_token: String(answer.body.refresh_token),
      });
      expect(next.status).toBe(200);
    }
  });

  it('revoking one family leaves another sign-in of the same user working', async () => {
    server = await startTestServer({ plugins: [] });
    const clockless = server.url;
    const a = await registerUser(clockless, 'families@site.test');
    await query(server, 'DELETE FROM sign_in_codes');
    const b = await registerUser(clockless, 'families@site.test');
    await postApi(clockless, 'auth/refresh', { refresh_token: a.refreshToken });
    await postApi(clockless, 'auth/refresh', { refresh_token: a.refreshToken });
    expect(
      (await postApi(clockless, 'auth/refresh', { refresh_token: b.refreshToken })).status,
    ).toBe(200);
  });

  it('an unknown refresh token gets 401', async () => {
    server = await startTestServer({ plugins: [] });
    const answer = await postApi(server.url, 'auth/refresh', { refresh_token: 'nope' });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe(MESSAGES.refreshFailed);
  });

  it('an expired refresh token (30 days) gets 401', async () => {
    const { url, advance } = await serverWithClock();
    const { refreshToken } = await registerUser(url, 'old@site.test');
    advance(30 * 24 * 3600 * 1000);
    expect((await postApi(url, 'auth/refresh', { refresh_token: refreshToken })).status).toBe(401);
  });
});
