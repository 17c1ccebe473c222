import { assertEvent, assign, enqueueActions, fromCallback, setup, type EventObject } from 'xstate';
import { SYSTEM_IDS, sendToService } from '../systemIds';
import type { InfoShowEvent } from '../notifications/notifications.types';
import type { RealtimeFact } from '../userData/userData.types';
import {
  DEFAULT_ROOMS,
  DEFAULT_SERVER_ERROR_TEXT,
  ROOMS,
  isSilentUserChange,
  notificationBanner,
  userEventOf,
  type ClientFrame,
  type ServerFrame,
} from '../../contract/realtime';
import {
  CLOSE_UNAUTHORIZED,
  REALTIME,
  backoffDelay,
  type RealtimeBanner,
  type RealtimeContext,
  type RealtimeEvent,
  type RealtimeInput,
  type RoomEntry,
  type SocketCommand,
} from './realtime.types';

/**
 * The realtime connection of §4: disconnected → connecting → connected | error.
 *
 * - `session` owns the socket (a provided `fromCallback` actor): leaving it closes the socket
 *   normally, so a logout (`realtime.disconnect`) never reconnects.
 * - A close the page did not make (§4's abnormal close: a drop, a restart's 1001, a proxy's
 *   1000) goes to `waiting` for 1, 2, 4, 8, 16 s (attempts 1..5, capped at 30 s); after
 *   the 5th failed attempt the machine rests in `failed.resting` and starts a fresh round of
 *   five on its own: every 30 s (REALTIME.restingRetryMs) while the tab is visible, at once
 *   when the tab becomes visible again (`failed.asleep` while hidden: no timer) or the browser
 *   comes back online, and at the player's `realtime.reconnect`.
 * - While connected: a ping every 30 s; liveness by wall clock from the last pong (from the
 *   connection's start until the first): unhealthy at 60 s, closed and reconnected after 120 s.
 * - Browser offline pauses attempts (`offline`); back online reconnects at once.
 * - Credentials refused by the server (close 4401) go straight to `failed.refused`: retrying
 *   on a timer cannot help; the player's Reconnect, a new sign-in or the network coming back can.
 * - Provided actors: `socket` (one connection), `network` (online/offline and tab visibility) and
 *   `signInWatch` (sends `realtime.connect` / `realtime.disconnect` as the auth service's jwt
 *   comes and goes). The wall clock and jitter come with the input (defaults: Date.now, none).
 */

const remainingUntil = (context: RealtimeContext, limitMs: number): number => {
  const since = context.lastLifeAt ?? context.clock.now();
  return Math.max(0, since + limitMs - context.clock.now());
};

const addBounded = (list: RoomEntry[], entry: RoomEntry): RoomEntry[] =>
  [...list, entry].slice(-REALTIME.recentLimit);

const entryOf = (frame: ServerFrame): RoomEntry | null => {
  if (frame.type === 'room_message')
    return {
      kind: 'message',
      room: frame.room,
      message: frame.message,
      data: frame.data ?? null,
      from: frame.from ?? null,
      timestamp: frame.timestamp,
    };
  if (frame.type === 'room_update')
    return {
      kind: 'update',
      room: frame.room,
      message: '',
      data: frame.data ?? null,
      from: null,
      timestamp: frame.timestamp,
    };
  return null;
};

const command = (frame: ClientFrame): SocketCommand => ({ type: 'socket.send', frame });

const infoShow = (banner: RealtimeBanner): InfoShowEvent => ({
  type: 'info.show',
  message: banner.message,
  messageType: banner.type,
});

/** A server `error` and a `notifications` room message become an information banner (§7, §8). */
const bannerOf = (frame: ServerFrame): RealtimeBanner | null => {
  if (frame.type === 'error')
    return { message: frame.message ?? DEFAULT_SERVER_ERROR_TEXT, type: 'error' };
  if (
    frame.type === 'room_message' &&
    frame.room === ROOMS.notifications &&
    !isSilentUserChange(frame)
  )
    return notificationBanner(frame.data);
  return null;
};

