import { expect, it, vi } from 'vitest';
import {
  createActor,
  fromCallback,
  setup as setup_,
  type ActorRefFrom,
  type AnyActorRef,
  type AnyEventObject,
  type EventObject,
} from 'xstate';
import { realtimeMachine } from '../../machines/realtime/realtime.machine';
import { SYSTEM_IDS } from '../../machines/systemIds';
import type { InfoShowEvent } from '../../machines/notifications/notifications.types';
import type { ClientFrame, ServerFrame } from '../../contract/realtime';
import {
  selectAttempt,
  selectCanReconnect,
  selectChatMessages,
  selectConnectionState,
  selectIsHealthy,
  selectIsInRoom,
  selectIsOffline,
  selectIsReconnecting,
  selectLastPongAt,
  selectLatestUpdate,
  selectMaxAttempts,
  selectShowsNotice,
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
  checkModelProperty,
  defineModel,
  settle,
  specExpect,
  systemDriver,
  testPaths,
  testSpecScenarios,
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
  /** The answer to a ping: the only frame §4 health counts. */
  pong: { type: 'pong', timestamp: 3 },
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
  /** A change to the player's data pushed without a banner: the page only fetches again. */
  silentChange: {
    type: 'room_message',
    room: 'notifications',
    message: 'user.changed',
    data: { event: 'balance.changed' },
    timestamp: 8,
  },
  /** A change pushed as news: a banner, and the page fetches again. */
  grantedNews: {
    type: 'room_message',
    room: 'notifications',
    message: 'notification',
    data: { type: 'success', text: 'Access Granted!', event: 'access.granted' },
    timestamp: 9,
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
  9: { message: 'Access Granted!', type: 'success' },
};
/** The change each frame tells the user-data service about (by its timestamp). */
const USER_EVENT_OF: Partial<Record<number, string>> = {
  8: 'balance.changed',
  9: 'access.granted',
};
/**
 * An attempt that gets no `welcome` within 10 s counts as lost (the spec names no number; the
 * product's reading, README "Realtime schedule").
 */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * Once the 5 attempts are spent the page rests 30 s (tab visible), then starts a fresh round of
 * 5 on its own (the spec stops at the 5th; the product's reading, docs/spec-readings.md).
 */
const RESTING_RETRY_MS = 30_000;
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
    'page.hidden': [{}],
    'page.shown': [{}],
  },
  outcomes: {
    'xstate.error.actor.socket': [{ error: new Error('socket failed to open') }],
    'xstate.after.reconnectDelay.realtime.waiting': [{}],
    'xstate.after.connectTimeout.realtime.session.connecting': [{}],
    'xstate.after.pingInterval.realtime.session.connected.heartbeat.beating': [{}],
    'xstate.after.untilUnhealthy.realtime.session.connected.liveness.healthy': [{}],
    'xstate.after.untilStale.realtime.session.connected.liveness.unhealthy': [{}],
    'xstate.after.restingRetry.realtime.failed.resting': [{}],
  },
  paths: { simple: false, maxPaths: 2100, byTransition: true, byEvent: true, limit: 80_000 },
  uncovered: {
    'socket.ignored':
      'An unreadable frame is dropped wherever it arrives (it is no pong, §4 health counts pongs only); the paths still send it, and the health test checks it changes nothing',
  },
});

type FakeSocket = { sent: ClientFrame[]; closed: boolean; ref: AnyActorRef };

/** What the user-data service, the connection's parent, hears from it. */
type MemberFact = { type: string; kind?: string };

/** `failed`: the credentials were refused; `resting` / `asleep`: a round spent, tab shown / hidden. */
type Phase =
  | 'disconnected'
  | 'connecting'
  | 'connected'
  | 'waiting'
  | 'offline'
  | 'failed'
  | 'resting'
  | 'asleep';

