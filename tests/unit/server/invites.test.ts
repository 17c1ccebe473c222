import { CLICK_WINDOW_MS } from '../../../server/users';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../server/app';
import type { ServerEvents } from '../../../server/events';
import { postApi, query, registerUser, startTestServer } from '../../support/api';

let siteDir: string;
beforeAll(() => {
  siteDir = mkdtempSync(join(tmpdir(), 'smw-site-'));
  writeFileSync(join(siteDir, 'index.html'), '<!doctype html><title>Solana Mafia Wars</title>');
});
afterAll(() => rmSync(siteDir, { recursive: true, force: true }));

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const userData = async (url: string, jwt: string) =>
  (await postApi(url, 'user/data', {}, jwt)).body.user_data as {
    user_ref_registered: number;
    user_ref_confirmed: number;
    user_data: { referral: { clicks: number; registered: number; confirmed: number } };
  };

describe('invite codes', () => {
  it('every user gets a unique 8-character upper-case code and a payment wallet', async () => {
    server = await startTestServer({ plugins: [] });
    const users = await Promise.all(
      Array.from({ length: 12 }, (_, i) => registerUser(server!.url, `unique${i}@site.test`)),
    );
    const codes = users.map((u) => u.userData.user_invite_code);
    const wallets = users.map((u) => u.userData.user_payment_wallet);
    for (const code of codes) expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(wallets).size).toBe(wallets.length);
  });

  it('stores the payment wallet secret key so it signs for the address, sealed at rest', async () => {
    server = await startTestServer({ plugins: [] });
    const { userData: user } = await registerUser(server.url, 'wallet@site.test');
    const row = (await server.ctx.users.findByEmail('wallet@site.test'))!;
    const { Keypair } = await import('@solana/web3.js');
    const keypair = Keypair.fromSecretKey(await server.ctx.users.paymentSecretKey(row.id));
    expect(keypair.publicKey.toBase58()).toBe(user.user_payment_wallet);
    expect(row.payment_wallet_secret).not.toContain(
      Buffer.from(keypair.secretKey).toString('base64'),
    );
  });

  it('links a new user to the inviter whose code came with auth/email/init', async () => {
    server = await startTestServer({ plugins: [] });
    const seen: ServerEvents['invite.registered'][] = [];
    server.events.on('invite.registered', (event) => seen.push(event));
    const inviter = await registerUser(server.url, 'boss@site.test');
    const code = inviter.userData.user_invite_code;
    const invitee = await registerUser(server.url, 'recruit@site.test', code.toLowerCase());
    const again = await registerUser(server.url, 'recruit2@site.test', `${code}-`);

    const boss = await userData(server.url, inviter.jwt);
    expect(boss.user_ref_registered).toBe(2);
    expect(boss.user_data.referral.registered).toBe(2);
    expect(boss.user_ref_confirmed).toBe(0);
    const idOf = async (email: string) => (await server!.ctx.users.findByEmail(email))!.id;
    const bossId = await idOf('boss@site.test');
    expect(seen).toEqual([
      { inviterId: bossId, userId: await idOf('recruit@site.test') },
      { inviterId: bossId, userId: await idOf('recruit2@site.test') },
    ]);
    expect(invitee.userData.user_ref_registered).toBe(0);
    expect(again.userData.user_email).toBe('recruit2@site.test');
  });

  it('an unknown invite code registers the user without an inviter', async () => {
    server = await startTestServer({ plugins: [] });
    await registerUser(server.url, 'solo@site.test', 'ZZZZ9999');
    expect((await server.ctx.users.findByEmail('solo@site.test'))!.inviter_id).toBeNull();
  });

  it('an existing account signing in with a code is not relinked', async () => {
    server = await startTestServer({ plugins: [] });
    const inviter = await registerUser(server.url, 'first@site.test');
    await registerUser(server.url, 'existing@site.test');
    await query(server, 'DELETE FROM sign_in_codes');
    await registerUser(server.url, 'existing@site.test', inviter.userData.user_invite_code);
    expect((await userData(server.url, inviter.jwt)).user_ref_registered).toBe(0);
  });

  it('confirmed counts invitees whose ticket is paid', async () => {
    server = await startTestServer({ plugins: [] });
    const inviter = await registerUser(server.url, 'paid-boss@site.test');
    await registerUser(server.url, 'buyer@site.test', inviter.userData.user_invite_code);
    await server.ctx.users.settleTicket(
      (await server.ctx.users.findByEmail('buyer@site.test'))!.id,
      220_000_000n,
      'early_bird',
      0,
      2,
    );
    const data = await userData(server.url, inviter.jwt);
    expect(data.user_ref_confirmed).toBe(1);
    expect(data.user_data.referral.confirmed).toBe(1);
  });
});

