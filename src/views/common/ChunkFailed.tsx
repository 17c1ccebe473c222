import { PartUnavailable } from './PartUnavailable';

/**
 * Stand-in for a page whose code could not load (the server is down, or a new release replaced
 * it): the page's card (src/views/common/PartUnavailable.tsx) in the page's place.
 */
export function ChunkFailed() {
  return <PartUnavailable variant="page" title="This page could not load" />;
}