/** §4's four connection states as the views read them; a wait for a retry reads as connecting. */
const SPEC_STATE_OF: Record<Phase, string> = {
  disconnected: 'disconnected',
  connecting: 'connecting',
  connected: 'connected',
  waiting: 'connecting',
  offline: 'connecting',
  failed: 'error',
  resting: 'error',
  asleep: 'error',
};
/** Where the player is offered the Reconnect button: the connection is given up or resting. */
const STOPPED: Phase[] = ['failed', 'resting', 'asleep'];

/**
 * What §4 says the connection is doing, kept by the test from the events alone and never read
 * from the machine: the phase and when it began, the attempts used, the browser's network
 * state, the last sign of life, every frame the current socket should have carried, the banners
 * shown and the facts the user-data service was told.
 */
type Expected = {
  phase: Phase;
  since: number;
  attempt: number;
  online: boolean;
  /** The tab is visible. */
  visible: boolean;
  /** Lost and not back yet (the views show the connection's state then). */
  lost: boolean;
  healthy: boolean;
  lifeAt: number;
  connectedAt: number;
  pings: number;
  sockets: number;
  rooms: string[];
  sent: ClientFrame[];
  banners: InfoShowEvent[];
  facts: MemberFact[];
};

function enter(m: Expected, phase: Phase, at: number) {
  if (m.phase === 'connected') m.facts.push({ type: 'userData.notLive' });
  m.phase = phase;
  m.since = at;
  if (phase === 'connecting') {
    m.sockets += 1;
    m.sent = [];
  }
  if (phase === 'waiting') m.attempt += 1;
  if (phase === 'waiting' || phase === 'offline' || STOPPED.includes(phase)) m.lost = true;
  if (phase === 'disconnected') m.lost = false;
  if (phase === 'connected') {
    // A welcome resets the attempts, rejoins every room the player is in and starts the clocks.
    Object.assign(m, {
      attempt: 0,
      lost: false,
      healthy: true,
      lifeAt: at,
      connectedAt: at,
      pings: 0,
    });
    for (const room of m.rooms) m.sent.push({ type: 'join', room, timestamp: at });
    m.facts.push({ type: 'userData.live' });
  }
}

/**
 * §4 an abnormal close: wait for attempt n (of 5), pause while offline, or, the round spent,
 * rest (timed while the tab is visible, until it shows while hidden).
 */
function lose(m: Expected, at: number) {
  if (!m.online) enter(m, 'offline', at);
  else if (m.attempt < RECONNECT_ATTEMPTS) enter(m, 'waiting', at);
  else enter(m, m.visible ? 'resting' : 'asleep', at);
}

/** A fresh round of the 5 attempts, at once. */
function freshRound(m: Expected, at: number) {
  m.attempt = 0;
  enter(m, 'connecting', at);
}

/** The next thing the spec's clocks make happen, if any (liveness before a ping at a tie). */
function nextDeadline(m: Expected): { at: number; fire: () => void } | null {
  if (m.phase === 'connecting') {
    const at = m.since + CONNECT_TIMEOUT_MS;
    return { at, fire: () => lose(m, at) };
  }
  if (m.phase === 'waiting') {
    const at = m.since + specBackoff(m.attempt);
    return { at, fire: () => enter(m, 'connecting', at) };
  }
  if (m.phase === 'resting') {
    const at = m.since + RESTING_RETRY_MS;
    return { at, fire: () => freshRound(m, at) };
  }
  if (m.phase !== 'connected') return null;
  const ping = m.connectedAt + SPEC_TIMERS.ping * (m.pings + 1);
  const unhealthy = m.lifeAt + SPEC_TIMERS.unhealthy;
  const stale = m.lifeAt + SPEC_TIMERS.stale;
  if (m.healthy && unhealthy <= ping) return { at: unhealthy, fire: () => (m.healthy = false) };
  // §4 "If no pong for over 120 s it closes and reconnects".
  if (!m.healthy && stale <= ping) return { at: stale, fire: () => enter(m, 'waiting', stale) };
  return {
    at: ping,
    fire: () => {
      m.pings += 1;
      m.sent.push({ type: 'ping', timestamp: ping });
    },
  };
}

