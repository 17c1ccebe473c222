import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../../server/app';
import { createRpcClient, type SolanaRpc } from '../../../server/chain/rpcClient';
import type { ServerFrame } from '../../../contract/realtime';
import { SPEC_CALENDAR } from '../../../contract/calendar';
import {
  postApi,
  registerUser,
  startTestServer,
  walletBalance,
  type RegisteredUser,
} from '../../support/api';
import { until } from '../../support/until';

/**
 * Every change the server makes to a user's data reaches that user, and only them, as a typed
 * event on the `notifications` room; the ticket's receipt facts, the invitation codes (§9) and
 * logout, over real HTTP and a real socket.
 */

/** Early Bird extras (§9): 999 invitation codes. */
const EARLY_BIRD_CODES = 999;

let server: RunningServer;
let rpc: SolanaRpc;
let price: bigint;
const sockets: WebSocket[] = [];

const DAY = 86_400_000;

beforeEach(async () => {
  // A launch calendar whose Early Bird runs now: its tickets carry the 999 codes (§9).
  server = await startTestServer({
    calendar: {
      ...SPEC_CALENDAR,
      earlyBirdEnd: Date.now() + 30 * DAY,
      launchAt: Date.now() + 60 * DAY,
    },
  });
  rpc = createRpcClient(`${server.url}/rpc`);
  const init = await postApi(server.url, 'sess/init', {});
  price = BigInt(
    (init.body.data as { public_data: { ticket_price_lamports: string } }).public_data
      .ticket_price_lamports,
  );
});
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await server.close();
});

type Listener = { frames: ServerFrame[]; events: () => string[] };

