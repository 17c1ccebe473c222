import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { realtimeMachine } from '../../../machines/realtime/realtime.machine';
import {
  selectAttempt,
  selectConnectionState,
  selectIsHealthy,
  selectIsOffline,
  selectIsReconnecting,
  selectMaxAttempts,
} from '../../../machines/realtime/realtime.selectors';
import './connection-status.css';

export type RealtimeRef = ActorRefFrom<typeof realtimeMachine>;

/**
 * A discreet connection indicator for signed-in players (§4 Realtime connection): a dot in the
 * corner while live updates flow, a short text when the connection is weak, being restored or
 * lost, and a Reconnect button once the automatic attempts are spent. Nothing while signed out.
 */
export function ConnectionStatus({ actor }: { actor: RealtimeRef }) {
  const state = useSelector(actor, selectConnectionState);
  const healthy = useSelector(actor, selectIsHealthy);
  const offline = useSelector(actor, selectIsOffline);
  const reconnecting = useSelector(actor, selectIsReconnecting);
  const attempt = useSelector(actor, selectAttempt);
  const reconnect = useCallback(() => actor.send({ type: 'realtime.reconnect' }), [actor]);

  if (state === 'disconnected') return null;

  const tone = state === 'error' ? 'lost' : state === 'connected' && healthy ? 'live' : 'pending';
  const text =
    state === 'error'
      ? 'Live updates disconnected'
      : offline
        ? 'Offline: waiting for the network'
        : reconnecting
          ? `Reconnecting (attempt ${attempt} of ${selectMaxAttempts()})`
          : state === 'connecting'
            ? 'Connecting to live updates'
            : healthy
              ? 'Live updates connected'
              : 'Live updates: weak connection';

  return (
    <div
      className={`connection-status connection-status--${tone}`}
      data-testid="connection-status"
      data-state={state}
      role="status"
      aria-live="polite"
      title={text}
    >
      <span className="connection-status__dot" aria-hidden="true" />
      <span className={tone === 'live' ? 'connection-status__sr' : 'connection-status__text'}>
        {text}
      </span>
      {state === 'error' ? (
        <button type="button" className="connection-status__button" onClick={reconnect}>
          Reconnect
        </button>
      ) : null}
    </div>
  );
}