/** Lets the spec's clocks run up to `until` in the expectation. */
function runClocks(m: Expected, until: number) {
  for (let next = nextDeadline(m); next && next.at <= until; next = nextDeadline(m)) next.fire();
}

function setup() {
  const sockets: FakeSocket[] = [];
  const banners: InfoShowEvent[] = [];
  const facts: MemberFact[] = [];
  let network: AnyActorRef | null = null;
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
          // Anything but a send command is not a frame: record it as is, so the check fails.
          socket.sent.push(command.type === 'socket.send' ? command.frame : (command as never));
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
  });
  // The connection as the site runs it: a child of the user-data service (which hears its
  // facts) beside the notifications service (which shows the banners). Its
  // wall clock is its default one, Date.now (faked per path).
  const root = createActor(
    setup_({
      actors: {
        realtime: machine,
        notifications: fromCallback<AnyEventObject>(({ receive }) => {
          receive((event) => void banners.push(event as InfoShowEvent));
        }),
      },
    }).createMachine({
      invoke: [
        { id: 'notifications', systemId: SYSTEM_IDS.notifications, src: 'notifications' },
        { id: 'realtime', src: 'realtime', input: ({ self }) => ({ parent: self }) },
      ],
      on: {
        '*': {
          actions: ({ event }) => {
            if (event.type.startsWith('userData.')) facts.push({ ...event });
          },
        },
      },
    }),
  );
  root.subscribe({ error: () => {} });
  root.start();
  const actor = root.getSnapshot().children.realtime as unknown as ActorRefFrom<
    typeof realtimeMachine
  >;
  const now = Date.now();
  const expected: Expected = {
    phase: 'disconnected',
    since: now,
    attempt: 0,
    online: true,
    visible: true,
    lost: false,
    healthy: false,
    lifeAt: now,
    connectedAt: now,
    pings: 0,
    sockets: 0,
    rooms: [...SPEC_ROOMS],
    sent: [],
    banners: [],
    facts: [],
  };
  return {
    root,
    actor,
    sockets,
    banners,
    facts,
    network: () => network as unknown as AnyActorRef,
    m: expected,
  };
}
type Ctx = ReturnType<typeof setup>;

const is = (ctx: Ctx, ...phases: Phase[]) => phases.includes(ctx.m.phase);

/** Everything the spec lets a player or another service see, against the expectation. */
function checkAll(ctx: Ctx, when: string) {
  const s = ctx.actor.getSnapshot();
  const m = ctx.m;
  expect(selectConnectionState(s), `${when}: connection state`).toBe(SPEC_STATE_OF[m.phase]);
  specExpect('§4.realtime.reconnect', selectAttempt(s), `${when}: reconnect attempt`).toBe(
    m.attempt,
  );
  expect(selectMaxAttempts(), 'attempts before giving up').toBe(RECONNECT_ATTEMPTS);
  expect(selectIsReconnecting(s), `${when}: waiting to reconnect`).toBe(m.phase === 'waiting');
  expect(selectIsOffline(s), `${when}: paused while offline`).toBe(m.phase === 'offline');
  expect(selectCanReconnect(s), `${when}: manual reconnect offered`).toBe(is(ctx, ...STOPPED));
  expect(s.hasTag('resting'), `${when}: resting before a fresh round`).toBe(
    is(ctx, 'resting', 'asleep'),
  );
  expect(selectShowsNotice(s), `${when}: the state shown in words`).toBe(
    m.phase === 'connected' ? !m.healthy : m.lost,
  );
  expect(selectIsHealthy(s), `${when}: healthy`).toBe(m.phase === 'connected' && m.healthy);
  specExpect('§4.realtime.reconnect', ctx.sockets.length, `${when}: sockets opened`).toBe(
    m.sockets,
  );
  const open = ctx.sockets.filter((socket) => !socket.closed);
  expect(open.length, `${when}: open sockets`).toBe(is(ctx, 'connecting', 'connected') ? 1 : 0);
  if (open.length === 1)
    expect(open[0], `${when}: the open socket is the newest`).toBe(ctx.sockets.at(-1));
  specExpect(
    '§7.realtime.frames',
    ctx.sockets.at(-1)?.sent ?? [],
    `${when}: frames on the socket`,
  ).toEqual(m.sent);
  specExpect('§7.realtime.notifications', ctx.banners, `${when}: banners shown`).toEqual(m.banners);
  specExpect('reading.live', ctx.facts, `${when}: facts told to the user-data service`).toEqual(
    m.facts,
  );
  specExpect('§4.realtime.rejoin', s.context.rooms.length, `${when}: rooms`).toBe(m.rooms.length);
  for (const room of [...SPEC_ROOMS, 'lobby'])
    expect(selectIsInRoom(room)(s), `${when}: in room ${room}`).toBe(m.rooms.includes(room));
}

