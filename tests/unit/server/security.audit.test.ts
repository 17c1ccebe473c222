import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerFrame } from '../../../contract/realtime';
import { NO_CHAIN_MESSAGE, startServer, type RunningServer } from '../../../server/app';
import {
  EMAIL_STRIKE_WINDOW_MS,
  MAX_EMAIL_STRIKES,
  RESEND_COOLDOWN_MS,
} from '../../../server/codes';
import { CHAT_LIMIT } from '../../../server/realtime/rooms';
import { postApi, readOutboxCode, registerUser } from '../../support/api';
import { serversClosedAfterEach } from '../../support/servers';
import { peer, type Peer } from '../../support/sockets';
import { until } from '../../support/until';

/**
 * The server probed as an attacker would, over real HTTP and websockets, in both modes: one
 * figure line per numbered finding of the audit (`security N: what — tried / got through`),
 * each at 0 got through. Items 3, 7, 8 (sessions) and 11 print theirs in security.http.test.ts,
 * item 2 in chain.chaos.test.ts.
 */
const figure = (n: number, what: string, tried: number, through: number) =>
  console.log(`security ${n}: ${what} — ${tried} tried / ${through} got through`);

const start = serversClosedAfterEach();

async function rpc(url: string, method: string, params: unknown[]) {
  const response = await fetch(`${url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number } };
}

describe('1 and 10: no free tickets, no development doors in production', () => {
  it('production refuses to start without a chain, and with LOCAL_CHAIN=1 answers no airdrop', async () => {
    let started = 0;
    try {
      const s = await startServer({
        port: 0,
        mode: 'production',
        log: 'silent',
        dataDir: mkdtempSync(join(tmpdir(), 'smw-audit-')),
      });
      started += 1;
      await s.close();
    } catch (error) {
      expect(String(error)).toContain(NO_CHAIN_MESSAGE);
    }
    figure(1, 'production start without SOLANA_RPC_URL or LOCAL_CHAIN=1', 1, started);

    // Production has no outbox: the code reaches the test's mailer, as an operator's would.
    const server = await startProduction();
    const user = await registerUserIn(server);
    const wallet = user.user_payment_wallet;
    let granted = 0;
    let airdrops = 0;
    for (let i = 0; i < 30; i += 1) {
      const answer = await rpc(server.url, 'requestAirdrop', [wallet, 1_000_000_000]);
      if (answer.result) airdrops += 1;
    }
    const balance = await postApi(
      server.url,
      'user/wallet/balance',
      { data: { wallet_id: user.user_payment_wallet_data.wallet_id } },
      user.jwt,
    );
    if (balance.body.access_granted === true) granted += 1;
    figure(1, 'airdrops to the own payment wallet in production', 30, airdrops);
    figure(1, 'access granted without paying in production', 1, granted);
    expect([started, airdrops, granted]).toEqual([0, 0, 0]);

    const doors = [
      fetch(`${server.url}/api/dev/outbox?email=a@b.co`),
      fetch(`${server.url}/api/dev/wallet`, { method: 'POST', body: '{}' }),
      fetch(`${server.url}/api/dev/realtime`),
    ];
    const open = (await Promise.all(doors)).filter((r) => r.status !== 404).length;
    const expire = await rpc(server.url, 'litesvm_expireBlockhash', []);
    const through = open + (expire.error ? 0 : 1);
    figure(10, 'development endpoints and chain controls in production', 4, through);
    expect(through).toBe(0);
  });
});

/** Signs a user up on a production server: the mailer is the test's, as an operator's would be. */
let mailbox = new Map<string, string>();
async function registerUserIn(server: RunningServer) {
  const email = `prod.${Date.now()}.${Math.random().toString(36).slice(2)}@site.test`;
  const created = await postApi(server.url, 'sess/create', {
    data: { language: 'en', user_agent: 'audit' },
  });
  await postApi(server.url, 'auth/email/init', {
    session: created.body.sessionToken,
    data: { email },
  });
  const code = mailbox.get(email) ?? '';
  const verified = await postApi(server.url, 'auth/email/verify', {
    session: created.body.sessionToken,
    data: { email, code },
  });
  expect(verified.status).toBe(200);
  return {
    ...(verified.body.user_data as {
      user_payment_wallet: string;
      user_payment_wallet_data: { wallet_id: string };
    }),
    jwt: String(verified.body.jwt),
  };
}
const startProduction = async () => {
  mailbox = new Map();
  return start({
    mode: 'production',
    localChain: true,
    mailer: async ({ email, text }) => {
      mailbox.set(email, /\b\d{6}\b/.exec(text)?.[0] ?? '');
    },
  });
};

describe('4: one-time codes are limited per e-mail and network, across resends', () => {
  it(`at most ${MAX_EMAIL_STRIKES} wrong codes per e-mail per hour from one network, whatever the resends`, async () => {
    const clock = { ms: Date.parse('2025-11-10T10:00:00Z') };
    const server = await start({ now: () => clock.ms });
    const email = 'victim@site.test';
    let evaluated = 0;
    const tried = 30;
    for (let round = 0; round < 6; round += 1) {
      await postApi(server.url, 'auth/email/init', { data: { email } });
      const code = await readOutboxCode(server.url, email);
      for (let i = 0; i < 5; i += 1) {
        const wrong = String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
        const answer = await postApi(server.url, 'auth/email/verify', {
          data: { email, code: wrong },
        });
        if (answer.body.message === 'Invalid code') evaluated += 1;
      }
      clock.ms += RESEND_COOLDOWN_MS + 1_000;
    }
    const through = Math.max(0, evaluated - MAX_EMAIL_STRIKES);
    figure(
      4,
      `wrong codes evaluated beyond ${MAX_EMAIL_STRIKES} per e-mail per hour from one network`,
      tried,
      through,
    );
    expect(through).toBe(0);
    // After the window, the e-mail signs in again.
    clock.ms += EMAIL_STRIKE_WINDOW_MS;
    const again = await postApi(server.url, 'auth/email/init', { data: { email } });
    expect(again.status).toBe(200);
    const good = await readOutboxCode(server.url, email);
    const ok = await postApi(server.url, 'auth/email/verify', { data: { email, code: good } });
    expect(ok.status).toBe(200);
  });
});

describe('5: refresh rotation with a grace', () => {
  it('parallel refreshes with one token keep the session', async () => {
    const server = await start();
    const user = await registerUser(server.url, 'parallel@site.test');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        postApi(server.url, 'auth/refresh', { refresh_token: user.refreshToken }),
      ),
    );
    const lost = answers.filter((a) => a.status !== 200).length;
    let dead = 0;
    for (const a of answers) {
      const next = await postApi(server.url, 'auth/refresh', {
        refresh_token: String(a.body.refresh_token),
      });
      if (next.status !== 200) dead += 1;
    }
    figure(5, 'sessions ended by parallel refreshes of one token', 10, lost + dead);
    expect(lost + dead).toBe(0);
  });
});

const ping = async (p: Peer) => {
  const before = p.frames.filter((f) => f.type === 'pong').length;
  p.ws.send(JSON.stringify({ type: 'ping', timestamp: 2 }));
  await until(() => p.frames.filter((f) => f.type === 'pong').length > before);
};

describe('6: realtime rooms', () => {
  it('no room outside §7, no guest writes, no floods, no ids, one log line for junk', async () => {
    const warnings: string[] = [];
    const server = await start({
      log: { info: () => {}, warn: (m: string) => warnings.push(m), error: () => {} },
    });
    const session = await postApi(server.url, 'sess/create', {
      data: { language: 'en', user_agent: 'audit' },
    });
    const guest = await peer(server, { session: String(session.body.sessionToken) });
    const odd = ['admin', 'user:1', 'notifications:2', 'lobby'];
    for (const room of odd) guest.ws.send(JSON.stringify({ type: 'join', room, timestamp: 1 }));
    await ping(guest);
    const joined = guest.frames.filter((f) => f.type === 'joined').length;
    figure(6, 'guest joins of rooms outside §7 (admin, user:1, …)', odd.length, joined);

    const a = await registerUser(server.url, 'flood-a@site.test');
    const b = await registerUser(server.url, 'flood-b@site.test');
    const sender = await peer(server, { jwt: a.jwt });
    const reader = await peer(server, { jwt: b.jwt });
    for (const p of [guest, sender, reader])
      p.ws.send(JSON.stringify({ type: 'join', room: 'chat', timestamp: 1 }));
    await Promise.all([guest, sender, reader].map(ping));
    for (let i = 0; i < 20; i += 1)
      guest.ws.send(JSON.stringify({ type: 'message', room: 'chat', message: 'g', timestamp: 1 }));
    const flood = 2_000;
    // The server's health answer while the flood arrives: the load figure of the README.
    const timings: number[] = [];
    const probe = (async () => {
      for (let i = 0; i < 40; i += 1) {
        const t0 = performance.now();
        await (await fetch(`${server.url}/api/health`)).text();
        timings.push(performance.now() - t0);
      }
    })();
    for (let i = 0; i < flood; i += 1)
      sender.ws.send(JSON.stringify({ type: 'message', room: 'chat', message: 'f', timestamp: 1 }));
    await probe;
    timings.sort((x, y) => x - y);
    console.log(
      `load: /api/health during a ${flood}-frame chat flood — p95 ${timings[Math.floor(timings.length * 0.95)]?.toFixed(1)} ms, max ${timings.at(-1)?.toFixed(1)} ms (${timings.length} requests)`,
    );
    const closedCode = await Promise.race([
      sender.closed,
      new Promise<number>((r) => setTimeout(() => r(0), 3_000)),
    ]);
    await ping(reader);
    const delivered = reader.frames.filter((f) => f.type === 'room_message');
    const fromGuest = delivered.filter(
      (f) => f.type === 'room_message' && f.message === 'g',
    ).length;
    const flooded = delivered.filter((f) => f.type === 'room_message' && f.message === 'f').length;
    figure(6, 'guest chat messages delivered', 20, fromGuest);
    figure(
      6,
      `chat frames delivered beyond ${CHAT_LIMIT.max} per ${CHAT_LIMIT.windowMs / 1000} s`,
      flood,
      Math.max(0, flooded - CHAT_LIMIT.max),
    );
    const ids = delivered.filter(
      (f) => f.type === 'room_message' && /^user:/.test(f.from ?? ''),
    ).length;
    figure(6, 'frames naming a sender by its database id', delivered.length, ids);
    expect(closedCode).toBe(1008);

    const junk = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`);
    const junkFrames: ServerFrame[] = [];
    junk.on('message', (raw) => junkFrames.push(JSON.parse(String(raw)) as ServerFrame));
    let junkClosed = false;
    junk.on('close', () => (junkClosed = true));
    await new Promise<void>((done) => junk.once('open', () => done()));
    const before = warnings.length;
    for (let i = 0; i < 200; i += 1) junk.send('{not json');
    // The barrier: the server reads a socket's frames in order, so once it has welcomed the
    // authentication sent after the junk, every junk frame has been handled (and logged, or not).
    junk.send(
      JSON.stringify({ type: 'auth', session: String(session.body.sessionToken), timestamp: 1 }),
    );
    await until(() => junkClosed || junkFrames.some((f) => f.type === 'welcome'));
    expect(junkClosed || junkFrames.some((f) => f.type === 'welcome')).toBe(true);
    const lines = warnings.length - before;
    figure(
      6,
      'log lines written for junk frames before authentication',
      200,
      Math.max(0, lines - 1),
    );
    junk.close();
    expect([
      joined,
      fromGuest,
      Math.max(0, flooded - CHAT_LIMIT.max),
      ids,
      Math.max(0, lines - 1),
    ]).toEqual([0, 0, 0, 0, 0]);
  });
});

