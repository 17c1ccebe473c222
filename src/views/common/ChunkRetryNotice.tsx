import { SESSION_MESSAGES } from '../../../contract/messages';
import { retryChunks, useChunkFailed } from './chunkRetry';
import './chunkRetry.css';

/** Shown while a part of the page could not load: says so, and Retry asks for it again. */
export function ChunkRetryNotice() {
  if (!useChunkFailed()) return null;
  return (
    <div className="chunk-retry" role="alert">
      <p>Part of the page could not load. {SESSION_MESSAGES.connect}</p>
      <button type="button" className="btn btn-primary" onClick={retryChunks}>
        Retry
      </button>
    </div>
  );
}
