import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer, StartOptions } from '../../../server/app';
import { CODE_MESSAGES, createCodes, MAX_ADDRESS_TRIES, networkOf } from '../../../server/codes';
import { PRODUCTION_MAIL_LIMITS } from '../../../server/mailQuota';
import { connectionKey } from '../../../server/connectionCap';
import { PRODUCTION_RATE_LIMITS } from '../../../server/limits';
import { realtimePlugin } from '../../../server/realtime/plugin';
import { JWT_EXPIRED_REASON, MAX_CHAT_CHARACTERS } from '../../../server/realtime/rooms';
import type { ServerFrame } from '../../../contract/realtime';
import WebSocket from 'ws';
import { until } from '../../support/until';
import { postApi, readOutboxCode, registerUser, startTestServer } from '../../support/api';
import { loopback, postFrom } from '../../support/fromAddress';
import {
  balanceOf,
  register,
  rpc,
  serverProcess,
  type ProcessUser,
} from '../../support/serverProcess';
import { mountSmallDisk } from '../../support/smallDisk';
import { STORAGE_UNAVAILABLE_MESSAGE } from '../../../server/storageErrors';
import { openTestStore, testEngine } from '../../support/testStore';
import { peer } from '../../support/sockets';
import { CLOSE_UNAUTHORIZED } from '../../../contract/realtime';

/**
 * The attacks of the third security round, each run as it was reported (clients on their own
 * networks, 127.0.N.x), each printing `security: <attack>: … 0 through`.
 */
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serverWithClock(opts: Partial<StartOptions> = {}, start = '2025-11-10T10:00:00Z') {
  const clock = { ms: Date.parse(start) };
  server = await startTestServer({ now: () => clock.ms, ...opts });
  return { url: server.url, advance: (ms: number) => (clock.ms += ms), clock };
}
const session = async (url: string, from: string) =>
  String(
    (await postFrom(from, url, 'sess/create', { data: { language: 'en', user_agent: 'tests' } }))
      .body.sessionToken,
  );
/** GET /api/health on a fresh connection from `localAddress`: the status, or 0 when refused or silent for 3 s. */
const healthFrom = (localAddress: string, url: string): Promise<number> =>
  new Promise((done) => {
    const req = get(`${url}/api/health`, { localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', () => done(0));
    req.setTimeout(3_000, () => req.destroy());
  });

/** One connection of a flood: idle (never a byte), kept alive after one request, or a websocket never authenticated. */
type Held = { kind: 'idle' | 'keep-alive' | 'websocket'; open: () => boolean; close: () => void };
function hold(kind: Held['kind'], url: string, localAddress: string, headers = ''): Promise<Held> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    if (kind === 'websocket') {
      const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, {
        localAddress,
        ...(headers ? { headers: { 'X-Forwarded-For': headers } } : {}),
      });
      const held: Held = {
        kind,
        open: () => ws.readyState === WebSocket.OPEN,
        close: () => ws.terminate(),
      };
      ws.once('open', () => done(held));
      ws.once('error', () => done(held));
      return;
    }
    const socket: Socket = connect({ host: hostname, port: Number(port), localAddress });
    let closed = false;
    const held: Held = { kind, open: () => !closed, close: () => socket.destroy() };
    socket.on('error', () => {});
    socket.once('close', () => {
      closed = true;
      done(held);
    });
    socket.once('connect', () => {
      if (kind === 'idle') {
        setTimeout(() => done(held), 50);
        return;
      }
      const forwarded = headers ? `X-Forwarded-For: ${headers}\r\n` : '';
      socket.write(`GET /api/health HTTP/1.1\r\nHost: ${hostname}\r\n${forwarded}\r\n`);
      socket.once('data', () => done(held));
    });
  });
}
/** `count` connections from one address, kinds taken in turn, `batch` at a time. */
async function flood(
  url: string,
  from: string,
  count: number,
  forwardedFor?: (i: number) => string,
) {
  const kinds: Held['kind'][] = ['idle', 'keep-alive', 'websocket'];
  const all: Held[] = [];
  for (let start = 0; start < count; start += 100)
    all.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(100, count - start) }, (_, j) =>
          hold(kinds[(start + j) % 3]!, url, from, forwardedFor?.(start + j)),
        ),
      )),
    );
  // What the server closed at once is closed by now; the rest it keeps.
  await new Promise((r) => setTimeout(r, 300));
  return all;
}
/** A transfer of `lamports` from `payer` to `to`, as a wallet sends it: the signature, or the chain's error. */
async function transfer(url: string, payer: Keypair, to: string, lamports: number) {
  const { value } = await rpc<{ value: { blockhash: string; lastValidBlockHeight: number } }>(
    url,
    'getLatestBlockhash',
    [],
  );
  const tx = new Transaction({ feePayer: payer.publicKey, ...value }).add(
    SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: new PublicKey(to), lamports }),
  );
  tx.sign(payer);
  return rpc<string>(url, 'sendTransaction', [
    tx.serialize().toString('base64'),
    { encoding: 'base64' },
  ]).then(
    (signature) => ({ ok: true as const, signature }),
    (error: unknown) => ({ ok: false as const, message: String(error) }),
  );
}

