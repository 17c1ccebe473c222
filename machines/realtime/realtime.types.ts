import type { ActorRef, Snapshot } from 'xstate';
import type { RealtimeFact } from '../userData/userData.types';
import type { ServiceInput } from '../shared/stored';
import type { BannerType, ClientFrame, Json, ServerFrame } from '../../contract/realtime';

/** §4 Realtime connection and §9 Realtime constants. */
export const REALTIME = {
  /** A ping every 30 s while connected. */
  pingIntervalMs: 30_000,
  /** Reconnect attempts after an abnormal close before the machine rests (a round of attempts). */
  maxAttempts: 5,
  /**
   * Once a round's 5 attempts are spent (the spec's reconnect ends there), the page rests and
   * starts a fresh round on its own every 30 s while the tab is visible, at once when the tab
   * becomes visible again or the browser comes back online (docs/spec-readings.md). A hidden
   * tab does not retry on this interval.
   */
  restingRetryMs: 30_000,
  /** First reconnect delay; doubled per attempt. */
  backoffBaseMs: 1_000,
  /** Upper bound of one reconnect delay (5 attempts at 1, 2, 4, 8, 16 s never reach it). */
  backoffCapMs: 30_000,
  /** No pong for over 120 s: close and reconnect. */
  staleLimitMs: 120_000,
  /** No pong for 60 s: reported unhealthy. */
  healthyLimitMs: 60_000,
  /** An attempt that gets no `welcome` within 10 s counts as failed. */
  connectTimeoutMs: 10_000,
  /** Messages kept per room for the views. */
  recentLimit: 50,
} as const;

export { CLOSE_POLICY, CLOSE_UNAUTHORIZED } from '../../contract/realtime';

/** The delay before reconnect attempt `attempt` (1-based): 1 s doubled per attempt, capped at 30 s. */
export function backoffDelay(attempt: number): number {
  const exponent = Math.max(0, attempt - 1);
  return Math.min(REALTIME.backoffBaseMs * 2 ** exponent, REALTIME.backoffCapMs);
}

/** One message of the `chat` or `updates` room kept for the views. */
export type RoomEntry = {
  kind: 'message' | 'update';
  room: string;
  message: string;
  data: Json | null;
  from: string | null;
  timestamp: number;
};

/** Wall clock and optional jitter, provided by the composition root (tests give fixed ones). */
export type RealtimeClock = {
  /** Wall clock in ms: liveness is measured by it, so a throttled background tab is not fooled. */
  now: () => number;
  /**
   * Extra ms added to a reconnect delay (for example a random share of it, so many clients do
   * not reconnect in step). Zero by default: the spec's schedule 1, 2, 4, 8, 16 s stays exact.
   */
  jitter: (baseMs: number, attempt: number) => number;
};

/** The user-data service runs it and names itself as the parent; tests add a clock and jitter. */
export type RealtimeInput = Partial<ServiceInput> &
  Partial<RealtimeClock> & {
    rooms?: readonly string[];
    /** The owner that hears the connection's facts (RealtimeFact): the user-data service. */
    parent?: ActorRef<Snapshot<unknown>, RealtimeFact>;
  };

export type RealtimeContext = {
  clock: RealtimeClock;
  /** Reconnect attempts used since the last successful connection. */
  attempt: number;
  /** Rooms the player is in; all of them are joined again after every reconnect. */
  rooms: string[];
  /** Browser network state as last reported. */
  online: boolean;
  /** Whether the page's tab is visible (document visibility) as last reported. */
  visible: boolean;
  /**
   * A connection was lost (or could not be made) and is not back yet: the views show the
   * connection's state only then and while it is weak, never for a first connect.
   */
  lost: boolean;
  lastPongAt: number | null;
  /** The last pong, or the connection's start before the first: §4 health counts from it. */
  lastLifeAt: number | null;
  /** Bounded recent lists of the `chat` and `updates` rooms. */
  recent: { chat: RoomEntry[]; updates: RoomEntry[] };
  /** RealtimeInput's parent; without one (run alone) the facts have no one to go to. */
  parent: ActorRef<Snapshot<unknown>, RealtimeFact> | undefined;
};

/** Events the socket actor sends to the machine (facts). */
export type SocketEvent =
  | { type: 'socket.received'; frame: ServerFrame; receivedAt: number }
  /** A frame the socket could not read: dropped (it is no pong, so no sign of health). */
  | { type: 'socket.ignored'; reason: string; receivedAt: number }
  | { type: 'socket.closed'; code: number; reason: string };

/**
 * Events the network actor sends: facts from the browser's online/offline and from the
 * document's visibility (the tab shown or hidden).
 */
export type NetworkEvent =
  | { type: 'network.wentOffline' }
  | { type: 'network.wentOnline' }
  | { type: 'page.hidden' }
  | { type: 'page.shown' };

/** Intents from the app, the auth machine and the views. */
export type RealtimeIntent =
  | { type: 'realtime.connect' }
  | { type: 'realtime.disconnect' }
  | { type: 'realtime.reconnect' }
  | { type: 'realtime.join'; room: string }
  | { type: 'realtime.leave'; room: string }
  | { type: 'realtime.send'; room: string; message: string; data?: Json };

export type RealtimeEvent = RealtimeIntent | SocketEvent | NetworkEvent;

/** What the machine sends to the socket actor. */
export type SocketCommand = { type: 'socket.send'; frame: ClientFrame };

/** A banner the machine asks the notifications service to show. */
export type RealtimeBanner = { message: string; type: BannerType };