/**
 * Advances fake timers to `until` (the spec's deadline of the step): one ms before, everything
 * is still as the expectation says; at the deadline, the expectation's clocks have run too.
 */
async function advanceTo(ctx: Ctx, until: number) {
  const ms = until - Date.now();
  expect(ms, 'a timer the spec schedules after now').toBeGreaterThan(0);
  runClocks(ctx.m, until - 1);
  await vi.advanceTimersByTimeAsync(ms - 1);
  await settle();
  checkAll(ctx, '1 ms before the deadline');
  runClocks(ctx.m, until);
  await vi.advanceTimersByTimeAsync(1);
  await settle();
}

/**
 * A frame from the server: a welcome opens the connection; once it is open a pong is the sign
 * of health (§4 "unhealthy after 60 s without pong", "no pong for over 120 s").
 */
function receiveFrame(ctx: Ctx, frame: ServerFrame) {
  const m = ctx.m;
  const now = Date.now();
  if (m.phase === 'connecting' && frame.type === 'welcome') enter(m, 'connected', now);
  else if (m.phase === 'connected') {
    if (frame.type === 'pong') Object.assign(m, { lifeAt: now, healthy: true });
    const banner = BANNER_OF[frame.timestamp];
    if (banner)
      m.banners.push({ type: 'info.show', message: banner.message, messageType: banner.type });
    const kind = USER_EVENT_OF[frame.timestamp];
    if (kind) m.facts.push({ type: 'userData.changed', kind });
  }
}

