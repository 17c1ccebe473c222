import { useSyncExternalStore } from 'react';
import { showsCornerNotice, subscribeChunkFailures } from '../../platform/chunkRetry';

export { chunkFailed, retryChunks, retryPage, showPageStandIn } from '../../platform/chunkRetry';

/**
 * Whether the corner notice with Retry shows: a part of the page could not load and no page
 * stand-in (which carries its own Retry) is on screen.
 */
export const useChunkFailed = (): boolean =>
  useSyncExternalStore(subscribeChunkFailures, showsCornerNotice, () => false);
