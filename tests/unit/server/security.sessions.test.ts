import { describe, expect, it } from 'vitest';
import { CLOSE_UNAUTHORIZED } from '../../../contract/realtime';
import { REFRESH_GRACE_MS } from '../../../server/tokens';
import {
  CODE_MESSAGES,
  EMAIL_STRIKE_WINDOW_MS,
  MAX_CODE_TRIES,
  MAX_EMAIL_STRIKES,
  RESEND_COOLDOWN_MS,
} from '../../../server/codes';
import { postApi, postApiFrom, readOutboxCode, registerUser } from '../../support/api';
import { serversClosedAfterEach } from '../../support/servers';
import { peer } from '../../support/sockets';
import { until } from '../../support/until';

/**
 * Sessions and sign-in probed as an attacker would, over real HTTP and websockets: one line per
 * probe, `security: what — tried / got through`, each at 0 got through.
 */
const figure = (what: string, tried: number, through: number) =>
  console.log(`security: ${what} — ${tried} tried / ${through} got through`);

const start = serversClosedAfterEach();

describe('a refresh token replayed within the grace', () => {
  it('answers the same successor every time, never a new token; after the grace it ends the family', async () => {
    const clock = { ms: Date.parse('2025-11-10T10:00:00Z') };
    const server = await start({ now: () => clock.ms, plugins: [] });
    const user = await registerUser(server.url, 'replay@site.test');
    const refresh = (token: string) =>
      postApi(server.url, 'auth/refresh', { refresh_token: token });
    const first = await refresh(user.refreshToken);
    expect(first.status).toBe(200);
    const successor = String(first.body.refresh_token);
    // A thief replays the stolen token, in bursts and one by one, until the grace ends.
    const tried = 30;
    const answers = await Promise.all(
      Array.from({ length: tried / 2 }, () => refresh(user.refreshToken)),
    );
    for (let i = 0; i < tried / 2; i += 1) {
      clock.ms += Math.floor(REFRESH_GRACE_MS / tried);
      answers.push(await refresh(user.refreshToken));
    }
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const others = new Set(
      answers.map((a) => String(a.body.refresh_token)).filter((t) => t !== successor),
    );
    figure('new token families from one refresh token within the grace', tried, others.size);
    expect(others.size).toBe(0);

    // The successor still works; the replay after the grace is theft and ends the family.
    const next = await refresh(successor);
    expect(next.status).toBe(200);
    clock.ms += REFRESH_GRACE_MS + 1;
    expect((await refresh(user.refreshToken)).status).toBe(401);
    expect((await refresh(String(next.body.refresh_token))).status).toBe(401);
  });
});

