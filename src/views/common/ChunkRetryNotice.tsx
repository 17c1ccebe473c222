import { SESSION_MESSAGES } from '../../../contract/messages';
import { useChunkFailed } from './chunkRetry';
import { PartButton, UPDATE_TITLE, usePartsState } from './PartUnavailable';
import './chunkRetry.css';

/**
 * The corner notice, for parts with no place of their own on screen (the overlays, the member
 * services, the wallet code) and when no part's card shows: the server does not answer (the
 * spec's message and Retry; the parts also come back by themselves), or a new release replaced
 * them (the one update offer).
 */
export function ChunkRetryNotice() {
  const shown = useChunkFailed();
  const state = usePartsState();
  if (!shown) return null;
  const replaced = state === 'replaced';
  return (
    <div className="chunk-retry" role="alert" data-part-state={state}>
      <p>
        {replaced ? UPDATE_TITLE : `Part of the page could not load. ${SESSION_MESSAGES.connect}`}
      </p>
      <PartButton replaced={replaced} />
    </div>
  );
}
