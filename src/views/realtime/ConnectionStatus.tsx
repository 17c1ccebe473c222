import { useSelector } from '@xstate/react';
import { useCallback, useEffect } from 'react';
import { partsState, retryNow, showPageStandIn } from '../../platform/chunkRetry';
import type { ActorRefFrom } from 'xstate';
import type { realtimeMachine } from '../../../machines/realtime/realtime.machine';
import {
  selectAttempt,
  selectConnectionState,
  selectIsHealthy,
  selectIsOffline,
  selectIsReconnecting,
  selectMaxAttempts,
  selectShowsNotice,
} from '../../../machines/realtime/realtime.selectors';
import './connection-status.css';

export type RealtimeRef = ActorRefFrom<typeof realtimeMachine>;

/**
 * The connection's state for signed-in players (§4 Realtime connection): nothing drawn while
 * live updates flow or connect for the first time (a visually hidden status says so to screen
 * readers); a strip at the very top of the page, in the document's flow above the header, when
 * the connection is weak, being restored or lost, with a Reconnect button while the page rests
 * between rounds of automatic attempts. Nothing while signed out. The strip's room is kept at
 * the top of the page (never over it), so it covers no control at any width or scroll.
 */
export function ConnectionStatus({ actor }: { actor: RealtimeRef }) {
  const state = useSelector(actor, selectConnectionState);
  const healthy = useSelector(actor, selectIsHealthy);
  const offline = useSelector(actor, selectIsOffline);
  const reconnecting = useSelector(actor, selectIsReconnecting);
  const attempt = useSelector(actor, selectAttempt);
  const shown = useSelector(actor, selectShowsNotice);
  const reconnect = useCallback(() => actor.send({ type: 'realtime.reconnect' }), [actor]);

  const tone = !shown ? 'quiet' : state === 'error' ? 'lost' : 'pending';
  // One message about the connection: while the strip says it, the corner notice about parts
  // that could not load steps aside; live again, the waiting parts are asked for at once.
  useEffect(
    () => (state === 'disconnected' || tone === 'quiet' ? undefined : showPageStandIn()),
    [state, tone],
  );
  useEffect(() => {
    if (state === 'connected' && partsState() === 'outage') retryNow();
  }, [state]);

  if (state === 'disconnected') return null;

  const text =
    state === 'error'
      ? 'Live updates disconnected'
      : offline
        ? 'Offline: waiting for the network'
        : reconnecting || (state === 'connecting' && shown && attempt > 0)
          ? `Reconnecting (attempt ${attempt} of ${selectMaxAttempts()})`
          : state === 'connecting'
            ? shown
              ? 'Reconnecting to live updates'
              : 'Connecting to live updates'
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
      {tone === 'quiet' ? null : <span className="connection-status__dot" aria-hidden="true" />}
      <span className={tone === 'quiet' ? 'connection-status__sr' : 'connection-status__text'}>
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
