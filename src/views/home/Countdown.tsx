import { useSelector } from '@xstate/react';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import {
  selectDays,
  selectHours,
  selectIsSyncing,
  selectIsTrainingOpen,
  selectMinutes,
  selectSeconds,
} from '../../../machines/launch/launch.selectors';
import { TRAINING_OPEN_TEXT } from '../../../machines/launch/launch.types';
import { useService } from '../../app/hooks';
import { useHydrated } from '../common/useHydrated';
import './countdown.css';

const BUILT_AFTER_LAUNCH = __SMW_BUILT_AT__ >= __SMW_CALENDAR__.launchAt;

const pad = (n: number) => String(n).padStart(2, '0');

function FlipCard({ value, label }: { value: number | null; label: string }) {
  const text = value === null ? '--' : pad(value);
  return (
    <div className="flip-card" role="group" aria-label={label}>
      <span className="flip-card-face" aria-hidden="true">
        {/* A new key per value re-mounts the face, which plays the flip (not under reduced motion). */}
        <span key={text} className="flip-card-value">
          {text}
        </span>
      </span>
      <span className="visually-hidden">
        {text} {label}
      </span>
      <span className="flip-card-label" aria-hidden="true">
        {label}
      </span>
    </div>
  );
}

/**
 * Whether the hero shows the training open, and whether the clock is known yet: until it is read,
 * the build's (a page built after the start shows it open at once). The hero's layout reads it
 * from its own box (`data-launch`), never from a later sibling: a page parsed in pieces on a slow
 * phone paints the header before the countdown arrives, and must not move when it does.
 */
export function useShownOpen(): { shownOpen: boolean; known: boolean } {
  const launch = useService(SYSTEM_IDS.launch);
  const hydrated = useHydrated();
  const syncing = useSelector(launch, selectIsSyncing);
  const open = useSelector(launch, selectIsTrainingOpen);
  const known = hydrated && !syncing;
  return { shownOpen: known ? open : BUILT_AFTER_LAUNCH, known };
}

/** Flip-card countdown to the training start; `Boarding now · Training Open` once reached. */
export function Countdown() {
  const launch = useService(SYSTEM_IDS.launch);
  const { shownOpen, known } = useShownOpen();
  const days = useSelector(launch, selectDays);
  const hours = useSelector(launch, selectHours);
  const minutes = useSelector(launch, selectMinutes);
  const seconds = useSelector(launch, selectSeconds);

  return (
    <div className="countdown" data-state={shownOpen ? 'open' : known ? 'counting' : 'syncing'}>
      {shownOpen ? (
        <p className="countdown-open" role="status">
          <span className="countdown-open-dot" aria-hidden="true" />
          {TRAINING_OPEN_TEXT}
        </p>
      ) : (
        <div className="countdown-cards" role="timer" aria-label="Time until training starts">
          <FlipCard value={known ? days : null} label="Days" />
          <FlipCard value={known ? hours : null} label="Hours" />
          <FlipCard value={known ? minutes : null} label="Minutes" />
          <FlipCard value={known ? seconds : null} label="Seconds" />
        </div>
      )}
    </div>
  );
}