const say = (line: string) => console.log(`security: ${line} (${testEngine()})`);

describe(`security, round three (${testEngine()})`, () => {
  it('lockout by code requests: a stranger asking for the player’s address takes nothing away', async () => {
    const { url, advance } = await serverWithClock();
    const victim = loopback(1);
    const strangers = [loopback(2), loopback(3)];
    let through = 0;
    for (let round = 0; round < 4; round += 1) {
      const email = `victim-${round}@site.test`;
      const own = await session(url, victim);
      const asked = await postFrom(victim, url, 'auth/email/init', {
        session: own,
        data: { email },
      });
      if (asked.status !== 200) through += 1;
      const code = String(asked.body.sign_code);
      // Strangers ask for the victim's address from two other networks, every 30.5 s.
      for (const [i, stranger] of strangers.entries()) {
        advance(30_500);
        const theirs = await postFrom(stranger, url, 'auth/email/init', { data: { email } });
        expect(theirs.status, `stranger ${i}`).toBe(200);
      }
      // The victim's own request is not refused because strangers asked first...
      const again = await postFrom(victim, url, 'auth/email/init', {
        session: own,
        data: { email },
      });
      if (again.status !== 200) through += 1;
      // ...and the code mailed 61 s ago still signs them in.
      const verified = await postFrom(victim, url, 'auth/email/verify', {
        session: own,
        data: { email, code },
      });
      if (verified.status !== 200) through += 1;
      advance(60_000);
    }
    say(
      `lockout by code requests: 4 sign-ins under 2 strangers' requests every 30.5 s, ${through} through`,
    );
    expect(through).toBe(0);
  });

  it('referral taken by a later code request: the player’s own session keeps its inviter', async () => {
    const { url, advance } = await serverWithClock();
    const first = await registerUser(url, 'inviter-one@site.test');
    const second = await registerUser(url, 'inviter-two@site.test');
    const player = loopback(1);
    const email = 'newcomer@site.test';
    const own = await session(url, player);
    const mine = await postFrom(player, url, 'auth/email/init', {
      session: own,
      data: { email, code_invite: first.userData.user_invite_code },
    });
    expect(mine.status).toBe(200);
    advance(30_500);
    const theirs = await postFrom(loopback(2), url, 'auth/email/init', {
      session: await session(url, loopback(2)),
      data: { email, code_invite: second.userData.user_invite_code },
    });
    expect(theirs.status).toBe(200);
    // The player types the newest code in their inbox: the stranger's.
    const newest = await readOutboxCode(url, email);
    expect(newest).toBe(String(theirs.body.sign_code));
    const verified = await postFrom(player, url, 'auth/email/verify', {
      session: own,
      data: { email, code: newest },
    });
    expect(verified.status).toBe(200);
    const one = await postApi(url, 'user/data', {}, first.jwt);
    const two = await postApi(url, 'user/data', {}, second.jwt);
    const registered = (answer: typeof one) =>
      (answer.body.user_data as { user_ref_registered: number }).user_ref_registered;
    const through = registered(two);
    say(
      `referral taken by a later code request: inviter one ${registered(one)}, inviter two ${through}, ${through} through`,
    );
    expect(registered(one)).toBe(1);
    expect(through).toBe(0);
  });

  it('payment at the price landed before a tier ended: a ticket of that tier, checked after the end', async () => {
    const start = Date.parse('2025-11-19T23:58:45Z');
    const end = start + 75_000;
    const { url, advance } = await serverWithClock(
      {
        calendar: {
          launchAt: Date.parse('2025-12-20T00:00:00Z'),
          earlyBirdEnd: end,
          prices: { earlyBird: '0.22', beforeLaunch: '0.33', afterLaunch: '0.55' },
        },
      },
      new Date(start).toISOString(),
    );
    const player = await registerUser(url, 'late-check@site.test');
    // The transfer lands 46 s before the end; nobody looks until after it.
    advance(29_000);
    await rpc(url, 'requestAirdrop', [player.userData.user_payment_wallet, 220_000_000]);
    advance(46_000 + 30_000);
    const checked = await postApi(
      url,
      'user/wallet/balance',
      { data: { wallet_id: player.userData.user_payment_wallet_data.wallet_id } },
      player.jwt,
    );
    const granted = checked.body.access_granted === true;
    say(
      `payment at the price landed before a tier ended: checked 30 s after the end, access ${granted}, tier ${String(checked.body.ticket_tier)}, ${granted ? 0 : 1} through`,
    );
    expect(checked.body).toMatchObject({ access_granted: true, ticket_tier: 'early_bird' });
  });

  it('spam relay: the site-wide and per-domain caps bite within the first seconds', async () => {
    // One minute of the caps' clock: the run may take longer than that on a loaded machine.
    const minute = Date.parse('2025-11-10T10:00:05Z');
    server = await startTestServer({
      mode: 'production',
      localChain: true,
      plugins: [],
      now: () => minute,
    });
    const url = server.url;
    const started = Date.now();
    // 310 addresses at one domain from 31 networks, 10 each (as reported); then 200 more
    // spread over 200 domains.
    const oneDomain = await Promise.all(
      Array.from({ length: 310 }, (_, i) =>
        postFrom(loopback(10 + (i % 31), 1), url, 'auth/email/init', {
          data: { email: `spam-${i}@relay.test` },
        }),
      ),
    );
    const manyDomains = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        postFrom(loopback(50 + (i % 20), 1), url, 'auth/email/init', {
          data: { email: `spam@domain-${i}.test` },
        }),
      ),
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const sentOne = oneDomain.filter((a) => a.status === 200).length;
    const sentMany = manyDomains.filter((a) => a.status === 200).length;
    const refused = [...oneDomain, ...manyDomains].filter((a) => a.status === 429);
    const { perDomainPerMinute, perMinute } = PRODUCTION_MAIL_LIMITS;
    const through =
      Math.max(0, sentOne - perDomainPerMinute) + Math.max(0, sentOne + sentMany - perMinute);
    say(
      `spam relay: 510 code requests in ${seconds} s, ${sentOne} mailed to one domain (cap ${perDomainPerMinute}), ${sentOne + sentMany} in all (cap ${perMinute}/min), ${through} through`,
    );
    expect(sentOne).toBe(perDomainPerMinute);
    expect(sentOne + sentMany).toBe(perMinute);
    expect(refused[0]?.body.message).toMatch(/Too many sign-in e-mails are being sent right now/);
  });

  it('wrong codes per address across 30 networks and a /64: one budget, and the owner still signs in', async () => {
    const opened = await openTestStore();
    try {
      let clock = Date.parse('2025-11-10T10:00:00Z');
      const codes = createCodes(opened.store, randomBytes(32), () => clock);
      const email = 'target@site.test';
      const owner = '198.51.100.7';
      const sent = await codes.request(email, null, owner);
      if (!sent.ok) throw new Error(sent.message);
      const wrong = sent.code === '000000' ? '000001' : '000000';
      let read = 0;
      // 30 networks (one /24 each), 10 guesses each...
      for (let n = 0; n < 30; n += 1)
        for (let g = 0; g < 10; g += 1) {
          const answer = await codes.verify(email, wrong, `203.0.${n}.${g + 1}`);
          if (!answer.ok && answer.message === CODE_MESSAGES.invalid) read += 1;
        }
      // ...and one IPv6 /64, 300 addresses of it.
      for (let h = 1; h <= 300; h += 1) {
        const answer = await codes.verify(email, wrong, `2001:db8:1:2::${h.toString(16)}`);
        if (!answer.ok && answer.message === CODE_MESSAGES.invalid) read += 1;
      }
      expect(networkOf('2001:db8:1:2::1')).toBe(networkOf('2001:db8:1:2:ffff::9'));
      // The owner asks for a fresh code from their own network: it starts its own budget.
      clock += 30_000;
      const fresh = await codes.request(email, null, owner);
      if (!fresh.ok) throw new Error(fresh.message);
      const signedIn = await codes.verify(email, fresh.code, owner);
      const through = Math.max(0, read - MAX_ADDRESS_TRIES);
      say(
        `wrong codes per address across 30 networks and a /64: 600 guesses, ${read} read (budget ${MAX_ADDRESS_TRIES}), owner signed in ${signedIn.ok}, ${through} through`,
      );
      expect(read).toBe(MAX_ADDRESS_TRIES);
      expect(signedIn.ok).toBe(true);
    } finally {
      await opened.close();
    }
  });

  it('player writes to updates/notifications: refused; chat relayed as plain text without data', async () => {
    const { url } = await serverWithClock({}, new Date().toISOString());
    const player = await registerUser(url, 'writer@site.test');
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
    const frames: ServerFrame[] = [];
    ws.on('message', (raw) => frames.push(JSON.parse(String(raw)) as ServerFrame));
    await new Promise<void>((done, fail) => {
      ws.once('open', () => done());
      ws.once('error', fail);
    });
    const send = (frame: object) => ws.send(JSON.stringify({ timestamp: 1, ...frame }));
    send({ type: 'auth', jwt: player.jwt });
    expect(await until(() => frames.some((f) => f.type === 'welcome'))).toBe(true);
    const payload = '<img src=x onerror=alert(1)><b>Boss</b> says hi';
    const link = {
      router_link: 'https://evil.example/',
      type: 'success',
      text: '<script>x</script>',
    };
    let through = 0;
    for (const room of ['updates', 'notifications']) {
      send({ type: 'join', room });
      send({ type: 'message', room, message: payload, data: link });
    }
    send({ type: 'join', room: 'chat' });
    send({
      type: 'message',
      room: 'chat',
      message: `${payload}${'x'.repeat(MAX_CHAT_CHARACTERS)}`,
      data: link,
    });
    expect(
      await until(() => frames.some((f) => f.type === 'room_message' && f.room === 'chat')),
    ).toBe(true);
    const relayed = frames.filter((f) => f.type === 'room_message');
    const readOnly = frames.filter(
      (f) => f.type === 'error' && /read-only/.test(String(f.message)),
    );
    through += relayed.filter((f) => f.room !== 'chat').length;
    const chat = relayed.find((f) => f.room === 'chat')!;
    if (/[<>]/.test(String(chat.message)) || chat.data !== undefined) through += 1;
    if (String(chat.message).length > MAX_CHAT_CHARACTERS) through += 1;
    ws.terminate();
    say(
      `player writes to updates/notifications: 2 refused as read-only (${readOnly.length}), chat relayed as ${String(chat.message).length} characters of plain text, ${through} through`,
    );
    expect(readOnly).toHaveLength(2);
    expect(chat.message).toBe(
      `Boss says hi${'x'.repeat(MAX_CHAT_CHARACTERS - 'Boss says hi'.length)}`,
    );
    expect(through).toBe(0);
  });
  it('socket after jwt expiry: closed 4401 when its jwt expires, unless renewed on the socket', async () => {
    const ttl = 60;
    const { advance } = await serverWithClock({ jwtTtlSeconds: ttl }, new Date().toISOString());
    const running = server!;
    const url = running.url;
    const player = await registerUser(url, 'expiring@site.test');
    const other = await registerUser(url, 'someone-else@site.test');
    const reasons = new Map<WebSocket, string>();
    const open = async (jwt: string) => {
      const p = await peer(running, { jwt });
      p.ws.on('close', (_code, reason) => reasons.set(p.ws, String(reason)));
      expect(p.frames.filter((f) => f.type === 'welcome')).toHaveLength(1);
      for (const room of ['notifications', 'chat'])
        p.ws.send(JSON.stringify({ type: 'join', room, timestamp: 1 }));
      expect(await until(() => p.frames.filter((f) => f.type === 'joined').length === 2)).toBe(
        true,
      );
      return p;
    };
    // Both opened with the first jwt; `renewing` re-authenticates on the open socket halfway.
    const stale = await open(player.jwt);
    const renewing = await open(player.jwt);
    const swapped = await open(player.jwt);
    advance((ttl / 2) * 1000);
    const refreshed = await postApi(url, 'auth/refresh', { refresh_token: player.refreshToken });
    expect(refreshed.status).toBe(200);
    const freshJwt = String(refreshed.body.jwt);
    renewing.ws.send(JSON.stringify({ type: 'auth', jwt: freshJwt, timestamp: 1 }));
    expect(
      await until(() => renewing.frames.filter((f) => f.type === 'welcome').length === 2),
    ).toBe(true);
    // Renewing with another player's jwt is no renewal: that socket is closed at once.
    swapped.ws.send(JSON.stringify({ type: 'auth', jwt: other.jwt, timestamp: 1 }));
    const swappedCode = await swapped.closed;

    // The first jwt expires (1 s past its exp); the stale socket speaks at once, before any sweep.
    advance((ttl / 2) * 1000 + 1000);
    const attack = 'still here after my jwt expired';
    stale.ws.send(JSON.stringify({ type: 'message', room: 'chat', message: attack, timestamp: 1 }));
    const staleCode = await Promise.race([
      stale.closed,
      new Promise<number>((done) => setTimeout(() => done(-1), 3_000)),
    ]);
    // A friend registers through the player's link: the renewed socket hears it, the stale one not.
    await registerUser(url, 'friend-of-expiring@site.test', player.userData.user_invite_code);
    const heard = (p: { frames: ServerFrame[] }) =>
      p.frames.some(
        (f) =>
          f.type === 'room_message' &&
          f.room === 'notifications' &&
          JSON.stringify(f.data).includes('invite.registered'),
      );
    expect(await until(() => heard(renewing))).toBe(true);
    renewing.ws.send(
      JSON.stringify({ type: 'message', room: 'chat', message: 'renewed', timestamp: 1 }),
    );
    const echoed = (p: { frames: ServerFrame[] }, text: string) =>
      p.frames.some((f) => f.type === 'room_message' && f.room === 'chat' && f.message === text);
    expect(await until(() => echoed(renewing, 'renewed'))).toBe(true);

    // The renewed socket lives until its fresh jwt expires, and no longer without another renewal.
    advance(ttl * 1000);
    const sweptAt = Date.now();
    const renewedCode = await Promise.race([
      renewing.closed,
      new Promise<number>((done) => setTimeout(() => done(-1), 3_000)),
    ]);
    const sweepMs = Date.now() - sweptAt;

    let through = 0;
    if (staleCode !== CLOSE_UNAUTHORIZED) through += 1;
    if (echoed(renewing, attack) || echoed(stale, attack)) through += 1;
    if (heard(stale)) through += 1;
    if (swappedCode !== CLOSE_UNAUTHORIZED) through += 1;
    if (renewedCode !== CLOSE_UNAUTHORIZED) through += 1;
    say(
      `socket after jwt expiry: a ${ttl} s jwt; the stale socket closed ${staleCode} ("${reasons.get(stale.ws) ?? ''}") as it spoke just after exp, its chat echoed ${echoed(renewing, attack)}, invite event heard ${heard(stale)}; renewed on the socket: kept until the fresh jwt's exp, then closed ${renewedCode} by the sweep in ${sweepMs} ms; renewal with another player's jwt closed ${swappedCode}; ${through} through`,
    );
    expect(staleCode).toBe(CLOSE_UNAUTHORIZED);
    expect(reasons.get(stale.ws)).toBe(JWT_EXPIRED_REASON);
    expect(swappedCode).toBe(CLOSE_UNAUTHORIZED);
    expect(renewedCode).toBe(CLOSE_UNAUTHORIZED);
    expect(through).toBe(0);
  });
  it('idle connections per address: one address holds at most the cap, others still connect', async () => {
    const cap = PRODUCTION_RATE_LIMITS.connectionsPerAddress;
    server = await startTestServer({
      mode: 'production',
      localChain: true,
      plugins: [realtimePlugin],
    });
    const url = server.url;
    const flooder = loopback(1);
    const tried = 1_000;
    const started = Date.now();
    const connections = await flood(url, flooder, tried);
    const held = connections.filter((c) => c.open());
    const heldBy = (kind: Held['kind']) => held.filter((c) => c.kind === kind).length;
    // Fresh connections from 14 other addresses while the flood holds its connections.
    const health = await Promise.all(
      Array.from({ length: 14 }, (_, i) => healthFrom(loopback(2 + i), url)),
    );
    const healthy = health.filter((status) => status === 200).length;
    const guest = await peer(
      server,
      { session: await session(url, loopback(20)) },
      { localAddress: loopback(20) },
    );
    const guestWelcomed = guest.frames.some((f) => f.type === 'welcome');
    guest.ws.terminate();
    // The flooder's own next connection is refused; once it lets 10 go, it connects again.
    const flooderAtCap = await healthFrom(flooder, url);
    for (const c of held.slice(0, 10)) c.close();
    await new Promise((r) => setTimeout(r, 200));
    const flooderAfter = await healthFrom(flooder, url);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    for (const c of connections) c.close();

    // Behind TRUST_PROXY the proxy's own connections carry many clients and are not capped;
    // a client's websockets through it count by its forwarded address.
    await server.close();
    server = await startTestServer({
      mode: 'production',
      localChain: true,
      plugins: [realtimePlugin],
      trustProxy: ['127.0.0.1'],
    });
    const proxied = await flood(server.url, '127.0.0.1', 2 * cap, (i) => `198.51.100.${i % 250}`);
    const proxyHeld = proxied.filter((c) => c.open()).length;
    for (const c of proxied) c.close();
    const { socketsPerIp } = PRODUCTION_RATE_LIMITS;
    const oneClient = await Promise.all(
      Array.from({ length: socketsPerIp + 20 }, () =>
        hold('websocket', server!.url, '127.0.0.1', '203.0.113.9'),
      ),
    );
    const oneClientHeld = oneClient.filter((c) => c.open()).length;
    const otherClient = await hold('websocket', server.url, '127.0.0.1', '203.0.113.10');
    const otherClientOpen = otherClient.open();
    for (const c of [...oneClient, otherClient]) c.close();

    const through =
      Math.max(0, held.length - cap) +
      (14 - healthy) +
      (guestWelcomed ? 0 : 1) +
      (flooderAtCap === 0 ? 0 : 1) +
      (flooderAfter === 200 ? 0 : 1) +
      Math.max(0, oneClientHeld - socketsPerIp) +
      (otherClientOpen ? 0 : 1);
    say(
      `idle connections per address: ${tried} connections from one address in ${seconds} s (idle, kept alive, websockets in turn), ${held.length} held (cap ${cap}: ${heldBy('idle')} idle, ${heldBy('keep-alive')} kept alive, ${heldBy('websocket')} websockets), its next one ${flooderAtCap === 0 ? 'refused' : `answered ${flooderAtCap}`} and after closing 10 ${flooderAfter}; health from 14 other addresses ${healthy}/14, a guest socket from another ${guestWelcomed ? 'welcomed' : 'refused'}; behind TRUST_PROXY the proxy held ${proxyHeld}/${2 * cap}, one forwarded client ${oneClientHeld} websockets (cap ${socketsPerIp}), another still ${otherClientOpen ? 'connects' : 'refused'}; ${through} through`,
    );
    expect(held).toHaveLength(cap);
    expect(healthy).toBe(14);
    expect(guestWelcomed).toBe(true);
    expect(flooderAtCap).toBe(0);
    expect(flooderAfter).toBe(200);
    expect(proxyHeld).toBe(2 * cap);
    expect(oneClientHeld).toBe(socketsPerIp);
    expect(otherClientOpen).toBe(true);
    // An IPv6 /64 is one address for the cap; an IPv4-mapped address is its IPv4 address.
    expect(connectionKey('2001:db8:1:2::1')).toBe(connectionKey('2001:DB8:1:2:ffff::9'));
    expect(connectionKey('2001:db8:1:3::1')).not.toBe(connectionKey('2001:db8:1:2::1'));
    expect(connectionKey('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(through).toBe(0);
  });
  it('full disk: a 16 MB data folder filled: 503s with the spec message, reads served, nothing settled lost, back when space returns', async () => {
    const PRICE = 10_000_000;
    const dir = mkdtempSync(join(tmpdir(), 'smw-full-disk-'));
    const proc = serverProcess('full-disk');
    const disk = await mountSmallDisk(dir, 16);
    try {
      await proc.build();
      const env = {
        DATA_DIR: dir,
        SERVER_MODE: 'development',
        PRICE_EARLY_BIRD_SOL: '0.01',
        EARLY_BIRD_END: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        LAUNCH_AT: new Date(Date.now() + 60 * 86_400_000).toISOString(),
      };
      let url = await proc.start(env, disk.launch);
      const settle = (player: ProcessUser) =>
        postApi(url, 'user/wallet/balance', { data: { wallet_id: player.walletId } }, player.jwt);
      const payer = Keypair.generate();
      await rpc(url, 'requestAirdrop', [payer.publicKey.toBase58(), 100 * PRICE]);
      // Before the disk fills: a settled ticket, a signed-in player, a player about to pay.
      const settled = await register(url, 'settled@site.test');
      expect((await transfer(url, payer, settled.wallet, PRICE)).ok).toBe(true);
      expect((await settle(settled)).body.access_granted).toBe(true);
      const signedIn = await register(url, 'signed-in@site.test');
      const late = await register(url, 'pays-while-full@site.test');
      // A code mailed before, typed while the disk is full.
      const typing = 'types-while-full@site.test';
      expect((await postApi(url, 'auth/email/init', { data: { email: typing } })).status).toBe(200);
      const typedCode = await readOutboxCode(url, typing);

      // Large writes take the rest of the disk, then players keep coming.
      disk.sh('cat /dev/zero > "$1/filler" 2>/dev/null; true');
      const full = disk.usage();
      const answers: { path: string; status: number; message: string }[] = [];
      const transfers: { ok: boolean; moved: boolean; lamports: number }[] = [];
      let reads = 0;
      let readsServed = 0;
      for (let i = 0; i < 60; i += 1) {
        for (const [path, data] of [
          ['sess/create', { language: 'en', user_agent: `tests-${i}-${'x'.repeat(400)}` }],
          ['auth/email/init', { email: `while-full-${i}@site.test` }],
        ] as const) {
          const answer = await postApi(url, path, { data });
          answers.push({ path, status: answer.status, message: String(answer.body.message ?? '') });
        }
        // A payment while full: reported landed exactly when it moved the money.
        const before = await balanceOf(url, late.wallet);
        // (Each amount its own: the same transaction twice would be refused as a duplicate.)
        const lamports = PRICE / 10 + i;
        const sent = await transfer(url, payer, late.wallet, lamports);
        const moved = (await balanceOf(url, late.wallet)) - before;
        transfers.push({ ok: sent.ok, moved: moved > 0n, lamports: sent.ok ? lamports : 0 });
        // Reads go on: the settled ticket, the signed-in player's data, health.
        for (const read of [
          postApi(url, 'user/data', {}, settled.jwt).then(
            (a) => a.status === 200 && a.body.user_data !== undefined,
          ),
          postApi(url, 'user/data', {}, signedIn.jwt).then((a) => a.status === 200),
          fetch(`${url}/api/health`).then((r) => r.status === 200),
        ]) {
          reads += 1;
          if (await read) readsServed += 1;
        }
      }
      const typedWhileFull = await postApi(url, 'auth/email/verify', {
        data: { email: typing, code: typedCode },
      });
      answers.push({
        path: 'auth/email/verify',
        status: typedWhileFull.status,
        message: String(typedWhileFull.body.message ?? ''),
      });
      const alive = proc.child()?.exitCode === null;
      const refused = answers.filter((a) => a.status === 503);
      const wrong = answers.filter(
        (a) =>
          !(a.status === 200 || (a.status === 503 && a.message === STORAGE_UNAVAILABLE_MESSAGE)),
      );
      const misreported = transfers.filter((t) => t.ok !== t.moved).length;
      const transfersRefused = transfers.filter((t) => !t.ok).length;

      // Space returns: sign-ins and payments work again, the late player's landed ones count.
      disk.sh('rm -f "$1/filler"');
      const after = await register(url, 'after-the-disk@site.test');
      // The code typed while full was not spent by the refused sign-in: it signs in now.
      const typedAfter = await postApi(url, 'auth/email/verify', {
        data: { email: typing, code: typedCode },
      });
      // Payments land again; the late player's ticket counts what landed.
      const paidAfter = await transfer(url, payer, late.wallet, PRICE);
      // The code signs in once: after the disk was freed, or while full where the store has room
      // elsewhere (Postgres).
      const codeSignIns = [typedWhileFull.status, typedAfter.status].filter(
        (s) => s === 200,
      ).length;
      const lateCheck = await settle(late);
      const lateLamports = Number(lateCheck.body.balance_lamports);
      // A kill and a start on the same disk: what was settled and signed in is all there.
      const balancesBefore = [
        await balanceOf(url, settled.wallet),
        await balanceOf(url, late.wallet),
      ];
      await proc.kill();
      url = await proc.start(env, disk.launch);
      const settledAfter = await settle(settled);
      const signedInAfter = await postApi(url, 'user/data', {}, signedIn.jwt);
      const afterAfter = await postApi(url, 'user/data', {}, after.jwt);
      const balancesAfter = [
        await balanceOf(url, settled.wallet),
        await balanceOf(url, late.wallet),
      ];

      const through =
        wrong.length +
        misreported +
        (reads - readsServed) +
        (alive ? 0 : 1) +
        (settledAfter.body.access_granted === true ? 0 : 1) +
        (signedInAfter.status === 200 ? 0 : 1) +
        (afterAfter.status === 200 ? 0 : 1) +
        (codeSignIns === 1 ? 0 : 1) +
        (paidAfter.ok && lateCheck.body.access_granted === true ? 0 : 1) +
        (String(balancesAfter) === String(balancesBefore) ? 0 : 1);
      say(
        `full disk: a ${16} MB data folder (${full.usedKb} KB used, ${full.availableKb} KB left after the large writes); ${answers.length} player writes: ${answers.length - refused.length} answered 200, ${refused.length} 503 "${refused[0]?.message ?? ''}", ${wrong.length} other; ${transfers.length} payments: ${transfersRefused} refused by the chain and not landed, ${misreported} misreported; reads ${readsServed}/${reads}; the server ${alive ? 'alive' : 'gone'}; space back: a new sign-in, the code typed while full ${typedWhileFull.status} then ${typedAfter.status} (signed in once: ${codeSignIns === 1}), a payment lands ${paidAfter.ok} (the late player's ${lateLamports} lamports, access ${String(lateCheck.body.access_granted)}); after a kill: ticket ${String(settledAfter.body.access_granted)}, sign-ins ${signedInAfter.status}/${afterAfter.status}, balances kept ${String(balancesAfter) === String(balancesBefore)}; ${through} through`,
      );
      expect(full.availableKb).toBe(0);
      // The disk really refused: the chain's journal lives on it (and, on SQLite, the store).
      expect(transfersRefused).toBeGreaterThan(0);
      if (testEngine() === 'sqlite') expect(refused.length).toBeGreaterThan(0);
      expect(wrong).toEqual([]);
      expect(misreported).toBe(0);
      expect(readsServed).toBe(reads);
      expect(alive).toBe(true);
      if (testEngine() === 'sqlite') expect(typedWhileFull.status).toBe(503);
      expect(codeSignIns).toBe(1);
      expect(paidAfter.ok).toBe(true);
      expect(lateCheck.body.access_granted).toBe(true);
      // The late player holds exactly what was reported landed: the refused ones moved nothing.
      expect(lateLamports).toBe(PRICE + transfers.reduce((sum, t) => sum + t.lamports, 0));
      expect(settledAfter.body.access_granted).toBe(true);
      expect(signedInAfter.status).toBe(200);
      expect(afterAfter.status).toBe(200);
      expect(balancesAfter).toEqual(balancesBefore);
      expect(through).toBe(0);
    } finally {
      proc.dispose();
      disk.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
