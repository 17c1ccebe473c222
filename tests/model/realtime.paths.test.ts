import { expect, it, vi } from 'vitest';
import {
  createActor,
  fromCallback,
  type AnyActorRef,
  type AnyEventObject,
  type EventObject,
} from 'xstate';
import { realtimeMachine } from '../../machines/realtime/realtime.machine';
import type { ClientFrame } from '../../contract/realtime';
import {
  selectChatMessages,
  selectConnectionState,
  selectIsHealthy,
  selectIsInRoom,
  selectLastPongAt,
  selectLatestUpdate,
  selectRoomCount,
  selectUpdates,
} from '../../machines/realtime/realtime.selectors';
import {
  CLOSE_UNAUTHORIZED,
  REALTIME,
  type RealtimeBanner,
  type SocketCommand,
} from '../../machines/realtime/realtime.types';
import { RECONNECT_ATTEMPTS, SPEC_MESSAGES, SPEC_TIMERS, specBackoff } from '../support/oracle';
import {
  checkProperty,
  defineModel,
  settle,
  testPaths,
  type Driver,
  type Executors,
} from '../support/paths';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

/**
 * Generated paths through the realtime machine (§4 Realtime connection). Socket frames, closes and
 * network changes are events; the backoff, connect timeout, ping and liveness timers are advanced
 * with fake timers by exactly their computed delay, so every path also checks the schedule.
 */

const frame = {
  welcome: { type: 'welcome', timestamp: 1 },
  left: { type: 'left', room: 'lobby', timestamp: 2 },
  notification: {
    type: 'room_message',
    room: 'notifications',
    message: 'n',
    data: { type: 'success', text: 'Access granted' },
    timestamp: 5,
  },
  /** §8: a server error without a message, and a notification without a text: default texts. */
  bareError: { type: 'error', timestamp: 6 },
  bareNotification: {
    type: 'room_message',
    room: 'notifications',
    message: 'n',
    data: { type: 'info' },
    timestamp: 7,
  },
} as const;

/**
 * The banner §7/§8 prescribe for each frame (by its timestamp): a notification's text and type,
 * a server error's text or 'WebSocket error occurred', 'New notification' for one without text.
 */
const BANNER_OF: Partial<Record<number, RealtimeBanner>> = {
  5: { message: 'Access granted', type: 'success' },
  6: { message: SPEC_MESSAGES.websocketError, type: 'error' },
  7: { message: SPEC_MESSAGES.defaultRealtimeNotification, type: 'info' },
};
/** §7: the rooms a signed-in player is in from the start. */
const SPEC_ROOMS = ['notifications', 'chat', 'updates'];

const model = defineModel({
  name: 'realtime',
  machine: realtimeMachine,
  required: SPEC_TRANSITIONS.realtime,
  input: { now: () => 0 },
  events: {
    'realtime.connect': [{}],
    'realtime.disconnect': [{}],
    'realtime.reconnect': [{}],
    'realtime.join': [{ room: 'lobby' }],
    'realtime.leave': [{ room: 'lobby' }],
    'realtime.send': [{ room: 'chat', message: 'hello' }],
    'socket.received': Object.values(frame).map((f) => ({ frame: f, receivedAt: 0 })),
    'socket.ignored': [{ reason: 'not JSON', receivedAt: 0 }],
    'socket.closed': [
      { code: 1006, reason: '' },
      { code: CLOSE_UNAUTHORIZED, reason: 'unauthorized' },
    ],
    'network.wentOffline': [{}],
    'network.wentOnline': [{}],
  },
  outcomes: {
    'xstate.error.actor.socket': [{ error: new Error('socket failed to open') }],
    'xstate.after.reconnectDelay.realtime.waiting': [{}],
    'xstate.after.connectTimeout.realtime.session.connecting': [{}],
    'xstate.after.pingInterval.realtime.session.connected.heartbeat.beating': [{}],
    'xstate.after.untilUnhealthy.realtime.session.connected.liveness.healthy': [{}],
    'xstate.after.untilStale.realtime.session.connected.liveness.unhealthy': [{}],
  },
  paths: { simple: false, maxPaths: 2000 },
});

type FakeSocket = { sent: ClientFrame[]; closed: boolean; ref: AnyActorRef };

