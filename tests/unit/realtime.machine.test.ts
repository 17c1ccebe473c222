import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, type AnyActorRef, type EventObject } from 'xstate';
import { realtimeMachine } from '../../machines/realtime/realtime.machine';
import {
  selectAttempt,
  selectCanReconnect,
  selectChatMessages,
  selectConnectionState,
  selectIsHealthy,
  selectIsOffline,
  selectLastPongAt,
  selectUpdates,
} from '../../machines/realtime/realtime.selectors';
import type { ClientFrame, ServerFrame } from '../../contract/realtime';
import {
  CLOSE_UNAUTHORIZED,
  REALTIME,
  backoffDelay,
  type RealtimeBanner,
  type SocketCommand,
} from '../../machines/realtime/realtime.types';

/**
 * The realtime machine as an actor with a fake socket and network, under fake timers. The fake
 * clock drives both the timers and the provided wall clock (`now`), except where a test moves
 * the wall clock alone to play a throttled background tab.
 */

type FakeSocket = { sent: ClientFrame[]; parent: AnyActorRef; closed: boolean };

function setupHarness(options: { jitter?: (base: number, attempt: number) => number } = {}) {
  const sockets: FakeSocket[] = [];
  const banners: RealtimeBanner[] = [];
  let network: AnyActorRef | null = null;
  let wallOffset = 0;
  const now = () => Date.now() + wallOffset;
  const machine = realtimeMachine.provide({
    actors: {
      socket: fromCallback<SocketCommand>(({ sendBack, receive, self }) => {
        const socket: FakeSocket = { sent: [], parent: self._parent as AnyActorRef, closed: false };
        sockets.push(socket);
        receive((command) => socket.sent.push(command.frame));
        void sendBack;
        return () => {
          socket.closed = true;
        };
      }),
      network: fromCallback<EventObject>(({ self }) => {
        network = self._parent as AnyActorRef;
      }),
      signInWatch: fromCallback<EventObject>(() => {}),
    },
    actions: {
      showBanner: (_, banner: RealtimeBanner) => {
        banners.push(banner);
      },
    },
  });
  const actor = createActor(machine, { input: { now, jitter: options.jitter } });
  actor.start();
  const current = () => {
    const socket = sockets.at(-1);
    if (!socket) throw new Error('no socket opened');
    return socket;
  };
  const receive = (frame: ServerFrame) =>
    actor.send({ type: 'socket.received', frame, receivedAt: now() });
  const welcome = () => receive({ type: 'welcome', timestamp: now() });
  const dropAbnormally = () => actor.send({ type: 'socket.closed', code: 1006, reason: '' });
  const state = () => selectConnectionState(actor.getSnapshot());
  return {
    actor,
    sockets,
    banners,
    current,
    receive,
    welcome,
    dropAbnormally,
    state,
    openCount: () => sockets.filter((s) => !s.closed).length,
    goOffline: () => network?.send({ type: 'network.wentOffline' }),
    goOnline: () => network?.send({ type: 'network.wentOnline' }),
    hideTab: () => network?.send({ type: 'page.hidden' }),
    /** Every socket lost at once, through the 5 attempts' delays: the round is spent. */
    spendAttempts: () => {
      for (let i = 0; i < REALTIME.maxAttempts; i += 1) {
        dropAbnormally();
        vi.advanceTimersByTime(backoffDelay(i + 1));
      }
      dropAbnormally();
    },
    showTab: () => network?.send({ type: 'page.shown' }),
    /** Moves only the wall clock, as a throttled tab whose timers have not fired yet. */
    skipWallClock: (ms: number) => {
      wallOffset += ms;
    },
  };
}

