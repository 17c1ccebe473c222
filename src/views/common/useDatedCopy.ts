import { useSelector } from '@xstate/react';
import type { DatedCopyInput } from '../../../machines/launch/datedCopy';
import { selectCalendar, selectNow } from '../../../machines/launch/launch.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { useHydrated } from './useHydrated';

/** What the pre-render read: the build's clock and calendar. */
const BUILT: DatedCopyInput = { now: __SMW_BUILT_AT__, calendar: __SMW_CALENDAR__ };

/**
 * Copy that depends on a date of the launch calendar, read from the launch service's clock and
 * calendar (machines/launch/datedCopy.ts). While a pre-rendered page hydrates it reads the
 * build's clock and calendar, as the pre-render did (so hydration never mismatches, and a page
 * built after a date never shows the words before it), and so it does after hydration until the
 * service's clock has given its first reading (a page hydrated before it would otherwise say the
 * words of no date for a moment, and move); then it follows the service, drawing again only when
 * the copy changes (not at every clock tick).
 */
export function useDatedCopy<T>(copyAt: (at: DatedCopyInput) => T): T {
  const launch = useService(SYSTEM_IDS.launch);
  const hydrated = useHydrated();
  const live = useSelector(
    launch,
    (s) => {
      const now = selectNow(s);
      return copyAt(now === null ? BUILT : { now, calendar: selectCalendar(s) });
    },
    sameCopy,
  );
  return hydrated ? live : copyAt(BUILT);
}

/** Copy is text or plain data: equal when it reads the same. */
const sameCopy = <T>(a: T, b: T): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);