describe('9: one address is one account', () => {
  it('refuses NUL bytes, address lists, invisible characters and over-long addresses', async () => {
    const server = await startProduction();
    const loose = [
      'a\u0000@b.co',
      'a@b.co,c@d.co',
      'a@b.co;c@d.co',
      'a@b.co\u200b',
      '\u200ba@b.co',
      'a@b\u00ad.co',
      '"a b"@c.co',
      `${'x'.repeat(250)}@b.co`,
    ];
    let accepted = 0;
    for (const email of loose) {
      const answer = await postApi(server.url, 'auth/email/init', { data: { email } });
      if (answer.status === 200) accepted += 1;
    }
    figure(9, 'loose e-mail addresses accepted', loose.length, accepted);
    expect(accepted).toBe(0);
    expect(
      (await postApi(server.url, 'auth/email/init', { data: { email: 'Fine@Site.test' } })).status,
    ).toBe(200);
  });
});

describe('8: anonymous writes', () => {
  it('reloading an invite link counts one click', async () => {
    const siteDir = mkdtempSync(join(tmpdir(), 'smw-audit-site-'));
    writeFileSync(join(siteDir, 'index.html'), '<!doctype html><title>Solana Mafia Wars</title>');
    const server = await start({ siteDir });
    const inviter = await registerUser(server.url, 'clicks-audit@site.test');
    const code = inviter.userData.user_invite_code;
    const visits = 200;
    for (let i = 0; i < visits; i += 1) await (await fetch(`${server.url}/r/${code}`)).text();
    const data = await postApi(server.url, 'user/data', {}, inviter.jwt);
    const clicks = (data.body.user_data as { user_data: { referral: { clicks: number } } })
      .user_data.referral.clicks;
    figure(8, 'click rows from one visitor reloading /r/<code>', visits, Math.max(0, clicks - 1));
    expect(clicks).toBe(1);
  });
});