const bannerParams = ({ event }: { event: RealtimeEvent }): RealtimeBanner => {
  assertEvent(event, 'socket.received');
  // Stryker disable next-line ObjectLiteral,StringLiteral: only after isBannerFrame held (never null)
  return bannerOf(event.frame) ?? { message: DEFAULT_SERVER_ERROR_TEXT, type: 'error' };
};

/**
 * Frames received while connected (§4 health: "unhealthy after 60 s without pong", "no pong for
 * over 120 s"): a pong (re)enters `healthy`, which schedules the liveness timers again from the
 * wall clock; any other frame is handled where the connection's health stands.
 */
const receiving = () => ({
  'socket.received': [
    {
      guard: 'isPong' as const,
      target: 'healthy' as const,
      reenter: true,
      actions: 'recordPong' as const,
    },
    {
      guard: 'isBannerFrame' as const,
      actions: [{ type: 'showBanner' as const, params: bannerParams }, 'forwardUserEvent' as const],
    },
    { actions: ['handleFrame' as const, 'forwardUserEvent' as const] },
  ],
});

/**
 * What a lost connection leads to: a paused wait when offline, a backoff wait, or, with the
 * round's attempts spent, a rest (timed while the tab is visible, asleep while it is hidden).
 */
const afterLoss = [
  { guard: 'isOffline', target: '#realtime.offline' },
  { guard: 'hasAttemptsLeft', target: '#realtime.waiting' },
  { guard: 'isHidden', target: '#realtime.failed.asleep' },
  { target: '#realtime.failed.resting' },
] as const;

