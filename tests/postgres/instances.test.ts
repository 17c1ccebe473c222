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

/** A signed-in socket on `server`'s notifications room, recording the events it hears. */
async function listen(server: RunningServer, user: RegisteredUser) {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`);
  sockets.push(ws);
  const frames: ServerFrame[] = [];
  let closedWith: number | undefined;
  ws.on('close', (code) => (closedWith = code));
  const joined = new Promise<void>((done) => {
    ws.on('message', (raw) => {
      const frame = JSON.parse(String(raw)) as ServerFrame;
      frames.push(frame);
      if (frame.type === 'welcome')
        ws.send(JSON.stringify({ type: 'join', room: 'notifications', timestamp: 1 }));
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
});
