import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while the server renders and while React hydrates pre-rendered HTML, true afterwards.
 * Parts whose first client reading (a clock) cannot equal the build-time HTML render their
 * reserved, neutral form until then, so hydration never mismatches.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
