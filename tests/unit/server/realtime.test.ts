import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../../server/app';
import { REALTIME_NOTICES } from '../../../server/realtime/plugin';
import { attachRealtime, type RealtimeStats } from '../../../server/realtime/rooms';
import { MAX_FRAME_BYTES, type ServerFrame } from '../../../contract/realtime';
import { CLOSE_UNAUTHORIZED } from '../../../contract/realtime';
import { registerUser, startTestServer } from '../../support/api';

/** The websocket rooms of the real local server, over a real socket on 127.0.0.1. */

type Peer = {
  ws: WebSocket;
  frames: ServerFrame[];
  next(predicate: (f: ServerFrame) => boolean, timeoutMs?: number): Promise<ServerFrame>;
  send(frame: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
};

function wsUrl(server: RunningServer): string {
  return `${server.url.replace(/^http/, 'ws')}/ws`;
}

async function open(server: RunningServer): Promise<Peer> {
  const ws = new WebSocket(wsUrl(server));
  const frames: ServerFrame[] = [];
  const waiters: { predicate: (f: ServerFrame) => boolean; done: (f: ServerFrame) => void }[] = [];
  let seen = 0;
  ws.on('message', (raw) => {
    const frame = JSON.parse(String(raw)) as ServerFrame;
    frames.push(frame);
    for (const w of [...waiters])
      if (w.predicate(frame)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.done(frame);
      }
  });
  const closed = new Promise<{ code: number; reason: string }>((done) =>
    ws.on('close', (code, reason) => done({ code, reason: String(reason) })),
  );
  await new Promise<void>((done, fail) => {
    ws.once('open', () => done());
    ws.once('error', fail);
  });
  return {
    ws,
    frames,
    closed,
    send: (frame) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    next(predicate, timeoutMs = 3_000) {
      const found = frames.slice(seen).find(predicate);
      if (found) {
        seen = frames.indexOf(found) + 1;
        return Promise.resolve(found);
      }
      return new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error('no matching frame')), timeoutMs);
        waiters.push({
          predicate,
          done: (f) => {
            clearTimeout(timer);
            seen = frames.indexOf(f) + 1;
            done(f);
          },
        });
      });
    },
  };
}

async function stats(server: RunningServer): Promise<RealtimeStats> {
  const response = await fetch(`${server.url}/api/dev/realtime`);
  return (await response.json()) as RealtimeStats;
}

let server: RunningServer;
const peers: Peer[] = [];
const connect = async () => {
  const peer = await open(server);
  peers.push(peer);
  return peer;
};
const signedIn = async (email: string, inviteCode?: string) => {
  const user = await registerUser(server.url, email, inviteCode);
  const peer = await connect();
  peer.send({ type: 'auth', jwt: user.jwt, timestamp: Date.now() });
  await peer.next((f) => f.type === 'welcome');
  return { user, peer };
};

beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  for (const p of peers.splice(0)) p.ws.terminate();
  await server.close();
});

