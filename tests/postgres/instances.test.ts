import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../server/app';
import type { ServerFrame } from '../../contract/realtime';
import { SPEC_CALENDAR } from '../../contract/calendar';
import { postApi, registerUser, startTestServer, type RegisteredUser } from '../support/api';
import { rpc } from '../support/serverProcess';
import { databaseUrlFor, dropDatabaseFor } from '../support/testStore';
import { until } from '../support/until';

/**
 * Two instances of the server on one Postgres (each its own data folder, one chain): what one
 * instance learns reaches the pages held by the other (LISTEN/NOTIFY), and Exit on one ends the
 * session's sockets on both.
 */
const DAY = 86_400_000;
let shared = '';
let one: RunningServer;
let two: RunningServer;
const dirs: string[] = [];
const sockets: WebSocket[] = [];

beforeAll(async () => {
  shared = mkdtempSync(join(tmpdir(), 'smw-instances-'));
  const databaseUrl = (await databaseUrlFor(shared))!;
  const calendar = {
    ...SPEC_CALENDAR,
    earlyBirdEnd: Date.now() + 30 * DAY,
    launchAt: Date.now() + 60 * DAY,
  };
  const dir = () => {
    const made = mkdtempSync(join(tmpdir(), 'smw-instance-'));
    dirs.push(made);
    return made;
  };
  one = await startTestServer({ dataDir: dir(), databaseUrl, calendar });
  two = await startTestServer({ dataDir: dir(), databaseUrl, calendar, rpcUrl: `${one.url}/rpc` });
});
afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  await two?.close();
  await one?.close();
  for (const dir of [...dirs, shared]) rmSync(dir, { recursive: true, force: true });
  await dropDatabaseFor(shared);
});

/** A signed-in socket in `room` on `server` (notifications by default), recording what it hears. */
async function listen(server: RunningServer, user: RegisteredUser, room = 'notifications') {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`);
  sockets.push(ws);
  const frames: ServerFrame[] = [];
  let closedWith: number | undefined;
  ws.on('close', (code) => (closedWith = code));
  const joined = new Promise<void>((done) => {
    ws.on('message', (raw) => {
      const frame = JSON.parse(String(raw)) as ServerFrame;
      frames.push(frame);
      if (frame.type === 'welcome') ws.send(JSON.stringify({ type: 'join', room, timestamp: 1 }));
      if (frame.type === 'joined') done();
    });
  });
  await new Promise<void>((done, fail) => {
    ws.once('open', () => done());
    ws.once('error', fail);
  });
  ws.send(JSON.stringify({ type: 'auth', jwt: user.jwt, timestamp: 1 }));
  await joined;
  return {
    events: () =>
      frames
        .filter((f) => f.type === 'room_message')
        .map((f) => String((f.data as { event?: string } | undefined)?.event)),
    closedWith: () => closedWith,
    /** The chat messages heard in the room. */
    chat: () =>
      frames.flatMap((f) => (f.type === 'room_message' && f.room === room ? [f.message] : [])),
    /** The member count of the room's last presence update. */
    members: () => {
      const updates = frames.flatMap((f) =>
        f.type === 'room_update' && f.room === room ? [f.data as { members?: number }] : [],
      );
      return updates.at(-1)?.members;
    },
    say: (message: string) =>
      ws.send(JSON.stringify({ type: 'message', room, message, timestamp: Date.now() })),
    leave: () => ws.close(1000),
  };
}

describe('two instances on one Postgres', () => {
  it('an inviter on instance one hears of a friend who signs up and pays on instance two', async () => {
    const inviter = await registerUser(one.url, 'boss@instances.test');
    const page = await listen(one, inviter);
    const friend = await registerUser(
      two.url,
      'friend@instances.test',
      inviter.userData.user_invite_code,
    );
    expect(await until(() => page.events().includes('invite.registered'))).toBe(true);

    const price = await postApi(two.url, 'sess/init', {});
    const lamports = Number(
      (price.body.data as { public_data: { ticket_price_lamports: string } }).public_data
        .ticket_price_lamports,
    );
    await rpc(one.url, 'requestAirdrop', [friend.userData.user_payment_wallet, lamports]);
    const paid = await postApi(
      two.url,
      'user/wallet/balance',
      { data: { wallet_id: friend.userData.user_payment_wallet_data.wallet_id } },
      friend.jwt,
    );
    expect(paid.body.access_granted).toBe(true);
    expect(await until(() => page.events().includes('invite.confirmed'))).toBe(true);
    // What instance one answers the inviter's page now: the friend's ticket counted.
    const data = await postApi(one.url, 'user/data', {}, inviter.jwt);
    expect((data.body.user_data as { user_ref_confirmed: number }).user_ref_confirmed).toBe(1);
  });

  it('Exit on instance two closes the same sign-in’s socket held by instance one', async () => {
    const player = await registerUser(one.url, 'exit@instances.test');
    const tab = await listen(one, player);
    const exit = await postApi(two.url, 'auth/logout', { refresh_token: player.refreshToken });
    expect(exit.status).toBe(200);
    expect(await until(() => tab.closedWith() !== undefined)).toBe(true);
    expect(tab.closedWith()).toBe(4401);
  });

  it('a room is one room across instances: chat from either reaches both, and presence counts both', async () => {
    const here = await listen(one, await registerUser(one.url, 'chat-one@instances.test'), 'chat');
    const there = await listen(two, await registerUser(two.url, 'chat-two@instances.test'), 'chat');
    expect(await until(() => here.members() === 2 && there.members() === 2, 5_000)).toBe(true);

    there.say('hello from instance two');
    expect(await until(() => here.chat().includes('hello from instance two'))).toBe(true);
    // The longest chat message (15,000 characters, some of two bytes in UTF-8, in one 16 KiB
    // frame) arrives whole.
    const long = `${'a'.repeat(14_000)}${'ж'.repeat(1_000)}`;
    here.say(long);
    expect(await until(() => there.chat().includes(long))).toBe(true);
    expect(there.chat().filter((m) => m === long)).toHaveLength(1);

    there.leave();
    expect(await until(() => here.members() === 1, 5_000)).toBe(true);
  });
});
