import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, sendTo, type AnyActorRef } from 'xstate';
import {
  CLOSE_RENEWED,
  JWT_RENEW_LEAD_MS,
  createNetworkActor,
  createSignInWatch,
  createSocketActor,
} from '../../src/platform/socket';
import { MAX_FRAME_BYTES } from '../../contract/realtime';
import type { SocketCommand, SocketEvent } from '../../machines/realtime/realtime.types';

/** The browser socket actor against a scripted WebSocket double. */

class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static last: FakeWebSocket | null = null;
  readyState = FakeWebSocket.CONNECTING;
  sent: string[] = [];
  closedWith: number | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.last = this;
  }
  send(text: string) {
    this.sent.push(text);
  }
  close(code: number) {
    this.closedWith = code;
    this.readyState = FakeWebSocket.CLOSED;
  }
  open() {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.();
  }
  serverSends(data: unknown) {
    this.onmessage?.({ data });
  }
  serverCloses(code: number) {
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.({ code, reason: '' });
  }
}

function run(options: Partial<Parameters<typeof createSocketActor>[0]> = {}) {
  const received: { type: string; [k: string]: unknown }[] = [];
  const warnings: string[] = [];
  const socket = createSocketActor({
    url: 'ws://example.test/ws',
    credentials: () => ({ jwt: 'secret-jwt', session: 'secret-session' }),
    WebSocketImpl: FakeWebSocket as unknown as typeof WebSocket,
    now: () => 42,
    warn: (m) => warnings.push(m),
    ...options,
  });
  const parent = createMachine({
    types: {} as { events: { type: 'send'; command: SocketCommand } | SocketEvent },
    invoke: { id: 'socket', src: socket },
    on: {
      send: { actions: sendTo('socket', ({ event }) => event.command) },
      '*': { actions: ({ event }) => received.push(event) },
    },
  });
  const actor = createActor(parent).start();
  const ws = FakeWebSocket.last as FakeWebSocket;
  return { actor: actor as AnyActorRef, ws, received, warnings };
}

afterEach(() => {
  FakeWebSocket.last = null;
});

describe('browser socket actor', () => {
  it('sends the credentials in the first frame, never in the URL', () => {
    const { ws } = run();
    expect(ws.url).toBe('ws://example.test/ws');
    ws.open();
    expect(JSON.parse(ws.sent[0] ?? '')).toEqual({
      type: 'auth',
      jwt: 'secret-jwt',
      session: 'secret-session',
      timestamp: 42,
    });
  });

  it('forwards valid frames and ignores malformed, unknown and oversized ones with a log', () => {
    const { ws, received, warnings } = run();
    ws.open();
    ws.serverSends(JSON.stringify({ type: 'pong', timestamp: 1 }));
    ws.serverSends('{oops');
    ws.serverSends(JSON.stringify({ type: 'surprise' }));
    ws.serverSends(JSON.stringify({ type: 'error', message: 'x'.repeat(MAX_FRAME_BYTES) }));
    expect(received.map((e) => e.type)).toEqual([
      'socket.received',
      'socket.ignored',
      'socket.ignored',
      'socket.ignored',
    ]);
    expect(warnings).toHaveLength(3);
    expect(warnings.join(' ')).not.toContain('secret');
  });

  it('sends commands while open and refuses an oversized one', () => {
    const { actor, ws, warnings } = run();
    ws.open();
    actor.send({
      type: 'send',
      command: { type: 'socket.send', frame: { type: 'ping', timestamp: 1 } },
    });
    actor.send({
      type: 'send',
      command: {
        type: 'socket.send',
        frame: {
          type: 'message',
          room: 'chat',
          message: 'x'.repeat(MAX_FRAME_BYTES),
          timestamp: 1,
        },
      },
    });
    expect(ws.sent.slice(1)).toEqual([JSON.stringify({ type: 'ping', timestamp: 1 })]);
    expect(warnings).toHaveLength(1);
  });

  it('reports a close, and closes normally (1000) when stopped', () => {
    const first = run();
    first.ws.open();
    first.ws.serverCloses(1006);
    expect(first.received).toContainEqual({ type: 'socket.closed', code: 1006, reason: '' });
    const second = run();
    second.ws.open();
    second.actor.stop();
    expect(second.ws.closedWith).toBe(1000);
  });

  it('waits for the handshake before closing a socket stopped while connecting', () => {
    const { actor, ws } = run();
    actor.stop();
    expect(ws.closedWith).toBeNull();
    ws.open();
    expect(ws.closedWith).toBe(1000);
  });

  it('renews a refused jwt once and reports a retryable close', async () => {
    const renewJwt = vi.fn(async () => 'fresh-jwt');
    const { ws, received } = run({ renewJwt });
    ws.open();
    ws.serverCloses(4401);
    await vi.waitFor(() =>
      expect(received).toContainEqual({ type: 'socket.closed', code: CLOSE_RENEWED, reason: '' }),
    );
    expect(renewJwt).toHaveBeenCalledTimes(1);
  });
});