/** A signed-in socket in the notifications room, recording every room_message it receives. */
async function listen(user: RegisteredUser): Promise<Listener> {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`);
  sockets.push(ws);
  const frames: ServerFrame[] = [];
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
    frames,
    events: () =>
      frames
        .filter((f) => f.type === 'room_message')
        .map((f) => String((f.data as { event?: string } | undefined)?.event)),
  };
}

const balanceOf = (user: RegisteredUser) => walletBalance(server.url, user);

describe('user events on the notifications room', () => {
  it('tell the inviter about registration, confirmation and access, and no one else', async () => {
    const inviter = await registerUser(server.url, 'boss@example.com');
    const bystander = await registerUser(server.url, 'other@example.com');
    const a = await listen(inviter);
    const other = await listen(bystander);
    const code = inviter.userData.user_invite_code;

    const b = await registerUser(server.url, 'b@example.com', code);
    await until(() => a.events().length === 1);
    expect(a.events()).toEqual(['invite.registered']);

    const c = await registerUser(server.url, 'c@example.com', code);
    const bSocket = await listen(b);
    await rpc.requestAirdrop(b.userData.user_payment_wallet, price);
    await balanceOf(b);
    await until(() => a.events().length === 3 && bSocket.events().length === 3);
    expect(a.events()).toEqual(['invite.registered', 'invite.registered', 'invite.confirmed']);
    expect(bSocket.events()).toEqual(['balance.changed', 'codes.issued', 'access.granted']);

    await rpc.requestAirdrop(c.userData.user_payment_wallet, price);
    await balanceOf(c);
    await until(() => a.events().length === 5);
    expect(a.events().slice(3)).toEqual(['invite.confirmed', 'access.granted']);
    // The bystander's own change is the barrier: anything sent to it before would arrive first.
    await rpc.requestAirdrop(bystander.userData.user_payment_wallet, 1_000_000n);
    await balanceOf(bystander);
    await until(() => other.events().length >= 1);
    expect(other.events()).toEqual(['balance.changed']);
  });

  it('send a change without news as user.changed without text (no banner)', async () => {
    const buyer = await registerUser(server.url, 'quiet@example.com');
    const socket = await listen(buyer);
    await rpc.requestAirdrop(buyer.userData.user_payment_wallet, 1_000_000n);
    await balanceOf(buyer);
    await until(() => socket.events().length === 1);
    const frame = socket.frames.find((f) => f.type === 'room_message');
    expect(frame).toMatchObject({
      room: 'notifications',
      message: 'user.changed',
      data: { event: 'balance.changed' },
    });
    expect((frame as { data: Record<string, unknown> }).data.text).toBeUndefined();
    // Unchanged balance: no event. The next real change is the barrier: an event for the
    // unchanged read would arrive before it.
    await balanceOf(buyer);
    await rpc.requestAirdrop(buyer.userData.user_payment_wallet, 1_000n);
    await balanceOf(buyer);
    await until(() => socket.events().length >= 2);
    expect(socket.events()).toEqual(['balance.changed', 'balance.changed']);
  });
});

describe('receipt facts and invitation codes', () => {
  it('an own payment answers access_via ticket with the lamports the chain showed, and 999 codes', async () => {
    const buyer = await registerUser(server.url, 'buyer@example.com');
    const codesBefore = await postApi(server.url, 'user/invite/codes', {}, buyer.jwt);
    expect(codesBefore.body.codes).toEqual([]);
    const sent = price + 1_230_000n;
    await rpc.requestAirdrop(buyer.userData.user_payment_wallet, sent);
    const answer = await balanceOf(buyer);
    expect(answer.body).toMatchObject({
      access_granted: true,
      access_via: 'ticket',
      paid_lamports: sent.toString(),
      ticket_tier: 'early_bird',
    });
    const codes = (await postApi(server.url, 'user/invite/codes', {}, buyer.jwt)).body.codes as {
      code_text: string;
      code_status: number;
    }[];
    expect(codes).toHaveLength(EARLY_BIRD_CODES);
    expect(new Set(codes.map((c) => c.code_text)).size).toBe(EARLY_BIRD_CODES);
    expect(codes.every((c) => c.code_status === 0)).toBe(true);
    // A second check issues no more codes.
    await balanceOf(buyer);
    const again = (await postApi(server.url, 'user/invite/codes', {}, buyer.jwt)).body.codes;
    expect(again).toHaveLength(EARLY_BIRD_CODES);
  });

  it('a ticket bought after the Early Bird names its tier and carries no invitation codes', async () => {
    // The spec's calendar on a server whose clock reads after both dates.
    const late = await startTestServer({ now: () => Date.parse('2026-01-05T12:00:00Z') });
    try {
      const lateRpc = createRpcClient(`${late.url}/rpc`);
      const buyer = await registerUser(late.url, 'late@example.com');
      await lateRpc.requestAirdrop(buyer.userData.user_payment_wallet, 550_000_000n);
      const answer = await postApi(
        late.url,
        'user/wallet/balance',
        { data: { wallet_id: buyer.userData.user_payment_wallet_data.wallet_id } },
        buyer.jwt,
      );
      expect(answer.body).toMatchObject({
        access_granted: true,
        access_via: 'ticket',
        ticket_tier: 'after_launch',
      });
      expect((await postApi(late.url, 'user/invite/codes', {}, buyer.jwt)).body.codes).toEqual([]);
      const user = await postApi(late.url, 'user/data', {}, buyer.jwt);
      expect(user.body.user_data).toMatchObject({ user_ticket_tier: 'after_launch' });
    } finally {
      await late.close();
    }
  });

  it('access through friends answers access_via invites with no amount and no codes', async () => {
    const inviter = await registerUser(server.url, 'free@example.com');
    for (const email of ['f1@example.com', 'f2@example.com']) {
      const friend = await registerUser(server.url, email, inviter.userData.user_invite_code);
      await rpc.requestAirdrop(friend.userData.user_payment_wallet, price);
      await balanceOf(friend);
    }
    const answer = await balanceOf(inviter);
    expect(answer.body.access_granted).toBe(true);
    expect(answer.body.access_via).toBe('invites');
    expect(answer.body.paid_lamports).toBeUndefined();
    expect((await postApi(server.url, 'user/invite/codes', {}, inviter.jwt)).body.codes).toEqual(
      [],
    );
  });
});

describe('auth/logout', () => {
  it('revokes the refresh token family: a token copied before Exit no longer refreshes', async () => {
    const user = await registerUser(server.url, 'exit@example.com');
    const rotated = await postApi(server.url, 'auth/refresh', {
      refresh_token: user.refreshToken,
    });
    expect(rotated.status).toBe(200);
    const current = String(rotated.body.refresh_token);
    const out = await postApi(server.url, 'auth/logout', { refresh_token: current });
    expect(out).toMatchObject({ status: 200, body: { result: true } });
    const after = await postApi(server.url, 'auth/refresh', { refresh_token: current });
    expect(after.status).toBe(401);
  });

  it('answers ok for an unknown token', async () => {
    const out = await postApi(server.url, 'auth/logout', { refresh_token: 'nobody-knows-this' });
    expect(out).toMatchObject({ status: 200, body: { result: true } });
  });
});