/** The harness after the player's `realtime.connect`: the first socket is opening. */
function connecting(options: Parameters<typeof setupHarness>[0] = {}) {
  const h = setupHarness(options);
  h.actor.send({ type: 'realtime.connect' });
  return h;
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2025-11-01T00:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('realtime connection', () => {
  it('starts disconnected and opens a socket on realtime.connect', () => {
    const h = setupHarness();
    expect(h.state()).toBe('disconnected');
    expect(h.sockets).toHaveLength(0);
    h.actor.send({ type: 'realtime.connect' });
    expect(h.state()).toBe('connecting');
    expect(h.sockets).toHaveLength(1);
    h.welcome();
    expect(h.state()).toBe('connected');
    expect(selectIsHealthy(h.actor.getSnapshot())).toBe(true);
  });

  it('joins notifications, chat and updates once welcomed, each frame with a timestamp', () => {
    const h = connecting();
    expect(h.current().sent).toEqual([]);
    h.welcome();
    expect(h.current().sent).toEqual([
      { type: 'join', room: 'notifications', timestamp: Date.now() },
      { type: 'join', room: 'chat', timestamp: Date.now() },
      { type: 'join', room: 'updates', timestamp: Date.now() },
    ]);
  });

  it('reconnects after an abnormal close at exactly 1, 2, 4, 8, 16 s, then rests in error 30 s before a fresh round', () => {
    const h = connecting();
    h.welcome();
    h.dropAbnormally();
    const schedule: number[] = [];
    for (let attempt = 1; attempt <= REALTIME.maxAttempts; attempt += 1) {
      expect(h.state()).toBe('connecting');
      expect(selectAttempt(h.actor.getSnapshot())).toBe(attempt);
      const before = h.sockets.length;
      const started = Date.now();
      // One ms short of the delay: no new socket yet.
      vi.advanceTimersByTime(backoffDelay(attempt) - 1);
      expect(h.sockets.length).toBe(before);
      vi.advanceTimersByTime(1);
      expect(h.sockets.length).toBe(before + 1);
      schedule.push(Date.now() - started);
      h.dropAbnormally();
    }
    expect(schedule).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
    expect(h.state()).toBe('error');
    expect(selectCanReconnect(h.actor.getSnapshot())).toBe(true);
    const opened = h.sockets.length;
    vi.advanceTimersByTime(REALTIME.restingRetryMs - 1);
    expect(h.sockets.length, 'resting').toBe(opened);
    expect(h.state()).toBe('error');
    vi.advanceTimersByTime(1);
    expect(h.sockets.length, 'a fresh round after the rest').toBe(opened + 1);
    expect(h.state()).toBe('connecting');
    expect(selectAttempt(h.actor.getSnapshot())).toBe(0);
    h.dropAbnormally();
    expect(selectAttempt(h.actor.getSnapshot()), 'the round has its 5 attempts again').toBe(1);
  });

  it('once the attempts are spent, a hidden tab waits without a timer and starts a fresh round when shown', () => {
    const h = connecting();
    h.hideTab();
    for (let i = 0; i < REALTIME.maxAttempts; i += 1) {
      h.dropAbnormally();
      vi.advanceTimersByTime(backoffDelay(i + 1));
    }
    h.dropAbnormally();
    expect(h.state()).toBe('error');
    const opened = h.sockets.length;
    vi.advanceTimersByTime(10 * REALTIME.restingRetryMs);
    expect(h.sockets.length, 'no retry while hidden').toBe(opened);
    h.showTab();
    expect(h.sockets.length, 'shown: at once').toBe(opened + 1);
    expect(selectAttempt(h.actor.getSnapshot())).toBe(0);
    h.welcome();
    expect(h.state()).toBe('connected');
  });

  it('a tab hidden while resting stops the rest timer; offline while resting waits for the network', () => {
    const h = connecting();
    h.spendAttempts();
    const opened = h.sockets.length;
    vi.advanceTimersByTime(REALTIME.restingRetryMs - 1);
    h.hideTab();
    vi.advanceTimersByTime(5 * REALTIME.restingRetryMs);
    expect(h.sockets.length).toBe(opened);
    h.goOffline();
    expect(selectIsOffline(h.actor.getSnapshot())).toBe(true);
    h.showTab();
    vi.advanceTimersByTime(5 * REALTIME.restingRetryMs);
    expect(h.sockets.length, 'offline: no attempt').toBe(opened);
    h.goOnline();
    expect(h.sockets.length, 'online: a fresh round at once').toBe(opened + 1);
    expect(selectAttempt(h.actor.getSnapshot())).toBe(0);
  });

  it('lets the player reconnect by hand after the 5th failed attempt [§9.realtime.limits]', () => {
    const h = connecting();
    h.spendAttempts();
    expect(h.state()).toBe('error');
    h.actor.send({ type: 'realtime.reconnect' });
    expect(h.state()).toBe('connecting');
    expect(selectAttempt(h.actor.getSnapshot())).toBe(0);
    h.welcome();
    expect(h.state()).toBe('connected');
  });

  it('caps a delay at 30 s and adds the provided jitter', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(backoffDelay)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
    const h = connecting({ jitter: (base) => base / 2 });
    h.dropAbnormally();
    vi.advanceTimersByTime(1_499);
    expect(h.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(h.sockets).toHaveLength(2);
  });

  it('rejoins every room after each reconnect, including rooms joined and left meanwhile [§4.realtime.rejoin]', () => {
    const h = connecting();
    h.welcome();
    h.actor.send({ type: 'realtime.join', room: 'lobby' });
    h.actor.send({ type: 'realtime.leave', room: 'chat' });
    expect(h.current().sent.slice(-2)).toEqual([
      { type: 'join', room: 'lobby', timestamp: Date.now() },
      { type: 'leave', room: 'chat', timestamp: Date.now() },
    ]);
    for (let cycle = 0; cycle < 3; cycle += 1) {
      h.dropAbnormally();
      vi.advanceTimersByTime(1_000);
      h.welcome();
      expect(h.current().sent.map((f) => (f.type === 'join' ? f.room : f.type))).toEqual([
        'notifications',
        'updates',
        'lobby',
      ]);
      expect(h.openCount()).toBe(1);
    }
  });

  it('pings every 30 s while connected', () => {
    const h = connecting();
    h.welcome();
    const pings = () => h.current().sent.filter((f) => f.type === 'ping');
    vi.advanceTimersByTime(29_999);
    expect(pings()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(pings()).toEqual([{ type: 'ping', timestamp: Date.now() }]);
    h.receive({ type: 'pong', timestamp: Date.now() });
    expect(selectLastPongAt(h.actor.getSnapshot())).toBe(Date.now());
    vi.advanceTimersByTime(60_000);
    expect(pings()).toHaveLength(3);
  });

  it('reports unhealthy at 60 s without a pong and recovers on a pong only', () => {
    const h = connecting();
    h.welcome();
    vi.advanceTimersByTime(59_999);
    expect(selectIsHealthy(h.actor.getSnapshot())).toBe(true);
    vi.advanceTimersByTime(1);
    expect(selectIsHealthy(h.actor.getSnapshot())).toBe(false);
    expect(h.state()).toBe('connected');
    h.actor.send({ type: 'socket.ignored', reason: 'not JSON', receivedAt: Date.now() });
    h.receive({ type: 'left', room: 'chat', timestamp: Date.now() });
    expect(selectIsHealthy(h.actor.getSnapshot())).toBe(false);
    h.receive({ type: 'pong', timestamp: Date.now() });
    expect(selectIsHealthy(h.actor.getSnapshot())).toBe(true);
  });

  it('keeps healthy while pongs arrive', () => {
    const h = connecting();
    h.welcome();
    for (let i = 0; i < 10; i += 1) {
      vi.advanceTimersByTime(30_000);
      h.receive({ type: 'pong', timestamp: Date.now() });
      expect(selectIsHealthy(h.actor.getSnapshot())).toBe(true);
    }
    expect(h.sockets).toHaveLength(1);
  });

  it('closes and reconnects after over 120 s without a pong', () => {
    const h = connecting();
    h.welcome();
    vi.advanceTimersByTime(119_999);
    expect(h.state()).toBe('connected');
    expect(h.current().closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(h.sockets[0]?.closed).toBe(true);
    expect(h.state()).toBe('connecting');
    vi.advanceTimersByTime(1_000);
    expect(h.sockets).toHaveLength(2);
  });

  it('measures liveness by wall clock, so a throttled tab is not fooled', () => {
    const h = connecting();
    h.welcome();
    vi.advanceTimersByTime(10_000);
    // The tab was frozen: 200 s of wall time passed while no timer ran.
    h.skipWallClock(200_000);
    // The next (late) timer finds the connection stale and reconnects without waiting 120 s more.
    vi.advanceTimersByTime(50_000);
    expect(selectIsHealthy(h.actor.getSnapshot())).toBe(false);
    // The stale check it schedules is due at once.
    vi.advanceTimersByTime(1);
    expect(h.sockets[0]?.closed).toBe(true);
    expect(h.state()).toBe('connecting');
  });

  it('does not reconnect after a normal close (logout) and closes the socket', () => {
    const h = connecting();
    h.welcome();
    h.actor.send({ type: 'realtime.disconnect' });
    expect(h.state()).toBe('disconnected');
    expect(h.current().closed).toBe(true);
    vi.advanceTimersByTime(10 * 60_000);
    expect(h.sockets).toHaveLength(1);
  });

  it('stops in error without retrying when the server refuses the credentials', () => {
    const h = connecting();
    h.actor.send({ type: 'socket.closed', code: CLOSE_UNAUTHORIZED, reason: 'unauthorized' });
    expect(h.state()).toBe('error');
    vi.advanceTimersByTime(60_000);
    expect(h.sockets).toHaveLength(1);
  });

  it('counts a connect without welcome within 10 s as a failed attempt', () => {
    const h = connecting();
    vi.advanceTimersByTime(REALTIME.connectTimeoutMs);
    expect(h.sockets[0]?.closed).toBe(true);
    expect(selectAttempt(h.actor.getSnapshot())).toBe(1);
  });

  it('pauses attempts while offline and reconnects at once when online', () => {
    const h = connecting();
    h.welcome();
    h.goOffline();
    expect(h.state()).toBe('connected');
    h.dropAbnormally();
    vi.advanceTimersByTime(10 * 60_000);
    expect(h.sockets).toHaveLength(1);
    expect(h.state()).toBe('connecting');
    h.goOnline();
    expect(h.sockets).toHaveLength(2);
    h.welcome();
    expect(h.state()).toBe('connected');
  });

  it('pauses a pending retry when the network goes away', () => {
    const h = connecting();
    h.dropAbnormally();
    h.goOffline();
    vi.advanceTimersByTime(60_000);
    expect(h.sockets).toHaveLength(1);
    h.goOnline();
    expect(h.sockets).toHaveLength(2);
    expect(selectAttempt(h.actor.getSnapshot())).toBe(0);
  });

  it('turns notifications room messages and server errors into banners', () => {
    const h = connecting();
    h.welcome();
    h.receive({
      type: 'room_message',
      room: 'notifications',
      message: 'n',
      data: { type: 'success', text: 'Access granted' },
      timestamp: 1,
    });
    h.receive({ type: 'room_message', room: 'notifications', message: '', data: {}, timestamp: 2 });
    h.receive({ type: 'error', message: 'Room is full', timestamp: 3 });
    h.receive({ type: 'error', timestamp: 4 });
    expect(h.banners).toEqual([
      { message: 'Access granted', type: 'success' },
      { message: 'New notification', type: 'info' },
      { message: 'Room is full', type: 'error' },
      { message: 'WebSocket error occurred', type: 'error' },
    ]);
  });

  it('keeps a bounded recent list of chat and updates', () => {
    const h = connecting();
    h.welcome();
    for (let i = 0; i < REALTIME.recentLimit + 5; i += 1)
      h.receive({ type: 'room_message', room: 'chat', message: `m${i}`, from: 'u', timestamp: i });
    h.receive({ type: 'room_update', room: 'updates', data: { members: 3 }, timestamp: 9 });
    const chat = selectChatMessages(h.actor.getSnapshot());
    expect(chat).toHaveLength(REALTIME.recentLimit);
    expect(chat[0]?.message).toBe('m5');
    expect(chat.at(-1)?.message).toBe(`m${REALTIME.recentLimit + 4}`);
    expect(selectUpdates(h.actor.getSnapshot())).toEqual([
      {
        kind: 'update',
        room: 'updates',
        message: '',
        data: { members: 3 },
        from: null,
        timestamp: 9,
      },
    ]);
  });

  it('sends a message only to a room it is in', () => {
    const h = connecting();
    h.welcome();
    h.actor.send({ type: 'realtime.send', room: 'chat', message: 'hi', data: { a: 1 } });
    h.actor.send({ type: 'realtime.send', room: 'elsewhere', message: 'no' });
    expect(h.current().sent.filter((f) => f.type === 'message')).toEqual([
      { type: 'message', room: 'chat', message: 'hi', data: { a: 1 }, timestamp: Date.now() },
    ]);
  });

  it('survives 20 drop/reconnect cycles with one open socket and every room', () => {
    const h = connecting();
    h.welcome();
    for (let i = 0; i < 20; i += 1) {
      h.dropAbnormally();
      vi.advanceTimersByTime(1_000);
      h.welcome();
      expect(h.state()).toBe('connected');
      expect(h.openCount()).toBe(1);
    }
    expect(
      h
        .current()
        .sent.filter((f) => f.type === 'join')
        .map((f) => f.type === 'join' && f.room),
    ).toEqual(['notifications', 'chat', 'updates']);
  });
});
