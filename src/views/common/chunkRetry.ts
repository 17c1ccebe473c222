import { useSyncExternalStore } from 'react';
import { showsCornerNotice, subscribeChunkFailures } from '../../platform/chunkRetry';

export { chunkFailed } from '../../platform/chunkRetry';

/**
 * Whether the corner notice shows: a part with no card of its own waits for the server, or the
 * update is offered, and no part's card (which carries its own button) is on screen.
 */
export const useChunkFailed = (): boolean =>
  useSyncExternalStore(subscribeChunkFailures, showsCornerNotice, () => false);