function setup() {
  const sockets: FakeSocket[] = [];
  const banners: RealtimeBanner[] = [];
  let network: AnyActorRef | null = null;
  let connectedAt = 0;
  const machine = realtimeMachine.provide({
    actors: {
      socket: fromCallback<SocketCommand>(({ receive, self }) => {
        const socket: FakeSocket = { sent: [], closed: false, ref: self };
        sockets.push(socket);
        receive((command: SocketCommand | { type: 'test.fail' }) => {
          if (command.type === 'test.fail') {
            // A socket that fails ends without its cleanup: it is gone all the same.
            socket.closed = true;
            throw new Error('socket failed to open');
          }
          socket.sent.push(command.frame);
        });
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
  const actor = createActor(machine, { input: { now: () => Date.now() } });
  actor.subscribe({ error: () => {} });
  actor.start();
  return {
    actor,
    sockets,
    banners,
    network: () => network as unknown as AnyActorRef,
    markConnected: () => {
      connectedAt = Date.now();
    },
    connectedAt: () => connectedAt,
    /** The close code of the last `socket.closed` since the last connect / reconnect. */
    lastClose: { code: null as number | null },
    /** The rooms the player is in, by the join and leave intents sent so far. */
    rooms: [...SPEC_ROOMS],
  };
}
type Ctx = ReturnType<typeof setup>;

const live = (ctx: Ctx) => ctx.actor.getSnapshot().context;
const openSockets = (ctx: Ctx) => ctx.sockets.filter((s) => !s.closed);
const isConnected = (ctx: Ctx) => selectConnectionState(ctx.actor.getSnapshot()) === 'connected';

/**
 * Sends an intent and checks the frames it put on the open socket: `expected` while connected,
 * none otherwise (the rooms are joined again on the next connection).
 */
function sendIntent(ctx: Ctx, event: AnyEventObject, expected: Partial<ClientFrame> | null) {
  const connected = isConnected(ctx);
  const socket = ctx.sockets.at(-1);
  const before = socket?.sent.length ?? 0;
  ctx.actor.send(event as never);
  const sent = socket?.sent.slice(before) ?? [];
  if (connected && expected) {
    expect(sent, `${event.type}: one frame`).toEqual([
      { ...expected, timestamp: expect.any(Number) },
    ]);
  } else {
    expect(sent, `${event.type}: no frame`).toEqual([]);
  }
}

/** Advances fake timers by `ms` and asserts nothing fires one ms early. */
async function advanceExactly(ctx: Ctx, ms: number, probe: () => unknown) {
  const before = JSON.stringify(probe());
  await vi.advanceTimersByTimeAsync(ms - 1);
  expect(JSON.stringify(probe())).toBe(before);
  await vi.advanceTimersByTimeAsync(1);
  await settle();
}

const events = {
  'realtime.connect': ({ ctx, event }) => {
    ctx.lastClose.code = null;
    ctx.actor.send(event);
  },
  'realtime.disconnect': ({ ctx, event }) => ctx.actor.send(event),
  'realtime.reconnect': ({ ctx, event }) => {
    ctx.lastClose.code = null;
    ctx.actor.send(event);
  },
  // §7 join and leave {room}: kept in the player's rooms, sent at once while connected.
  'realtime.join': ({ ctx, event }) => {
    if (!ctx.rooms.includes(event.room)) ctx.rooms.push(event.room);
    sendIntent(ctx, event, { type: 'join', room: event.room });
  },
  'realtime.leave': ({ ctx, event }) => {
    ctx.rooms = ctx.rooms.filter((room) => room !== event.room);
    sendIntent(ctx, event, { type: 'leave', room: event.room });
  },
  // §7 message {room, message, data}: only to a room the player is in.
  'realtime.send': ({ ctx, event }) =>
    sendIntent(
      ctx,
      event,
      ctx.rooms.includes(event.room)
        ? { type: 'message', room: event.room, message: event.message }
        : null,
    ),
  'socket.received': ({ ctx, event }) => {
    const connected = isConnected(ctx);
    if (event.frame.type === 'welcome') ctx.markConnected();
    const banners = ctx.banners.length;
    ctx.actor.send({ ...event, receivedAt: Date.now() });
    const expected = connected ? BANNER_OF[event.frame.timestamp] : undefined;
    expect(ctx.banners.slice(banners), '§7/§8 the banner a frame shows').toEqual(
      expected ? [expected] : [],
    );
  },
  'socket.ignored': ({ ctx, event }) => ctx.actor.send({ ...event, receivedAt: Date.now() }),
  'socket.closed': ({ ctx, event }) => {
    ctx.lastClose.code = event.code;
    ctx.actor.send(event);
  },
  'network.wentOffline': ({ ctx }) => ctx.network().send({ type: 'network.wentOffline' }),
  'network.wentOnline': ({ ctx }) => ctx.network().send({ type: 'network.wentOnline' }),
  'xstate.error.actor.socket': async ({ ctx }) => {
    ctx.sockets.at(-1)?.ref.send({ type: 'test.fail' });
    await settle();
  },
  'xstate.after.reconnectDelay.realtime.waiting': async ({ ctx }) => {
    // The spec's schedule (oracle): attempt n waits 1 s × 2^(n-1), capped at 30 s (no jitter).
    const attempt = live(ctx).attempt;
    expect(attempt).toBeLessThanOrEqual(RECONNECT_ATTEMPTS);
    await advanceExactly(ctx, specBackoff(attempt), () => ctx.sockets.length);
  },
  'xstate.after.connectTimeout.realtime.session.connecting': ({ ctx }) =>
    advanceExactly(ctx, REALTIME.connectTimeoutMs, () => ctx.actor.getSnapshot().value),
  'xstate.after.pingInterval.realtime.session.connected.heartbeat.beating': async ({ ctx }) => {
    const since = Date.now() - ctx.connectedAt();
    const next = SPEC_TIMERS.ping - (since % SPEC_TIMERS.ping);
    const pings = () => ctx.sockets.at(-1)?.sent.filter((f) => f.type === 'ping').length;
    const before = pings() ?? 0;
    await advanceExactly(ctx, next, pings);
    expect(pings()).toBe(before + 1);
  },
  'xstate.after.untilUnhealthy.realtime.session.connected.liveness.healthy': ({ ctx }) =>
    advanceExactly(ctx, (live(ctx).lastLifeAt ?? 0) + SPEC_TIMERS.unhealthy - Date.now(), () =>
      selectIsHealthy(ctx.actor.getSnapshot()),
    ),
  'xstate.after.untilStale.realtime.session.connected.liveness.unhealthy': ({ ctx }) =>
    advanceExactly(
      ctx,
      (live(ctx).lastLifeAt ?? 0) + SPEC_TIMERS.stale - Date.now(),
      () => ctx.sockets.at(-1)?.closed,
    ),
} satisfies Executors<typeof model, Ctx>;

const driver: Driver<typeof model, Ctx> = {
  setup,
  teardown: ({ actor }) => {
    actor.stop();
  },
  actual: ({ actor }) => actor.getSnapshot(),
  events,
  states: {
    disconnected: ({ ctx }) => {
      expect(selectConnectionState(ctx.actor.getSnapshot())).toBe('disconnected');
      expect(openSockets(ctx)).toHaveLength(0);
    },
    'session.connecting': ({ ctx }) => {
      expect(selectConnectionState(ctx.actor.getSnapshot())).toBe('connecting');
      expect(openSockets(ctx)).toHaveLength(1);
    },
    'session.connected': ({ ctx }) => {
      expect(selectConnectionState(ctx.actor.getSnapshot())).toBe('connected');
      expect(openSockets(ctx)).toHaveLength(1);
      // Every room the player is in was joined on this connection.
      const joined = ctx.sockets
        .at(-1)
        ?.sent.filter((f) => f.type === 'join')
        .map((f) => f.type === 'join' && f.room);
      for (const room of ctx.rooms) expect(joined).toContain(room);
    },
    // In every state: the rooms the player is in, as the views read them.
    '*': ({ ctx }) => {
      const s = ctx.actor.getSnapshot();
      expect(selectRoomCount(s)).toBe(ctx.rooms.length);
      for (const room of [...SPEC_ROOMS, 'lobby'])
        expect(selectIsInRoom(room)(s), `in room ${room}`).toBe(ctx.rooms.includes(room));
    },
    waiting: ({ ctx }) => {
      expect(selectConnectionState(ctx.actor.getSnapshot())).toBe('connecting');
      expect(openSockets(ctx)).toHaveLength(0);
    },
    offline: ({ ctx }) => {
      expect(openSockets(ctx)).toHaveLength(0);
    },
    failed: ({ ctx }) => {
      expect(selectConnectionState(ctx.actor.getSnapshot())).toBe('error');
      // §4: a lost connection gives up only after its 5 attempts (a refusal gives up at once).
      if (ctx.lastClose.code !== CLOSE_UNAUTHORIZED)
        expect(live(ctx).attempt, 'attempts made before giving up').toBe(RECONNECT_ATTEMPTS);
      expect(openSockets(ctx)).toHaveLength(0);
    },
  },
};

testPaths(model, driver);

it('property: attempts never exceed 5, and a retry is pending only after a loss', () => {
  checkProperty('realtime attempts bounded', {
    machine: realtimeMachine,
    events: model.events.map((e) => e.event),
    maxEvents: 40,
    invariant: ({ snapshot }) =>
      snapshot.context.attempt <= RECONNECT_ATTEMPTS &&
      (!snapshot.matches('disconnected') || snapshot.context.attempt === 0) &&
      (!snapshot.matches('waiting') || snapshot.context.attempt >= 1),
  });
});

it('§7 rooms while connected: chat and updates kept newest last (bounded), a pong recorded; a disconnect forgets them', () => {
  vi.useFakeTimers();
  const ctx = setup();
  try {
    ctx.actor.send({ type: 'realtime.connect' });
    const at = (n: number) => Date.now() + n;
    const receive = (frame: object) =>
      ctx.actor.send({ type: 'socket.received', frame, receivedAt: Date.now() } as never);
    receive({ type: 'welcome', timestamp: at(0) });
    expect(selectConnectionState(ctx.actor.getSnapshot())).toBe('connected');
    expect(selectLastPongAt(ctx.actor.getSnapshot())).toBeNull();
    // More chat messages than the view keeps: the oldest leave, the order stays.
    const limit = REALTIME.recentLimit;
    for (let i = 0; i < limit + 2; i++)
      receive({ type: 'room_message', room: 'chat', message: `m${i}`, from: 'ann', timestamp: i });
    const chat = selectChatMessages(ctx.actor.getSnapshot());
    expect(chat).toHaveLength(limit);
    expect(chat[0]).toEqual({
      kind: 'message',
      room: 'chat',
      message: 'm2',
      data: null,
      from: 'ann',
      timestamp: 2,
    });
    expect(chat.at(-1)?.message).toBe(`m${limit + 1}`);
    expect(selectUpdates(ctx.actor.getSnapshot())).toEqual([]);
    // An update to the updates room (and a message there) reach the updates list, not chat.
    receive({ type: 'room_update', room: 'updates', data: { phase: 'training' }, timestamp: 7 });
    receive({ type: 'room_message', room: 'updates', message: 'soon', timestamp: 8 });
    const updates = selectUpdates(ctx.actor.getSnapshot());
    expect(updates.map((u) => [u.kind, u.message, u.data])).toEqual([
      ['update', '', { phase: 'training' }],
      ['message', 'soon', null],
    ]);
    expect(selectLatestUpdate(ctx.actor.getSnapshot())?.message).toBe('soon');
    expect(selectChatMessages(ctx.actor.getSnapshot())).toHaveLength(limit);
    // §7 message {room, message, data}: sent to a room the player is in, never to another.
    const sent = () => ctx.sockets.at(-1)?.sent ?? [];
    const before = sent().length;
    ctx.actor.send({ type: 'realtime.send', room: 'lobby', message: 'psst' });
    expect(sent().slice(before)).toEqual([]);
    ctx.actor.send({ type: 'realtime.send', room: 'chat', message: 'hi', data: { emoji: 'hat' } });
    expect(sent().slice(before)).toEqual([
      {
        type: 'message',
        room: 'chat',
        message: 'hi',
        data: { emoji: 'hat' },
        timestamp: expect.any(Number),
      },
    ]);
    // A pong is recorded at the time it arrived.
    vi.advanceTimersByTime(1234);
    const pongAt = Date.now();
    receive({ type: 'pong', timestamp: 9 });
    expect(selectLastPongAt(ctx.actor.getSnapshot())).toBe(pongAt);
    // A disconnect forgets the session's lists.
    ctx.actor.send({ type: 'realtime.disconnect' });
    expect(selectChatMessages(ctx.actor.getSnapshot())).toEqual([]);
    expect(selectUpdates(ctx.actor.getSnapshot())).toEqual([]);
    expect(selectLastPongAt(ctx.actor.getSnapshot())).toBeNull();
  } finally {
    ctx.actor.stop();
    vi.useRealTimers();
  }
});