const events = {
  'realtime.connect': ({ ctx, event }) => {
    if (is(ctx, 'disconnected', ...STOPPED)) freshRound(ctx.m, Date.now());
    ctx.actor.send(event);
  },
  'realtime.disconnect': ({ ctx, event }) => {
    enter(ctx.m, 'disconnected', Date.now());
    ctx.m.attempt = 0;
    ctx.actor.send(event);
  },
  'realtime.reconnect': ({ ctx, event }) => {
    // The player's reconnect: at once from a wait, afresh (attempts reset) from offline / failed.
    if (is(ctx, 'offline', ...STOPPED)) ctx.m.attempt = 0;
    if (is(ctx, 'waiting', 'offline', ...STOPPED)) enter(ctx.m, 'connecting', Date.now());
    ctx.actor.send(event);
  },
  // §7 join and leave {room}: kept in the player's rooms, sent at once while connected.
  'realtime.join': ({ ctx, event }) => {
    if (!ctx.m.rooms.includes(event.room)) ctx.m.rooms.push(event.room);
    if (is(ctx, 'connected'))
      ctx.m.sent.push({ type: 'join', room: event.room, timestamp: Date.now() });
    ctx.actor.send(event);
  },
  'realtime.leave': ({ ctx, event }) => {
    ctx.m.rooms = ctx.m.rooms.filter((room) => room !== event.room);
    if (is(ctx, 'connected'))
      ctx.m.sent.push({ type: 'leave', room: event.room, timestamp: Date.now() });
    ctx.actor.send(event);
  },
  // §7 message {room, message, data}: only while connected, only to a room the player is in.
  'realtime.send': ({ ctx, event }) => {
    if (is(ctx, 'connected') && ctx.m.rooms.includes(event.room))
      ctx.m.sent.push({
        type: 'message',
        room: event.room,
        message: event.message,
        timestamp: Date.now(),
      });
    ctx.actor.send(event);
  },
  'socket.received': ({ ctx, event }) => {
    receiveFrame(ctx, event.frame);
    ctx.actor.send({ ...event, receivedAt: Date.now() });
  },
  'socket.ignored': ({ ctx, event }) => {
    // A frame the socket could not read is dropped: it is no pong.
    ctx.actor.send({ ...event, receivedAt: Date.now() });
  },
  'socket.closed': ({ ctx, event }) => {
    if (is(ctx, 'connecting', 'connected')) {
      // §4: a refusal of the credentials (4401) cannot be fixed by retrying.
      if (event.code === CLOSE_UNAUTHORIZED) enter(ctx.m, 'failed', Date.now());
      else lose(ctx.m, Date.now());
    }
    ctx.actor.send(event);
  },
  'network.wentOffline': ({ ctx }) => {
    ctx.m.online = false;
    if (is(ctx, 'connecting', 'waiting', ...STOPPED)) enter(ctx.m, 'offline', Date.now());
    ctx.network().send({ type: 'network.wentOffline' });
  },
  'network.wentOnline': ({ ctx }) => {
    ctx.m.online = true;
    if (is(ctx, 'offline', ...STOPPED)) freshRound(ctx.m, Date.now());
    ctx.network().send({ type: 'network.wentOnline' });
  },
  // The tab hidden: a rest between rounds waits for it to show (no timer in a hidden tab).
  'page.hidden': ({ ctx }) => {
    ctx.m.visible = false;
    if (is(ctx, 'resting')) enter(ctx.m, 'asleep', Date.now());
    ctx.network().send({ type: 'page.hidden' });
  },
  // The tab shown again: a page resting while hidden starts a fresh round at once.
  'page.shown': ({ ctx }) => {
    ctx.m.visible = true;
    if (is(ctx, 'asleep')) freshRound(ctx.m, Date.now());
    ctx.network().send({ type: 'page.shown' });
  },
  'xstate.error.actor.socket': async ({ ctx }) => {
    if (is(ctx, 'connecting', 'connected')) lose(ctx.m, Date.now());
    ctx.sockets.at(-1)?.ref.send({ type: 'test.fail' });
    await settle();
  },
  // The timers: each advanced to the spec's deadline computed from the expectation.
  'xstate.after.reconnectDelay.realtime.waiting': ({ ctx }) => {
    expect(ctx.m.phase, 'a reconnect delay runs only while waiting').toBe('waiting');
    expect(ctx.m.attempt).toBeLessThanOrEqual(RECONNECT_ATTEMPTS);
    return advanceTo(ctx, ctx.m.since + specBackoff(ctx.m.attempt));
  },
  'xstate.after.connectTimeout.realtime.session.connecting': ({ ctx }) => {
    expect(ctx.m.phase, 'the connect timeout runs only while connecting').toBe('connecting');
    return advanceTo(ctx, ctx.m.since + CONNECT_TIMEOUT_MS);
  },
  'xstate.after.pingInterval.realtime.session.connected.heartbeat.beating': ({ ctx }) => {
    expect(ctx.m.phase, 'pings only while connected').toBe('connected');
    return advanceTo(ctx, ctx.m.connectedAt + SPEC_TIMERS.ping * (ctx.m.pings + 1));
  },
  'xstate.after.untilUnhealthy.realtime.session.connected.liveness.healthy': ({ ctx }) => {
    expect(ctx.m.phase === 'connected' && ctx.m.healthy, 'healthy before 60 s').toBe(true);
    return advanceTo(ctx, ctx.m.lifeAt + SPEC_TIMERS.unhealthy);
  },
  'xstate.after.untilStale.realtime.session.connected.liveness.unhealthy': ({ ctx }) => {
    expect(ctx.m.phase === 'connected' && !ctx.m.healthy, 'unhealthy before 120 s').toBe(true);
    return advanceTo(ctx, ctx.m.lifeAt + SPEC_TIMERS.stale);
  },
  'xstate.after.restingRetry.realtime.failed.resting': ({ ctx }) => {
    expect(ctx.m.phase, 'the rest between rounds runs only while resting, tab shown').toBe(
      'resting',
    );
    return advanceTo(ctx, ctx.m.since + RESTING_RETRY_MS);
  },
} satisfies Executors<typeof model, Ctx>;