describe('invite clicks', () => {
  it('counts a click when the site page is served for /r/{code}, /ref/{code} and /?i={code}', async () => {
    const clock = { ms: Date.parse('2025-11-10T10:00:00Z') };
    server = await startTestServer({ plugins: [], siteDir, now: () => clock.ms });
    const clicked: ServerEvents['invite.clicked'][] = [];
    server.events.on('invite.clicked', (event) => clicked.push(event));
    const inviter = await registerUser(server.url, 'clicks@site.test');
    const code = inviter.userData.user_invite_code;
    for (const path of [
      `/r/${code}`,
      `/ref/${code.toLowerCase()}`,
      `/?i=${code}`,
      `/r/${code}!!`,
    ]) {
      const page = await fetch(`${server.url}${path}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Solana Mafia Wars');
      clock.ms += CLICK_WINDOW_MS; // one click per visitor and code per window
    }
    // The jwt has expired meanwhile (the clock moved 40 min): a refreshed one reads the counts.
    const renewed = await postApi(server.url, 'auth/refresh', {
      refresh_token: inviter.refreshToken,
    });
    const data = await userData(server.url, String(renewed.body.jwt));
    expect(data.user_data.referral.clicks).toBe(4);
    expect(clicked).toHaveLength(4);
  });

  it('a visitor reloading an invite link counts once per window', async () => {
    server = await startTestServer({ plugins: [], siteDir });
    const inviter = await registerUser(server.url, 'reloads@site.test');
    const code = inviter.userData.user_invite_code;
    for (let i = 0; i < 20; i += 1) await (await fetch(`${server.url}/r/${code}`)).text();
    const data = await userData(server.url, inviter.jwt);
    expect(data.user_data.referral.clicks).toBe(1);
  });

  it('does not count assets, unknown codes, other pages or prefetches', async () => {
    server = await startTestServer({ plugins: [], siteDir });
    mkdirSync(join(siteDir, 'assets'), { recursive: true });
    writeFileSync(join(siteDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    const inviter = await registerUser(server.url, 'noclick@site.test');
    const code = inviter.userData.user_invite_code;
    await fetch(`${server.url}/assets/app-abc123.js?i=${code}`);
    await fetch(`${server.url}/r/NOSUCHCODE`);
    await fetch(`${server.url}/docs/intro?i=${code}`);
    await fetch(`${server.url}/r/${code}`, { headers: { 'Sec-Purpose': 'prefetch' } });
    await fetch(`${server.url}/r/${code}`, { method: 'HEAD' });
    expect((await userData(server.url, inviter.jwt)).user_data.referral.clicks).toBe(0);
  });
});

describe('persistence', () => {
  it('keeps users, sessions, refresh tokens and the signing secret across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'smw-restart-'));
    try {
      const first = await startTestServer({ plugins: [], dataDir });
      const inviter = await registerUser(first.url, 'keep@site.test');
      await registerUser(first.url, 'keep2@site.test', inviter.userData.user_invite_code);
      await first.close();

      server = await startTestServer({ plugins: [], dataDir });
      expect(
        (await postApi(server.url, 'sess/load', { session: inviter.sessionToken, data: {} }))
          .status,
      ).toBe(200);
      const data = await postApi(server.url, 'user/data', {}, inviter.jwt);
      expect(data.status).toBe(200);
      expect(data.body.user_data).toMatchObject({
        user_email: 'keep@site.test',
        user_invite_code: inviter.userData.user_invite_code,
        user_payment_wallet: inviter.userData.user_payment_wallet,
        user_ref_registered: 1,
      });
      expect(
        (await postApi(server.url, 'auth/refresh', { refresh_token: inviter.refreshToken })).status,
      ).toBe(200);
      // The embedded store keeps its writes in SQLite's write-ahead log (one file beside it).
      if (server.store.engine === 'sqlite')
        expect(await query(server, 'PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    } finally {
      await server?.close();
      server = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