describe('realtime server', () => {
  it('welcomes a socket that authenticates with its jwt in the first frame', async () => {
    const { peer } = await signedIn('a@example.com');
    expect(peer.frames[0]).toMatchObject({ type: 'welcome' });
    expect((await stats(server)).connections).toBe(1);
  });

  it('accepts a known visitor session as a guest', async () => {
    const created = await fetch(`${server.url}/api/sess/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: { language: 'en', user_agent: 'tests' } }),
    });
    const { sessionToken } = (await created.json()) as { sessionToken: string };
    const peer = await connect();
    peer.send({ type: 'auth', session: sessionToken, timestamp: 1 });
    await peer.next((f) => f.type === 'welcome');
    expect((await stats(server)).socketsByUser).toEqual({ guest: 1 });
  });

  it('refuses bad credentials and frames before authentication with close code 4401', async () => {
    const bad = await connect();
    bad.send({ type: 'auth', jwt: 'a.b.c', timestamp: 1 });
    expect((await bad.closed).code).toBe(CLOSE_UNAUTHORIZED);
    const early = await connect();
    early.send({ type: 'join', room: 'chat', timestamp: 1 });
    expect((await early.closed).code).toBe(CLOSE_UNAUTHORIZED);
    expect((await stats(server)).joins).toEqual([]);
  });

  it('answers ping with pong, and joins, leaves and counts rooms', async () => {
    const { peer } = await signedIn('b@example.com');
    peer.send({ type: 'ping', timestamp: 1 });
    await peer.next((f) => f.type === 'pong');
    peer.send({ type: 'join', room: 'chat', timestamp: 1 });
    expect(await peer.next((f) => f.type === 'joined')).toMatchObject({ room: 'chat' });
    expect(await peer.next((f) => f.type === 'room_update')).toMatchObject({
      room: 'chat',
      data: { members: 1 },
    });
    const s = await stats(server);
    expect(s.rooms).toEqual({ chat: 1 });
    expect(s.joins).toEqual([
      {
        connection: expect.any(Number),
        userId: expect.any(Number),
        room: 'chat',
        at: expect.any(Number),
      },
    ]);
    peer.send({ type: 'leave', room: 'chat', timestamp: 2 });
    expect(await peer.next((f) => f.type === 'left')).toMatchObject({ room: 'chat' });
    expect((await stats(server)).rooms).toEqual({});
  });

  it('echoes a message to everyone in the room as room_message', async () => {
    const one = await signedIn('c1@example.com');
    const two = await signedIn('c2@example.com');
    for (const p of [one.peer, two.peer]) {
      p.send({ type: 'join', room: 'chat', timestamp: 1 });
      await p.next((f) => f.type === 'joined');
    }
    one.peer.send({
      type: 'message',
      room: 'chat',
      message: 'hello',
      data: { x: 1 },
      timestamp: 5,
    });
    for (const p of [one.peer, two.peer]) {
      const echo = await p.next((f) => f.type === 'room_message');
      expect(echo).toMatchObject({
        room: 'chat',
        message: 'hello',
        // An opaque handle, never the sequential user id.
        from: expect.stringMatching(/^player:[0-9a-f]{12}$/),
      });
      // A player's `data` is never relayed (it could carry a router_link or markup).
      expect(echo).not.toHaveProperty('data');
    }
  });

  it('answers an error for a message outside the room or into the read-only notifications room', async () => {
    const { peer } = await signedIn('d@example.com');
    peer.send({ type: 'message', room: 'chat', message: 'x', timestamp: 1 });
    expect(await peer.next((f) => f.type === 'error')).toMatchObject({
      message: 'Join the room first',
    });
    peer.send({ type: 'join', room: 'notifications', timestamp: 1 });
    await peer.next((f) => f.type === 'joined');
    peer.send({ type: 'message', room: 'notifications', message: 'x', timestamp: 1 });
    expect(await peer.next((f) => f.type === 'error')).toMatchObject({
      message: 'This room is read-only',
    });
  });

  it('ignores malformed frames and unknown types with an error answer, and stays open', async () => {
    const { peer } = await signedIn('e@example.com');
    peer.send('{not json');
    expect(await peer.next((f) => f.type === 'error')).toMatchObject({
      message: 'Malformed message',
    });
    peer.send({ type: 'dance', timestamp: 1 });
    await peer.next((f) => f.type === 'error');
    peer.send({ type: 'ping', timestamp: 1 });
    await peer.next((f) => f.type === 'pong');
  });

  it('closes a socket that sends a frame over the size cap (1009)', async () => {
    const { peer } = await signedIn('f@example.com');
    peer.send({ type: 'message', room: 'chat', message: 'x'.repeat(MAX_FRAME_BYTES + 1) });
    expect((await peer.closed).code).toBe(1009);
  });

  it('pushes a notifications message to the user whose access is granted, and only to them', async () => {
    const a = await signedIn('g1@example.com');
    const b = await signedIn('g2@example.com');
    for (const p of [a.peer, b.peer]) {
      p.send({ type: 'join', room: 'notifications', timestamp: 1 });
      await p.next((f) => f.type === 'joined');
    }
    const s = await stats(server);
    const userId = s.joins.find((j) => j.connection === 1)?.userId;
    expect(typeof userId).toBe('number');
    server.events.emit('access.granted', { userId: userId as number, via: 'ticket' });
    expect(await a.peer.next((f) => f.type === 'room_message')).toMatchObject({
      room: 'notifications',
      data: { type: 'success', text: REALTIME_NOTICES.accessGranted },
    });
    // A ping answered after the push is a barrier: a frame meant for this socket would be before it.
    b.peer.send({ type: 'ping', timestamp: 2 });
    await b.peer.next((f) => f.type === 'pong');
    expect(b.peer.frames.filter((f) => f.type === 'room_message')).toEqual([]);
  });

  it('says access came through friends when it did: no ticket of their own was issued', async () => {
    const a = await signedIn('g3@example.com');
    a.peer.send({ type: 'join', room: 'notifications', timestamp: 1 });
    await a.peer.next((f) => f.type === 'joined');
    const userId = (await stats(server)).joins.find((j) => j.connection === 1)?.userId;
    expect(typeof userId).toBe('number');
    server.events.emit('access.granted', { userId: userId as number, via: 'invites' });
    expect(await a.peer.next((f) => f.type === 'room_message')).toMatchObject({
      data: {
        type: 'success',
        text: 'Access granted! 2 friends bought tickets with your invite code.',
      },
    });
  });

  it('pushes to the inviter when a friend registers with their invite code', async () => {
    const inviter = await signedIn('h1@example.com');
    inviter.peer.send({ type: 'join', room: 'notifications', timestamp: 1 });
    await inviter.peer.next((f) => f.type === 'joined');
    await registerUser(server.url, 'h2@example.com', inviter.user.userData.user_invite_code);
    expect(await inviter.peer.next((f) => f.type === 'room_message')).toMatchObject({
      room: 'notifications',
      data: { type: 'info', text: REALTIME_NOTICES.inviteRegistered },
    });
  });

  it('pushes to the inviter when an invitee buys a ticket, and not to other sockets', async () => {
    const inviter = await signedIn('j1@example.com');
    const other = await signedIn('j2@example.com');
    for (const p of [inviter.peer, other.peer]) {
      p.send({ type: 'join', room: 'notifications', timestamp: 1 });
      await p.next((f) => f.type === 'joined');
    }
    const inviterId = (await stats(server)).joins.find((j) => j.connection === 1)?.userId;
    server.events.emit('invite.confirmed', { inviterId: inviterId as number, userId: 999 });
    expect(await inviter.peer.next((f) => f.type === 'room_message')).toMatchObject({
      room: 'notifications',
      data: { type: 'success', text: REALTIME_NOTICES.inviteConfirmed },
    });
    // A ping answered after the push is a barrier: a frame meant for this socket would be before it.
    other.peer.send({ type: 'ping', timestamp: 2 });
    await other.peer.next((f) => f.type === 'pong');
    expect(other.peer.frames.filter((f) => f.type === 'room_message')).toEqual([]);
  });

  it('closes a socket that does not authenticate in time with 4401', async () => {
    const http = createServer();
    const rooms = attachRealtime(http, {
      authenticate: () => ({ userId: 1, sessionId: 'family-1', owner: 'user:1' }),
      now: () => Date.now(),
      log: { info: () => {}, warn: () => {} },
      authTimeoutMs: 150,
    });
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', () => done()));
    const { port } = http.address() as AddressInfo;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    const closed = await new Promise<number>((done) => ws.on('close', (code) => done(code)));
    expect(closed).toBe(CLOSE_UNAUTHORIZED);
    await rooms.close();
    await new Promise<void>((done) => http.close(() => done()));
  });

  it('closes every socket on server close with 1001 so clients reconnect', async () => {
    const { peer } = await signedIn('i@example.com');
    const closing = server.close();
    expect((await peer.closed).code).toBe(1001);
    await closing;
    server = await startTestServer();
  });
});