const driver = systemDriver(
  model,
  { live: ({ actor }) => actor, root: ({ root }) => root },
  {
    setup,
    events,
    clauses: {
      '*': [
        '§4.realtime.states',
        '§4.realtime.reconnect',
        '§4.realtime.backoff',
        '§4.realtime.rejoin',
        '§4.realtime.ping',
        '§4.realtime.unhealthy',
        '§8.realtime.error',
      ],
    },
    states: {
      '*': ({ ctx }) => checkAll(ctx, 'after the step'),
    },
  },
);

// Before the generated paths: they may not exist (a graph over its budget); this one always runs.
// §4 "up to 5 attempts": the attempts are counted afresh after a connection. Written from the
// spec and run whatever the chart: a generated graph of a chart that keeps counting may exceed
// its budget before any path runs.
const welcomed = { type: 'socket.received', frame: frame.welcome, receivedAt: 0 } as const;
const dropped = { type: 'socket.closed', code: 1006, reason: '' } as const;
const retry = { type: 'xstate.after.reconnectDelay.realtime.waiting' } as const;
testSpecScenarios(model, driver, [
  {
    name: 'a connection counts the attempts afresh: 1 s before the first retry after it',
    events: [{ type: 'realtime.connect' }, dropped, retry, welcomed, dropped, retry, welcomed],
  },
]);

testPaths(model, driver);