describe('browser socket actor: a jwt renewed on the open socket before it expires', () => {
  /** A jwt of the shape the server signs, expiring `exp` seconds after the epoch. */
  const jwtExpiringAt = (exp: number, id: string) =>
    `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify({ sub: '1', exp })).replace(/=+$/, '')}.${id}`;
  const authFrames = (ws: FakeWebSocket) =>
    ws.sent
      .map((t) => JSON.parse(t) as { type: string; jwt?: string })
      .filter((f) => f.type === 'auth');
  afterEach(() => vi.useRealTimers());

  it('sends a fresh jwt 60 s before exp (not at exp − 60 s − 1 ms), then again before the fresh one expires', async () => {
    vi.useFakeTimers({ now: 1_000_000_000 });
    const start = Date.now();
    const first = jwtExpiringAt(start / 1000 + 900, 'first');
    const second = jwtExpiringAt(start / 1000 + 1800, 'second');
    const renewJwt = vi.fn(async (_system: unknown, used: string) =>
      used === first ? second : jwtExpiringAt(start / 1000 + 2700, 'third'),
    );
    const { ws, received } = run({
      credentials: () => ({ jwt: first, session: 'secret-session' }),
      renewJwt,
      now: () => Date.now(),
    });
    ws.open();
    expect(authFrames(ws).map((f) => f.jwt)).toEqual([first]);
    await vi.advanceTimersByTimeAsync(900_000 - JWT_RENEW_LEAD_MS - 1);
    expect(renewJwt).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(renewJwt).toHaveBeenCalledWith(expect.anything(), first);
    expect(authFrames(ws).map((f) => f.jwt)).toEqual([first, second]);
    // The socket stays open: no close is reported, no reconnect is needed.
    expect(received.filter((e) => e.type === 'socket.closed')).toEqual([]);
    await vi.advanceTimersByTimeAsync(900_000);
    expect(renewJwt).toHaveBeenLastCalledWith(expect.anything(), second);
    expect(authFrames(ws)).toHaveLength(3);
  });

  it('sends nothing when no fresh jwt can be had, and a 4401 after a renewal renews the jwt it used last', async () => {
    vi.useFakeTimers({ now: 1_000_000_000 });
    const start = Date.now();
    const first = jwtExpiringAt(start / 1000 + 120, 'first');
    const second = jwtExpiringAt(start / 1000 + 240, 'second');
    const renewJwt = vi.fn(async (_system: unknown, used: string) =>
      used === first ? second : null,
    );
    const { ws, received } = run({
      credentials: () => ({ jwt: first }),
      renewJwt,
      now: () => Date.now(),
    });
    ws.open();
    // At most half the jwt's life ahead: 60 s before a 120 s jwt's exp.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(authFrames(ws).map((f) => f.jwt)).toEqual([first, second]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(renewJwt).toHaveBeenLastCalledWith(expect.anything(), second);
    expect(authFrames(ws)).toHaveLength(2);
    ws.serverCloses(4401);
    await vi.waitFor(() =>
      expect(received).toContainEqual({ type: 'socket.closed', code: 4401, reason: '' }),
    );
    expect(renewJwt).toHaveBeenLastCalledWith(expect.anything(), second);
  });

  it('stops renewing once stopped', async () => {
    vi.useFakeTimers({ now: 1_000_000_000 });
    const first = jwtExpiringAt(Date.now() / 1000 + 900, 'first');
    const renewJwt = vi.fn(async () => 'fresh');
    const { actor, ws } = run({
      credentials: () => ({ jwt: first }),
      renewJwt,
      now: () => Date.now(),
    });
    ws.open();
    actor.stop();
    await vi.advanceTimersByTimeAsync(900_000);
    expect(renewJwt).not.toHaveBeenCalled();
  });
});

describe('network actor', () => {
  it('reports offline and online events', () => {
    const target = new EventTarget();
    const events: string[] = [];
    const parent = createMachine({
      invoke: { id: 'network', src: createNetworkActor(target as unknown as Window) },
      on: { '*': { actions: ({ event }) => events.push(event.type) } },
    });
    const actor = createActor(parent).start();
    target.dispatchEvent(new Event('offline'));
    target.dispatchEvent(new Event('online'));
    actor.stop();
    target.dispatchEvent(new Event('offline'));
    expect(events).toEqual(['network.wentOffline', 'network.wentOnline']);
  });

  it('reports the tab hidden and shown (and a hidden start) from visibilitychange', () => {
    const page = Object.assign(new EventTarget(), {
      visibilityState: 'hidden' as DocumentVisibilityState,
    });
    const events: string[] = [];
    const parent = createMachine({
      invoke: {
        id: 'network',
        src: createNetworkActor(
          new EventTarget() as unknown as Window,
          page as unknown as Document,
        ),
      },
      on: { '*': { actions: ({ event }) => events.push(event.type) } },
    });
    const actor = createActor(parent).start();
    page.visibilityState = 'visible';
    page.dispatchEvent(new Event('visibilitychange'));
    page.visibilityState = 'hidden';
    page.dispatchEvent(new Event('visibilitychange'));
    actor.stop();
    page.visibilityState = 'visible';
    page.dispatchEvent(new Event('visibilitychange'));
    expect(events).toEqual(['page.hidden', 'page.shown', 'page.hidden']);
  });
});

describe('sign-in watch', () => {
  it('connects when a jwt appears, ignores a refreshed one, disconnects when it is gone', () => {
    let report: (signedIn: boolean) => void = () => {};
    const events: string[] = [];
    const parent = createMachine({
      invoke: {
        id: 'watch',
        src: createSignInWatch((_, onChange) => {
          report = onChange;
          onChange(false);
          return undefined;
        }),
      },
      on: { '*': { actions: ({ event }) => events.push(event.type) } },
    });
    createActor(parent).start();
    report(true);
    report(true);
    report(false);
    report(false);
    expect(events).toEqual(['realtime.connect', 'realtime.disconnect']);
  });
});