describe('Exit', () => {
  it('ends the session everywhere: its jwt, new sockets and the sockets already open', async () => {
    const server = await start();
    const user = await registerUser(server.url, 'exit@site.test');
    const other = await registerUser(server.url, 'exit-other@site.test');
    const open = await Promise.all([
      peer(server, { jwt: user.jwt }),
      peer(server, { jwt: user.jwt }),
    ]);
    const bystander = await peer(server, { jwt: other.jwt });
    for (const p of [...open, bystander])
      p.ws.send(JSON.stringify({ type: 'join', room: 'notifications', timestamp: 1 }));
    await until(() => [...open, bystander].every((p) => p.frames.some((f) => f.type === 'joined')));
    expect((await postApi(server.url, 'user/data', {}, user.jwt)).status).toBe(200);

    expect(
      (await postApi(server.url, 'auth/logout', { refresh_token: user.refreshToken })).status,
    ).toBe(200);
    let tried = 0;
    let through = 0;
    // The jwt is refused at once by every protected call.
    for (const path of ['user/data', 'user/data', 'user/wallet/balance']) {
      tried += 1;
      const body = path === 'user/data' ? {} : { data: { wallet_id: 'x' } };
      if ((await postApi(server.url, path, body, user.jwt)).status !== 401) through += 1;
    }
    // A new socket with the jwt gets no welcome.
    for (let i = 0; i < 3; i += 1) {
      tried += 1;
      const late = await peer(server, { jwt: user.jwt });
      if (late.frames.some((f) => f.type === 'welcome')) through += 1;
      late.ws.close();
    }
    // The sockets opened before are closed, and a push to the user reaches none of them.
    const codes = await Promise.all(
      open.map((p) =>
        Promise.race([p.closed, new Promise<number>((r) => setTimeout(() => r(0), 3_000))]),
      ),
    );
    const userId = (await server.ctx.users.findByEmail('exit@site.test'))?.id ?? 0;
    server.events.emit('balance.changed', { userId, lamports: '1' });
    for (const [i, p] of open.entries()) {
      tried += 2;
      if (codes[i] !== CLOSE_UNAUTHORIZED) through += 1;
      if (p.frames.some((f) => f.type === 'room_message')) through += 1;
    }
    figure('calls and socket frames after Exit', tried, through);
    expect(through).toBe(0);
    // Another user's socket is untouched.
    bystander.ws.send(JSON.stringify({ type: 'ping', timestamp: 2 }));
    await until(() => bystander.frames.some((f) => f.type === 'pong'));
    expect(bystander.frames.some((f) => f.type === 'pong')).toBe(true);
    bystander.ws.close();
  });

  it('a refresh token replayed after the grace ends that session the same way', async () => {
    const clock = { ms: Date.parse('2025-11-10T10:00:00Z') };
    const server = await start({ now: () => clock.ms });
    const user = await registerUser(server.url, 'stolen@site.test');
    const rotated = await postApi(server.url, 'auth/refresh', { refresh_token: user.refreshToken });
    const jwt = String(rotated.body.jwt);
    const socket = await peer(server, { jwt });
    expect(socket.frames.some((f) => f.type === 'welcome')).toBe(true);
    clock.ms += REFRESH_GRACE_MS + 1;
    await postApi(server.url, 'auth/refresh', { refresh_token: user.refreshToken });
    expect((await postApi(server.url, 'user/data', {}, jwt)).status).toBe(401);
    expect(await socket.closed).toBe(CLOSE_UNAUTHORIZED);
  });
});