it('property: attempts never exceed 5, and a retry is pending only after a loss', () => {
  checkModelProperty('realtime attempts bounded', model, {
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
    expect(selectChatMessages(ctx.actor.getSnapshot())).toEqual([]);
    expect(selectUpdates(ctx.actor.getSnapshot())).toEqual([]);
    // A room confirmation is not a message of that room (nor a notification).
    const banners = ctx.banners.length;
    receive({ type: 'joined', room: 'notifications', timestamp: 1 });
    expect(ctx.banners.slice(banners), 'no banner for joining notifications').toEqual([]);
    receive({ type: 'joined', room: 'chat', timestamp: 1 });
    receive({ type: 'left', room: 'updates', timestamp: 1 });
    expect(selectChatMessages(ctx.actor.getSnapshot())).toEqual([]);
    expect(selectUpdates(ctx.actor.getSnapshot())).toEqual([]);
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
    // Only a pong is a pong.
    expect(selectLastPongAt(ctx.actor.getSnapshot())).toBeNull();
    // An update to the updates room (and a message there) reach the updates list, not chat.
    receive({ type: 'room_update', room: 'updates', data: { phase: 'training' }, timestamp: 7 });
    receive({ type: 'room_message', room: 'updates', message: 'soon', timestamp: 8 });
    receive({ type: 'room_message', room: 'updates', message: 'now', timestamp: 9 });
    const updates = selectUpdates(ctx.actor.getSnapshot());
    expect(updates.map((u) => [u.kind, u.message, u.data])).toEqual([
      ['update', '', { phase: 'training' }],
      ['message', 'soon', null],
      ['message', 'now', null],
    ]);
    expect(selectLatestUpdate(ctx.actor.getSnapshot())?.message).toBe('now');
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
    ctx.root.stop();
    vi.useRealTimers();
  }
});

/** Runs `steps` on a fresh connection (fake timers) and tears it down. */
async function withConnection(steps: (ctx: Ctx) => Promise<void> | void) {
  vi.useFakeTimers();
  const ctx = setup();
  try {
    await steps(ctx);
  } finally {
    ctx.root.stop();
    vi.useRealTimers();
  }
}
const stateOf = (ctx: Ctx) => selectConnectionState(ctx.actor.getSnapshot());
const welcome = (ctx: Ctx) =>
  ctx.actor.send({ type: 'socket.received', frame: frame.welcome, receivedAt: Date.now() });
const lost = (ctx: Ctx) => ctx.actor.send({ type: 'socket.closed', code: 1006, reason: '' });
const network = (ctx: Ctx, online: boolean) =>
  ctx.network().send({ type: online ? 'network.wentOnline' : 'network.wentOffline' });
/** Where a lost connection went: a paused wait while offline, else attempt 1's wait. */
const afterLoss = (ctx: Ctx) => {
  const s = ctx.actor.getSnapshot();
  return selectIsOffline(s) ? 'paused offline' : selectIsReconnecting(s) ? 'waiting' : stateOf(ctx);
};

it('§4 a lost connection pauses while the browser is offline, wherever the network changed', async () => {
  // Offline before connecting: the loss waits for the network.
  await withConnection((ctx) => {
    network(ctx, false);
    ctx.actor.send({ type: 'realtime.connect' });
    lost(ctx);
    expect(afterLoss(ctx)).toBe('paused offline');
    network(ctx, true);
    expect(stateOf(ctx)).toBe('connecting');
    lost(ctx);
    expect(afterLoss(ctx)).toBe('waiting');
  });
  // Offline and back online while connected: the loss retries.
  await withConnection((ctx) => {
    ctx.actor.send({ type: 'realtime.connect' });
    welcome(ctx);
    network(ctx, false);
    expect(stateOf(ctx)).toBe('connected');
    network(ctx, true);
    lost(ctx);
    expect(afterLoss(ctx)).toBe('waiting');
  });
  // Offline while connecting, then the player's reconnect: still offline, so the loss pauses.
  await withConnection((ctx) => {
    ctx.actor.send({ type: 'realtime.connect' });
    network(ctx, false);
    expect(afterLoss(ctx)).toBe('paused offline');
    ctx.actor.send({ type: 'realtime.reconnect' });
    expect(stateOf(ctx)).toBe('connecting');
    lost(ctx);
    expect(afterLoss(ctx)).toBe('paused offline');
  });
  // Offline while waiting for a retry: the same.
  await withConnection((ctx) => {
    ctx.actor.send({ type: 'realtime.connect' });
    lost(ctx);
    network(ctx, false);
    expect(afterLoss(ctx)).toBe('paused offline');
    ctx.actor.send({ type: 'realtime.reconnect' });
    lost(ctx);
    expect(afterLoss(ctx)).toBe('paused offline');
  });
  // Back online from the pause, or after giving up: the next loss retries.
  await withConnection((ctx) => {
    ctx.actor.send({ type: 'realtime.connect' });
    network(ctx, false);
    network(ctx, true);
    lost(ctx);
    expect(afterLoss(ctx)).toBe('waiting');
  });
  await withConnection((ctx) => {
    ctx.actor.send({ type: 'realtime.connect' });
    ctx.actor.send({ type: 'socket.closed', code: CLOSE_UNAUTHORIZED, reason: 'unauthorized' });
    expect(stateOf(ctx)).toBe('error');
    network(ctx, false);
    network(ctx, true);
    expect(stateOf(ctx)).toBe('connecting');
    lost(ctx);
    expect(afterLoss(ctx)).toBe('waiting');
  });
});

it('§4 health counts from the last pong: other frames neither reset nor restore it', async () => {
  await withConnection(async (ctx) => {
    ctx.actor.send({ type: 'realtime.connect' });
    welcome(ctx);
    const healthy = () => selectIsHealthy(ctx.actor.getSnapshot());
    const receive = (f: ServerFrame) =>
      ctx.actor.send({ type: 'socket.received', frame: f, receivedAt: Date.now() });
    await vi.advanceTimersByTimeAsync(30_000);
    receive(frame.pong);
    // Frames that are not pongs: a room frame, an unreadable frame, a banner frame.
    await vi.advanceTimersByTimeAsync(20_000);
    receive(frame.left);
    ctx.actor.send({ type: 'socket.ignored', reason: 'not JSON', receivedAt: Date.now() });
    receive(frame.bareError);
    await vi.advanceTimersByTimeAsync(SPEC_TIMERS.unhealthy - 20_000 - 1);
    expect(healthy(), '59.999 s after the pong').toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(healthy(), '60 s after the pong').toBe(false);
    receive(frame.left);
    ctx.actor.send({ type: 'socket.ignored', reason: 'not JSON', receivedAt: Date.now() });
    expect(healthy(), 'no pong: still unhealthy').toBe(false);
    // A pong restores health and restarts both clocks from it.
    receive(frame.pong);
    expect(healthy()).toBe(true);
    await vi.advanceTimersByTimeAsync(SPEC_TIMERS.unhealthy);
    expect(healthy(), '60 s after the second pong').toBe(false);
    receive(frame.bareError);
    await vi.advanceTimersByTimeAsync(SPEC_TIMERS.stale - SPEC_TIMERS.unhealthy - 1);
    expect(stateOf(ctx), '119.999 s after the pong').toBe('connected');
    await vi.advanceTimersByTimeAsync(1);
    expect(afterLoss(ctx), '120 s after the pong').toBe('waiting');
  });
});

it('a provided jitter lengthens a reconnect delay; a negative one never shortens it', async () => {
  for (const [jitter, waits] of [
    [(base: number) => base / 2, 1500],
    [() => -5000, 1000],
  ] as const) {
    vi.useFakeTimers();
    const seen: [number, number][] = [];
    const sockets: number[] = [];
    const actor = createActor(
      realtimeMachine.provide({
        actors: {
          socket: fromCallback(() => void sockets.push(Date.now())),
          network: fromCallback(() => {}),
          signInWatch: fromCallback(() => {}),
        },
      }),
      {
        input: {
          jitter: (base: number, attempt: number) => {
            seen.push([base, attempt]);
            return jitter(base);
          },
        },
      },
    ).start();
    try {
      actor.send({ type: 'realtime.connect' });
      actor.send({ type: 'socket.closed', code: 1006, reason: '' });
      await vi.advanceTimersByTimeAsync(waits - 1);
      expect(sockets).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(sockets, `attempt 1 after ${waits} ms`).toHaveLength(2);
      expect(seen.at(-1), 'jitter asked with the base delay and the attempt').toEqual([1000, 1]);
    } finally {
      actor.stop();
      vi.useRealTimers();
    }
  }
});

it('without a parent or a notifications service the connection runs on (banners and facts have no one to go to)', () => {
  const actor = createActor(
    realtimeMachine.provide({
      actors: {
        socket: fromCallback(() => {}),
        network: fromCallback(() => {}),
        signInWatch: fromCallback(() => {}),
      },
    }),
    { input: undefined },
  );
  const errors: unknown[] = [];
  actor.subscribe({ error: (e) => void errors.push(e) });
  actor.start();
  actor.send({ type: 'realtime.connect' });
  actor.send({ type: 'socket.received', frame: frame.welcome, receivedAt: 0 });
  for (const f of [frame.notification, frame.grantedNews, frame.silentChange, frame.bareError])
    actor.send({ type: 'socket.received', frame: f, receivedAt: 1 });
  actor.send({ type: 'realtime.disconnect' });
  expect(errors).toEqual([]);
  expect(actor.getSnapshot().status).toBe('active');
  expect(selectConnectionState(actor.getSnapshot())).toBe('disconnected');
  actor.stop();
});
