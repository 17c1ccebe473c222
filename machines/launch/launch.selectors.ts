import type { SnapshotFrom } from 'xstate';
import type { launchMachine } from './launch.machine';
import type { Remaining } from './launch.types';
import type { LaunchCalendar } from '../../contract/calendar';

type LaunchSnapshot = SnapshotFrom<typeof launchMachine>;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Time left split for the flip cards. Rounded up to whole seconds, so the cards read 00:00:00:01
 * until the very instant of the launch (never 0 while the countdown is still running).
 */
export function splitRemaining(ms: number): Remaining {
  const left = Math.max(0, Math.ceil(ms / SECOND) * SECOND);
  return {
    days: Math.floor(left / DAY),
    hours: Math.floor((left % DAY) / HOUR),
    minutes: Math.floor((left % HOUR) / MINUTE),
    seconds: Math.floor((left % MINUTE) / SECOND),
  };
}

/** Before the first clock reading nothing is known: the view keeps the cards' space reserved. */
export const selectIsSyncing = (s: LaunchSnapshot): boolean => s.matches({ running: 'syncing' });
export const selectIsTrainingOpen = (s: LaunchSnapshot): boolean => s.matches('trainingOpen');
const selectRemainingMs = (s: LaunchSnapshot): number =>
  s.context.now === null ? 0 : Math.max(0, s.context.calendar.launchAt - s.context.now);
export const selectDays = (s: LaunchSnapshot): number => splitRemaining(selectRemainingMs(s)).days;
export const selectHours = (s: LaunchSnapshot): number =>
  splitRemaining(selectRemainingMs(s)).hours;
export const selectMinutes = (s: LaunchSnapshot): number =>
  splitRemaining(selectRemainingMs(s)).minutes;
export const selectSeconds = (s: LaunchSnapshot): number =>
  splitRemaining(selectRemainingMs(s)).seconds;

/**
 * The clock reading for dated copy (machines/launch/datedCopy.ts): null until the first reading;
 * in `trainingOpen` the last reading, which reached the launch instant (the clock stops there).
 */
export const selectNow = (s: LaunchSnapshot): number | null => s.context.now;

/** The calendar in use: the spec's, then the server's once the session has loaded. */
export const selectCalendar = (s: LaunchSnapshot): LaunchCalendar => s.context.calendar;
