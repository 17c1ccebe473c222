import { useSelector } from '@xstate/react';
import { selectNow } from '../../../machines/launch/launch.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { useHydrated } from './useHydrated';

/**
 * Copy that depends on a date of the spec, read from the launch service's clock
 * (machines/launch/datedCopy.ts). While a pre-rendered page hydrates it reads the build's
 * clock, as the pre-render did (so hydration never mismatches, and a page built after a date
 * never shows the words before it); then it follows the clock.
 */
export function useDatedCopy<T extends string | null>(copyAt: (now: number | null) => T): T {
  const launch = useService(SYSTEM_IDS.launch);
  const hydrated = useHydrated();
  const live = useSelector(launch, (s) => copyAt(selectNow(s)));
  return hydrated ? live : copyAt(__SMW_BUILT_AT__);
}