describe('sign-in codes: guessing throttled per network, never a lock on the address', () => {
  const wrong = (code: string, i: number) =>
    String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

  it(`at most ${MAX_EMAIL_STRIKES} wrong codes per e-mail and network per hour, whatever the resends`, async () => {
    const clock = { ms: Date.parse('2025-11-10T10:00:00Z') };
    const server = await start({ now: () => clock.ms });
    const email = 'guessed@site.test';
    const networks = ['127.0.0.1', '127.0.1.2', '127.0.2.3']; // three /24s
    let tried = 0;
    let through = 0;
    for (const network of networks) {
      let evaluated = 0;
      // Six codes in the hour, five wrong guesses at each: resends during the throttle too.
      for (let round = 0; round < 6; round += 1) {
        await postApiFrom(network, server.url, 'auth/email/init', { data: { email } });
        const code = await readOutboxCode(server.url, email);
        for (let i = 0; i < MAX_CODE_TRIES; i += 1) {
          tried += 1;
          const answer = await postApiFrom(network, server.url, 'auth/email/verify', {
            data: { email, code: wrong(code, i) },
          });
          if (answer.body.message === CODE_MESSAGES.invalid) evaluated += 1;
        }
        clock.ms += RESEND_COOLDOWN_MS + 1_000;
      }
      through += Math.max(0, evaluated - MAX_EMAIL_STRIKES);
    }
    figure(
      `wrong codes per e-mail per hour beyond the stated limit (${MAX_EMAIL_STRIKES} per network)`,
      tried,
      through,
    );
    expect(through).toBe(0);
    // A throttled network is refused even the right code until its hour has passed.
    await postApi(server.url, 'auth/email/init', { data: { email } });
    const right = await readOutboxCode(server.url, email);
    const refused = await postApi(server.url, 'auth/email/verify', {
      data: { email, code: right },
    });
    expect(String(refused.body.message)).toMatch(/too many attempts for this e-mail/i);
    clock.ms += EMAIL_STRIKE_WINDOW_MS;
    expect(
      (await postApi(server.url, 'auth/email/verify', { data: { email, code: right } })).status,
    ).toBe(400); // expired meanwhile: a fresh code signs in
    clock.ms += RESEND_COOLDOWN_MS;
    await postApi(server.url, 'auth/email/init', { data: { email } });
    const fresh = await readOutboxCode(server.url, email);
    expect(
      (await postApi(server.url, 'auth/email/verify', { data: { email, code: fresh } })).status,
    ).toBe(200);
  });

  it('strangers guessing from other networks never keep the player out', async () => {
    const clock = { ms: Date.parse('2025-11-10T10:00:00Z') };
    const server = await start({ now: () => clock.ms });
    const email = 'player@site.test';
    // Other networks than the player's 127.0.0.0/24 (a network is a /24).
    const strangers = ['127.0.1.2', '127.0.2.3', '127.0.3.4', '127.0.4.5', '127.0.5.6'];
    const signIn = (code: string) =>
      postApi(server.url, 'auth/email/verify', { data: { email, code } });
    let tried = 0;
    let through = 0;
    for (const stranger of strangers) {
      // The player holds a fresh code; a stranger sends 30 wrong codes for the address.
      clock.ms += RESEND_COOLDOWN_MS + 1_000;
      await postApi(server.url, 'auth/email/init', { data: { email } });
      const inHand = await readOutboxCode(server.url, email);
      for (let i = 0; i < 30; i += 1)
        await postApiFrom(stranger, server.url, 'auth/email/verify', {
          data: { email, code: wrong(inHand, i) },
        });
      tried += 1;
      if ((await signIn(inHand)).status !== 200) through += 1;
      // The stranger asks for codes too and guesses at each; the player then asks for one.
      for (let round = 0; round < 4; round += 1) {
        clock.ms += RESEND_COOLDOWN_MS + 1_000;
        await postApiFrom(stranger, server.url, 'auth/email/init', { data: { email } });
        const sent = await readOutboxCode(server.url, email);
        for (let i = 0; i < MAX_CODE_TRIES; i += 1)
          await postApiFrom(stranger, server.url, 'auth/email/verify', {
            data: { email, code: wrong(sent, i) },
          });
      }
      clock.ms += RESEND_COOLDOWN_MS + 1_000;
      await postApi(server.url, 'auth/email/init', { data: { email } });
      tried += 1;
      if ((await signIn(await readOutboxCode(server.url, email))).status !== 200) through += 1;
    }
    figure('strangers locking an address out', tried, through);
    expect(through).toBe(0);
  });
});

describe('one mailbox, one account', () => {
  it('an IDN in Unicode or punycode, a trailing dot, case, and +tags where they reach the same mailbox', async () => {
    const clock = { ms: Date.parse('2025-11-10T10:00:00Z') };
    const server = await start({ now: () => clock.ms, plugins: [] });
    const mailboxes = [
      ['player@gmail.com', 'player+smw@gmail.com', 'Pla.yer@GoogleMail.com', 'player@gmail.com.'],
      [
        'spieler@bücher.de',
        'spieler@xn--bcher-kva.de',
        'Spieler@BÜCHER.DE.',
        'spieler@bu\u0308cher.de',
      ],
      ['fan@outlook.com', 'fan+mafia@outlook.com', 'FAN@OUTLOOK.COM.'],
    ];
    let tried = 0;
    let through = 0;
    for (const spellings of mailboxes) {
      // Each account has its own invite code: one code per mailbox means one account.
      const accounts = new Set<string>();
      for (const email of spellings) {
        clock.ms += RESEND_COOLDOWN_MS + 1_000;
        accounts.add((await registerUser(server.url, email)).userData.user_invite_code);
      }
      tried += spellings.length - 1;
      through += accounts.size - 1;
    }
    figure('second accounts for one mailbox', tried, through);
    expect(through).toBe(0);
    // Elsewhere a +tag is another address (a server may deliver it to someone else).
    const crew = await registerUser(server.url, 'crew@studio.test');
    const ops = await registerUser(server.url, 'crew+ops@studio.test');
    expect(ops.userData.user_invite_code).not.toBe(crew.userData.user_invite_code);
  });
});
