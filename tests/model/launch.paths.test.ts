import { expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { launchMachine } from '../../machines/launch/launch.machine';
import {
  earlyBirdBadgeAt,
  priceTierNameAt,
  startsHeaderAt,
  trainingStartAt,
} from '../../machines/launch/datedCopy';
import {
  selectDays,
  selectHours,
  selectIsSyncing,
  selectIsTrainingOpen,
  selectMinutes,
  selectNow,
  selectRemainingMs,
  selectSeconds,
} from '../../machines/launch/launch.selectors';
import {
  LAUNCH_AT_MS,
  TRAINING_OPEN_TEXT,
  type ClockTicked,
} from '../../machines/launch/launch.types';
import {
  checkProperty,
  defineModel,
  testPaths,
  type Driver,
  type Executors,
} from '../support/paths';
import {
  README_DATED_TEXTS,
  SPEC_LIMITS,
  SPEC_DATED_TEXTS,
  specCountdownCards,
} from '../support/oracle';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

const DAY = 86_400_000;
const { launchAt, earlyBirdEnd } = SPEC_LIMITS;

const model = defineModel({
  name: 'launch',
  machine: launchMachine,
  required: SPEC_TRANSITIONS.launch,
  input: {},
  events: {
    'clock.ticked': [
      // Before the Early Bird ends; between its end and the start (every card non-zero, a
      // fraction of a second that rounds up); one second before; the instant; after it.
      { now: earlyBirdEnd - 1000 },
      { now: launchAt - (1 * DAY + 2 * 3_600_000 + 3 * 60_000 + 4_500) },
      { now: launchAt - 1000 },
      { now: launchAt },
      { now: launchAt + 60_000 },
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
  return { actor, clock, lastReading: null as number | null };
}
type Ctx = ReturnType<typeof setup>;

const events = {
  'clock.ticked': ({ ctx, event }) => {
    if (!ctx.clock.emit) throw new Error('the clock actor was never started');
    if (!ctx.clock.stopped) ctx.lastReading = event.now;
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
      expectCopy(ctx);
      const s = ctx.actor.getSnapshot();
      expect(selectIsSyncing(s), 'no reading yet: the cards wait').toBe(true);
      expect(selectIsTrainingOpen(s)).toBe(false);
      expect(selectRemainingMs(s)).toBe(0);
      expect(ctx.clock.stopped).toBe(false);
      expect(s.children.clock, 'the clock runs').toBeDefined();
    },
    'running.countingDown': ({ ctx }) => {
      expectCopy(ctx);
      const s = ctx.actor.getSnapshot();
      const left = launchAt - (ctx.lastReading ?? Number.NaN);
      expect(left, 'counting down only before the start').toBeGreaterThan(0);
      expect(selectIsSyncing(s)).toBe(false);
      expect(selectIsTrainingOpen(s)).toBe(false);
      expect(selectRemainingMs(s)).toBe(left);
      expect(cards(ctx), '§2 flip cards: Days, Hours, Minutes, Seconds').toEqual(
        specCountdownCards(left),
      );
      expect(ctx.clock.stopped).toBe(false);
    },
    trainingOpen: ({ ctx }) => {
      expectCopy(ctx);
      const s = ctx.actor.getSnapshot();
      expect(ctx.lastReading, '§4 open only from the start').toBeGreaterThanOrEqual(launchAt);
      expect(selectIsTrainingOpen(s)).toBe(true);
      expect(selectIsSyncing(s)).toBe(false);
      expect(TRAINING_OPEN_TEXT).toBe(SPEC_DATED_TEXTS.trainingOpen);
      expect(cards(ctx)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
      expect(ctx.clock.stopped, 'the clock stops once open').toBe(true);
    },
  },
};

const cards = (ctx: Ctx) => {
  const s = ctx.actor.getSnapshot();
  return {
    days: selectDays(s),
    hours: selectHours(s),
    minutes: selectMinutes(s),
    seconds: selectSeconds(s),
  };
};

/** §2 and §9 dated copy for the last reading (the spec's words before each date, README's after). */
function expectCopy(ctx: Ctx) {
  const now = selectNow(ctx.actor.getSnapshot());
  expect(now, 'the copy reads the last clock reading').toBe(ctx.lastReading);
  const launched = now !== null && now >= launchAt;
  const earlyBirdOver = now !== null && now >= earlyBirdEnd;
  expect(startsHeaderAt(now)).toBe(
    launched ? README_DATED_TEXTS.openSince : SPEC_DATED_TEXTS.startsHeader,
  );
  expect(trainingStartAt(now)).toBe(
    launched ? README_DATED_TEXTS.openSince : SPEC_DATED_TEXTS.trainingStarts,
  );
  expect(earlyBirdBadgeAt(now)).toBe(
    earlyBirdOver ? README_DATED_TEXTS.earlyBirdEnded : SPEC_DATED_TEXTS.earlyBirdBadge,
  );
  expect(priceTierNameAt(now)).toBe(
    launched
      ? README_DATED_TEXTS.tierFromLaunch
      : earlyBirdOver
        ? README_DATED_TEXTS.tierBeforeLaunch
        : null,
  );
}

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
