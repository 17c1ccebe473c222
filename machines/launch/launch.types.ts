import type { LaunchCalendar } from '../../contract/calendar';
import type { ServiceInput } from '../shared/stored';

/** The start of the training phase (§1, §4, §9): 2025-12-20T00:00:00Z, shown as 'December 20'. */
export { LAUNCH_AT_ISO, LAUNCH_AT_MS } from '../../contract/spec';

/** Text shown once the launch instant is reached (§2 Home, logged out). */
export const TRAINING_OPEN_TEXT = 'Boarding now · Training Open';

/**
 * Input of the launch machine: the app spawns it with the common service input (`stored`, unused
 * here) and the spec's calendar; tests may start it with another calendar.
 */
export type LaunchInput = Partial<ServiceInput> & { calendar?: LaunchCalendar };

/**
 * The server's calendar (public_data's `launch_at`, `early_bird_end` and `invitation_from`, ISO
 * instants), told by the app once the session has loaded; a missing or unreadable date keeps the
 * one in use.
 */
export type CalendarTold = {
  type: 'launch.calendarTold';
  launchAt?: string | undefined;
  earlyBirdEnd?: string | undefined;
  invitationFrom?: string | undefined;
};

export type LaunchEvent = ClockTicked | CalendarTold;

/**
 * The clock the composition root provides: a callback actor that sends `clock.ticked` with the
 * current time (ms since epoch) at least once per second while it runs.
 */
export type ClockTicked = { type: 'clock.ticked'; now: number };

/** Remaining time split for the flip cards. */
export type Remaining = { days: number; hours: number; minutes: number; seconds: number };