export const realtimeMachine = setup({
  types: {
    context: {} as RealtimeContext,
    events: {} as RealtimeEvent,
    input: {} as RealtimeInput | undefined,
  },
  actors: {
    socket: fromCallback<SocketCommand>(() => {
      throw new Error('socket actor not provided');
    }),
    network: fromCallback<EventObject>(() => {
      throw new Error('network actor not provided');
    }),
    /** Sends `realtime.connect` when a player signs in and `realtime.disconnect` on logout. */
    signInWatch: fromCallback<EventObject>(() => {
      throw new Error('signInWatch actor not provided');
    }),
  },
  actions: {
    // The model test without a notifications service checks the connection runs on.
    showBanner: enqueueActions((queue, banner: RealtimeBanner) =>
      sendToService(queue, SYSTEM_IDS.notifications, infoShow(banner)),
    ),
    /**
     * Tells the owner (the user-data service, the parent that runs this connection) what it
     * acts on: a change the server pushed about this user, and whether the socket is up.
     */
    tellOwner: enqueueActions(({ context, enqueue }, fact: RealtimeFact) => {
      if (context.parent) enqueue.sendTo(context.parent, fact);
    }),
    forwardUserEvent: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'socket.received');
      if (!context.parent) return;
      const kind = userEventOf(event.frame);
      if (kind)
        enqueue.sendTo(context.parent, { type: 'userData.changed', kind } satisfies RealtimeFact);
    }),
    rejoinRooms: enqueueActions(({ context, enqueue }) => {
      for (const room of context.rooms)
        enqueue.sendTo('socket', command({ type: 'join', room, timestamp: context.clock.now() }));
    }),
    sendPing: enqueueActions(({ context, enqueue }) => {
      enqueue.sendTo('socket', command({ type: 'ping', timestamp: context.clock.now() }));
    }),
    sendJoin: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'realtime.join');
      enqueue.sendTo(
        'socket',
        command({ type: 'join', room: event.room, timestamp: context.clock.now() }),
      );
    }),
    sendLeave: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'realtime.leave');
      enqueue.sendTo(
        'socket',
        command({ type: 'leave', room: event.room, timestamp: context.clock.now() }),
      );
    }),
    sendMessage: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'realtime.send');
      if (!context.rooms.includes(event.room)) return;
      enqueue.sendTo(
        'socket',
        command({
          type: 'message',
          room: event.room,
          message: event.message,
          data: event.data,
          timestamp: context.clock.now(),
        }),
      );
    }),
    addRoom: assign({
      rooms: ({ context, event }) => {
        assertEvent(event, 'realtime.join');
        return context.rooms.includes(event.room) ? context.rooms : [...context.rooms, event.room];
      },
    }),
    removeRoom: assign({
      rooms: ({ context, event }) => {
        assertEvent(event, 'realtime.leave');
        return context.rooms.filter((room) => room !== event.room);
      },
    }),
    /** A pong: the connection's last sign of life (§4 health counts from it). */
    recordPong: assign(({ event }) => {
      assertEvent(event, 'socket.received');
      return { lastLifeAt: event.receivedAt, lastPongAt: event.receivedAt };
    }),
    /** Keeps a received `chat` or `updates` message for the views (recent lists). */
    handleFrame: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'socket.received');
      const entry = entryOf(event.frame);
      if (entry?.room === ROOMS.chat)
        enqueue.assign({
          recent: { ...context.recent, chat: addBounded(context.recent.chat, entry) },
        });
      if (entry?.room === ROOMS.updates)
        enqueue.assign({
          recent: { ...context.recent, updates: addBounded(context.recent.updates, entry) },
        });
    }),
    markConnected: assign(({ context }) => ({
      attempt: 0,
      lost: false,
      lastLifeAt: context.clock.now(),
    })),
    markLost: assign({ lost: true }),
    markHidden: assign({ visible: false }),
    markVisible: assign({ visible: true }),
    countAttempt: assign({ attempt: ({ context }) => context.attempt + 1 }),
    resetAttempts: assign({ attempt: 0 }),
    markOffline: assign({ online: false }),
    markOnline: assign({ online: true }),
    forgetSession: assign({
      attempt: 0,
      lost: false,
      lastPongAt: null,
      lastLifeAt: null,
      recent: { chat: [], updates: [] },
    }),
  },
  guards: {
    hasAttemptsLeft: ({ context }) => context.attempt < REALTIME.maxAttempts,
    isOffline: ({ context }) => !context.online,
    isHidden: ({ context }) => !context.visible,
    isPong: ({ event }) => {
      assertEvent(event, 'socket.received');
      return event.frame.type === 'pong';
    },
    isBannerFrame: ({ event }) => {
      assertEvent(event, 'socket.received');
      return bannerOf(event.frame) !== null;
    },
    isWelcome: ({ event }) => {
      assertEvent(event, 'socket.received');
      return event.frame.type === 'welcome';
    },
    isRefused: ({ event }) => {
      assertEvent(event, 'socket.closed');
      return event.code === CLOSE_UNAUTHORIZED;
    },
  },
  delays: {
    /** 1 s doubled per attempt, capped at 30 s, plus the provided jitter (zero by default). */
    reconnectDelay: ({ context }) =>
      backoffDelay(context.attempt) +
      Math.max(0, context.clock.jitter(backoffDelay(context.attempt), context.attempt)),
    pingInterval: REALTIME.pingIntervalMs,
    connectTimeout: REALTIME.connectTimeoutMs,
    /** The rest between rounds of attempts once a round is spent (tab visible). */
    restingRetry: REALTIME.restingRetryMs,
    /** Wall-clock time left until 60 s without a pong. */
    untilUnhealthy: ({ context }) => remainingUntil(context, REALTIME.healthyLimitMs),
    /** Wall-clock time left until 120 s without a pong. */
    untilStale: ({ context }) => remainingUntil(context, REALTIME.staleLimitMs),
  },
}).createMachine({
  id: 'realtime',
  context: ({ input }) => ({
    clock: { now: input?.now ?? (() => Date.now()), jitter: input?.jitter ?? (() => 0) },
    attempt: 0,
    rooms: [...(input?.rooms ?? DEFAULT_ROOMS)],
    online: true,
    visible: true,
    lost: false,
    lastPongAt: null,
    lastLifeAt: null,
    recent: { chat: [], updates: [] },
    parent: input?.parent,
  }),
  invoke: [
    {
      // Stryker disable next-line StringLiteral: the ids only name the actors in the inspector; nothing sends to them
      id: 'network',
      src: 'network',
    },
    {
      // Stryker disable next-line StringLiteral: as above
      id: 'signInWatch',
      src: 'signInWatch',
    },
  ],
  on: {
    'network.wentOffline': { actions: 'markOffline' },
    'network.wentOnline': { actions: 'markOnline' },
    'page.hidden': { actions: 'markHidden' },
    'page.shown': { actions: 'markVisible' },
    'realtime.join': { actions: 'addRoom' },
    'realtime.leave': { actions: 'removeRoom' },
    'realtime.disconnect': { target: '.disconnected', actions: 'forgetSession' },
  },
  initial: 'disconnected',
  states: {
    disconnected: {
      // Attempts are 0 here already (initial, and reset on every disconnect).
      on: { 'realtime.connect': 'session' },
    },
    session: {
      invoke: {
        id: 'socket',
        src: 'socket',
        onError: [...afterLoss],
      },
      on: {
        'socket.closed': [{ guard: 'isRefused', target: '#realtime.failed.refused' }, ...afterLoss],
      },
      initial: 'connecting',
      states: {
        connecting: {
          tags: ['connecting'],
          on: {
            'socket.received': { guard: 'isWelcome', target: 'connected' },
            'network.wentOffline': { target: '#realtime.offline', actions: 'markOffline' },
          },
          after: {
            connectTimeout: [...afterLoss],
          },
        },
        connected: {
          tags: ['connected'],
          entry: [
            'markConnected',
            'rejoinRooms',
            { type: 'tellOwner', params: { type: 'userData.live' } },
          ],
          exit: { type: 'tellOwner', params: { type: 'userData.notLive' } },
          on: {
            'realtime.join': { actions: ['addRoom', 'sendJoin'] },
            'realtime.leave': { actions: ['removeRoom', 'sendLeave'] },
            'realtime.send': { actions: 'sendMessage' },
          },
          type: 'parallel',
          states: {
            heartbeat: {
              initial: 'beating',
              states: {
                beating: {
                  after: {
                    pingInterval: { target: 'beating', reenter: true, actions: 'sendPing' },
                  },
                },
              },
            },
            liveness: {
              initial: 'healthy',
              states: {
                healthy: {
                  tags: ['healthy'],
                  on: receiving(),
                  after: { untilUnhealthy: 'unhealthy' },
                },
                unhealthy: {
                  on: receiving(),
                  after: {
                    untilStale: '#realtime.waiting',
                  },
                },
              },
            },
          },
        },
      },
    },
    waiting: {
      tags: ['connecting', 'reconnecting'],
      entry: ['countAttempt', 'markLost'],
      after: { reconnectDelay: 'session' },
      on: {
        'realtime.reconnect': 'session',
        'network.wentOffline': { target: 'offline', actions: 'markOffline' },
      },
    },
    offline: {
      tags: ['connecting', 'offline'],
      entry: 'markLost',
      on: {
        'network.wentOnline': { target: 'session', actions: ['markOnline', 'resetAttempts'] },
        'realtime.reconnect': { target: 'session', actions: 'resetAttempts' },
      },
    },
    failed: {
      tags: ['error'],
      entry: 'markLost',
      on: {
        'realtime.reconnect': { target: 'session', actions: 'resetAttempts' },
        'realtime.connect': { target: 'session', actions: 'resetAttempts' },
        'network.wentOnline': { target: 'session', actions: ['markOnline', 'resetAttempts'] },
        // Offline, no timer retries: the network's return starts a fresh round.
        'network.wentOffline': { target: 'offline', actions: 'markOffline' },
      },
      initial: 'refused',
      states: {
        /** The server refused the credentials (4401): no retry on a timer. */
        refused: {},
        /** The round's five attempts are spent, tab visible: a fresh round after the rest. */
        resting: {
          tags: ['resting'],
          after: { restingRetry: { target: '#realtime.session', actions: 'resetAttempts' } },
          on: { 'page.hidden': { target: 'asleep', actions: 'markHidden' } },
        },
        /** The round's attempts are spent and the tab is hidden: a fresh round when it shows. */
        asleep: {
          tags: ['resting'],
          on: {
            'page.shown': {
              target: '#realtime.session',
              actions: ['markVisible', 'resetAttempts'],
            },
          },
        },
      },
    },
  },
});

export type RealtimeMachine = typeof realtimeMachine;
