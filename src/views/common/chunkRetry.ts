import { useSyncExternalStore } from 'react';
import { hasFailedChunks, subscribeChunkFailures } from '../../platform/chunkRetry';

export { chunkFailed, retryChunks } from '../../platform/chunkRetry';

/** Whether a part of the page could not load (the notice with Retry shows while it is). */
export const useChunkFailed = (): boolean =>
  useSyncExternalStore(subscribeChunkFailures, hasFailedChunks, () => false);
