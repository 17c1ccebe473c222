import type { SnapshotFrom } from 'xstate';
import type { realtimeMachine } from './realtime.machine';
import { REALTIME, type RoomEntry } from './realtime.types';

export type RealtimeSnapshot = SnapshotFrom<typeof realtimeMachine>;

/** The four connection states of §4. Waiting for a retry or for the network reads as connecting. */
export type ConnectionState = 'disconnected' | 'connecting' | 'connected' | 'error';

export const selectConnectionState = (s: RealtimeSnapshot): ConnectionState =>
  s.hasTag('connected')
    ? 'connected'
    : s.hasTag('error')
      ? 'error'
      : s.hasTag('connecting')
        ? 'connecting'
        : 'disconnected';

/** Connected and a frame arrived within the last 60 s (wall clock). */
export const selectIsHealthy = (s: RealtimeSnapshot): boolean => s.hasTag('healthy');
export const selectIsReconnecting = (s: RealtimeSnapshot): boolean => s.hasTag('reconnecting');
export const selectIsOffline = (s: RealtimeSnapshot): boolean => s.hasTag('offline');
/** The manual reconnect is offered once the automatic attempts are spent. */
export const selectCanReconnect = (s: RealtimeSnapshot): boolean =>
  s.can({ type: 'realtime.reconnect' }) && s.hasTag('error');
/**
 * Whether the views show the connection's state in words: after a loss until it is back, and
 * while it is weak. A healthy connection and a first connect show nothing.
 */
export const selectShowsNotice = (s: RealtimeSnapshot): boolean =>
  s.hasTag('connected') ? !s.hasTag('healthy') : s.context.lost;
export const selectAttempt = (s: RealtimeSnapshot): number => s.context.attempt;
export const selectMaxAttempts = (): number => REALTIME.maxAttempts;
export const selectLastPongAt = (s: RealtimeSnapshot): number | null => s.context.lastPongAt;
export const selectIsInRoom =
  (room: string) =>
  (s: RealtimeSnapshot): boolean =>
    s.context.rooms.includes(room);

/** Recent `chat` messages, oldest first, at most REALTIME.recentLimit (stable reference). */
export const selectChatMessages = (s: RealtimeSnapshot): readonly RoomEntry[] =>
  s.context.recent.chat;
/** Recent `updates` messages and room updates, oldest first, bounded. */
export const selectUpdates = (s: RealtimeSnapshot): readonly RoomEntry[] =>
  s.context.recent.updates;
export const selectLatestUpdate = (s: RealtimeSnapshot): RoomEntry | null =>
  s.context.recent.updates.at(-1) ?? null;
