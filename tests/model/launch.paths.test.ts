import { expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { launchMachine } from '../../machines/launch/launch.machine';
import {
  selectIsSyncing,
  selectIsTrainingOpen,
  selectRemainingMs,
} from '../../machines/launch/launch.selectors';
import { LAUNCH_AT_MS, type ClockTicked } from '../../machines/launch/launch.types';
import {
  checkProperty,
  defineModel,
  testPaths,
  type Driver,
  type Executors,
} from '../support/paths';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

const DAY = 86_400_000;

const model = defineModel({
  name: 'launch',
  machine: launchMachine,
  required: SPEC_TRANSITIONS.launch,
  input: {},
  events: {
    'clock.ticked': [
      { now: LAUNCH_AT_MS - 3 * DAY },
      { now: LAUNCH_AT_MS - 1000 },
      { now: LAUNCH_AT_MS },
      { now: LAUNCH_AT_MS + 60_000 },
    ],
  },
});

/** The launch service with a fake clock: each executor makes the clock send its reading. */
function setup() {
  const clock: { emit: ((event: ClockTicked) => void) | null; stopped: boolean } = {
    emit: null,
    stopped: false,
  };
  const actor = createActor(
    launchMachine.provide({
      actors: {
        clock: fromCallback<ClockTicked>(({ sendBack }) => {
          clock.emit = sendBack;
          clock.stopped = false;
          return () => {
            clock.stopped = true;
          };
        }),
      },
    }),
    { input: {} },
  );
  actor.start();
  return { actor, clock };
}
type Ctx = ReturnType<typeof setup>;

const events = {
  'clock.ticked': ({ ctx, event }) => {
    if (!ctx.clock.emit) throw new Error('the clock actor was never started');
    ctx.clock.emit(event);
  },
} satisfies Executors<typeof model, Ctx>;

const driver: Driver<typeof model, Ctx> = {
  setup,
  teardown: ({ actor }) => {
    actor.stop();
  },
  actual: ({ actor }) => actor.getSnapshot(),
  events,
  states: {
    'running.syncing': ({ ctx }) => {
      expect(selectIsSyncing(ctx.actor.getSnapshot())).toBe(true);
      expect(ctx.clock.stopped).toBe(false);
    },
    'running.countingDown': ({ ctx, snapshot }) => {
      const live = ctx.actor.getSnapshot();
      expect(selectRemainingMs(live)).toBe(selectRemainingMs(snapshot));
      expect(selectRemainingMs(live)).toBeGreaterThan(0);
      expect(ctx.clock.stopped).toBe(false);
    },
    trainingOpen: ({ ctx }) => {
      expect(selectIsTrainingOpen(ctx.actor.getSnapshot())).toBe(true);
      expect(ctx.clock.stopped).toBe(true);
    },
  },
};

testPaths(model, driver);

it('training opens exactly when a clock reading reaches the launch instant, and stays open', () => {
  checkProperty('launch opens only at or after 2025-12-20T00:00:00Z', {
    machine: launchMachine,
    input: {},
    events: model.events.map((e) => e.event),
    maxEvents: 20,
    invariant: ({ snapshot, previous, event }) => {
      const open = snapshot.matches('trainingOpen');
      if (previous?.matches('trainingOpen') && !open) return false;
      if (open && !previous?.matches('trainingOpen')) {
        return event?.type === 'clock.ticked' && event.now >= LAUNCH_AT_MS;
      }
      return !snapshot.matches({ running: 'countingDown' }) || selectRemainingMs(snapshot) > 0;
    },
  });
});
