import { assign, fromCallback, setup } from 'xstate';
import {
  calendarFromPublicData,
  SPEC_CALENDAR,
  type LaunchCalendar,
} from '../../contract/calendar';
import type { CalendarTold, ClockTicked, LaunchEvent, LaunchInput } from './launch.types';

const sameDates = (a: LaunchCalendar, b: LaunchCalendar): boolean =>
  a.launchAt === b.launchAt &&
  a.earlyBirdEnd === b.earlyBirdEnd &&
  a.invitationFrom === b.invitationFrom;
/** The calendar in use with the dates told (a missing or unreadable one is kept). */
const told = (calendar: LaunchCalendar, event: CalendarTold): LaunchCalendar =>
  calendarFromPublicData(
    {
      launch_at: event.launchAt,
      early_bird_end: event.earlyBirdEnd,
      invitation_from: event.invitationFrom,
    },
    calendar,
  );

/**
 * Countdown to the training start (§4 Launch). The clock is an injected actor, so tests, the
 * visualiser and the browser each drive time their own way. While `running`, the clock sends
 * readings: the first one leaves `syncing` (nothing is known about "now" before it), later ones
 * are recorded; once a reading reaches the launch instant the chart settles in `trainingOpen`
 * and the clock stops, until a calendar told later moves the launch (the server's calendar
 * replaces the spec's once the session has loaded): the countdown then runs again.
 */
export const launchMachine = setup({
  types: {
    context: {} as { now: number | null; calendar: LaunchCalendar },
    events: {} as LaunchEvent,
    input: {} as LaunchInput,
  },
  actors: {
    clock: fromCallback<ClockTicked>(() => {
      throw new Error('clock actor not provided');
    }),
  },
  actions: {
    recordTime: assign({ now: (_, params: { now: number }) => params.now }),
    setCalendar: assign({
      calendar: ({ context }, params: CalendarTold) => told(context.calendar, params),
    }),
  },
  guards: {
    // Stryker disable next-line ConditionalExpression: in countingDown a reading exists; `!== null` is for the type checker
    isLaunchReached: ({ context }) =>
      context.now !== null && context.now >= context.calendar.launchAt,
    movesDates: ({ context }, params: CalendarTold) =>
      !sameDates(told(context.calendar, params), context.calendar),
    movesDatesOfReading: ({ context }, params: CalendarTold) =>
      context.now !== null && !sameDates(told(context.calendar, params), context.calendar),
  },
}).createMachine({
  id: 'launch',
  context: ({ input }) => ({ now: null, calendar: input.calendar ?? SPEC_CALENDAR }),
  on: {
    // Once a reading exists the countdown is re-judged against the new dates at once (a launch
    // moved later opens the countdown again); before it, the chart keeps waiting for one.
    'launch.calendarTold': [
      {
        guard: { type: 'movesDatesOfReading', params: ({ event }) => event },
        target: '.running.countingDown',
        actions: { type: 'setCalendar', params: ({ event }) => event },
      },
      {
        guard: { type: 'movesDates', params: ({ event }) => event },
        actions: { type: 'setCalendar', params: ({ event }) => event },
      },
    ],
  },
  initial: 'running',
  states: {
    running: {
      invoke: { id: 'clock', src: 'clock' },
      initial: 'syncing',
      states: {
        syncing: {
          on: {
            'clock.ticked': {
              target: 'countingDown',
              actions: { type: 'recordTime', params: ({ event }) => ({ now: event.now }) },
            },
          },
        },
        countingDown: {
          always: { guard: 'isLaunchReached', target: '#launch.trainingOpen' },
          on: {
            'clock.ticked': {
              actions: { type: 'recordTime', params: ({ event }) => ({ now: event.now }) },
            },
          },
        },
      },
    },
    // Not a final state: the service stays registered in the system for every view to read.
    trainingOpen: {},
  },
});
