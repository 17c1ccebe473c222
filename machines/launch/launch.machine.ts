import { assign, fromCallback, setup } from 'xstate';
import { LAUNCH_AT_MS, type ClockTicked, type LaunchInput } from './launch.types';

/**
 * Countdown to the training start (§4 Launch). The clock is an injected actor, so tests, the
 * visualiser and the browser each drive time their own way. While `running`, the clock sends
 * readings: the first one leaves `syncing` (nothing is known about "now" before it), later ones
 * are recorded; once a reading reaches the launch instant the chart settles in `trainingOpen`
 * for good and the clock stops.
 */
export const launchMachine = setup({
  types: {
    context: {} as { now: number | null; launchAt: number },
    events: {} as ClockTicked,
    input: {} as LaunchInput,
  },
  actors: {
    clock: fromCallback<ClockTicked>(() => {
      throw new Error('clock actor not provided');
    }),
  },
  actions: {
    recordTime: assign({ now: (_, params: { now: number }) => params.now }),
  },
  guards: {
    // Stryker disable next-line ConditionalExpression: in countingDown a reading exists; `!== null` is for the type checker
    isLaunchReached: ({ context }) => context.now !== null && context.now >= context.launchAt,
  },
}).createMachine({
  id: 'launch',
  context: ({ input }) => ({ now: null, launchAt: input.launchAt ?? LAUNCH_AT_MS }),
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
