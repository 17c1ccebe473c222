import { expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { launchMachine } from '../../machines/launch/launch.machine';
import {
  bonusBoxAt,
  priceTierNameAt,
  startsHeaderAt,
  ticketCardAt,
} from '../../machines/launch/datedCopy';
import { trainingStartAt } from '../../machines/launch/receiptCopy';
import {
  calendarFromPublicData,
  SPEC_CALENDAR,
  type LaunchCalendar,
} from '../../contract/calendar';
import {
  selectDays,
  selectHours,
  selectIsSyncing,
  selectIsTrainingOpen,
  selectMinutes,
  selectNow,
  selectSeconds,
} from '../../machines/launch/launch.selectors';
import {
  TRAINING_OPEN_TEXT,
  type CalendarTold,
  type ClockTicked,
} from '../../machines/launch/launch.types';
import {
  actorDriver,
  checkModelProperty,
  defineModel,
  specExpect,
  testPaths,
  withSpecRecord,
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
/** A studio's calendar moves the launch 30 days later and the Early Bird end 10 days earlier. */
const movedLaunch = launchAt + 30 * DAY;
const movedEarlyBirdEnd = earlyBirdEnd - 10 * DAY;

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
      { now: movedLaunch },
    ],
    'launch.calendarTold': [
      // The server's calendar: the launch moved later; only the Early Bird end moved.
      { launchAt: new Date(movedLaunch).toISOString() },
      { earlyBirdEnd: new Date(movedEarlyBirdEnd).toISOString() },
      // Only the invitation date (public_data's invitation_from) moved.
      { invitationFrom: new Date(movedEarlyBirdEnd).toISOString() },
    ],
  },
  // Shortest paths to every (state, calendar, reading) and every transition taken: the simple
  // paths through the calendar's moves back and forth are too many to walk.
  paths: { simple: false, byTransition: true },
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
  return {
    actor,
    clock,
    lastReading: null as number | null,
    calendar: SPEC_CALENDAR as LaunchCalendar,
  };
}
type Ctx = ReturnType<typeof setup>;

const driver = actorDriver(model, {
  setup,
  events: {
    'clock.ticked': ({ ctx, event }) => {
      if (!ctx.clock.emit) throw new Error('the clock actor was never started');
      if (!ctx.clock.stopped) ctx.lastReading = event.now;
      ctx.clock.emit(event);
    },
    'launch.calendarTold': ({ ctx, event }) => {
      const told: CalendarTold = event;
      ctx.calendar = calendarFromPublicData(
        {
          launch_at: told.launchAt,
          early_bird_end: told.earlyBirdEnd,
          invitation_from: told.invitationFrom,
        },
        ctx.calendar,
      );
      ctx.actor.send(told);
    },
  },
  clauses: {
    'running.countingDown': ['§2.home.countdown', '§4.launch.countdown'],
    trainingOpen: ['§4.launch.countdown', '§2.home.trainingOpen'],
  },
  states: {
    'running.syncing': ({ ctx }) => {
      expectCopy(ctx);
      const s = ctx.actor.getSnapshot();
      expect(selectIsSyncing(s), 'no reading yet: the cards wait').toBe(true);
      expect(selectIsTrainingOpen(s)).toBe(false);
      expect(
        s.context.now === null ? 0 : Math.max(0, s.context.calendar.launchAt - s.context.now),
      ).toBe(0);
      expect(ctx.clock.stopped).toBe(false);
      expect(s.children.clock, 'the clock runs').toBeDefined();
    },
    'running.countingDown': ({ ctx }) => {
      expectCopy(ctx);
      const s = ctx.actor.getSnapshot();
      const left = ctx.calendar.launchAt - (ctx.lastReading ?? Number.NaN);
      specExpect(
        '§4.launch.countdown',
        left,
        'ms left: counting down only before the start',
      ).toBeGreaterThan(0);
      expect(selectIsSyncing(s)).toBe(false);
      specExpect('§4.launch.countdown', selectIsTrainingOpen(s), 'Training Open').toBe(false);
      specExpect(
        '§2.home.countdown',
        s.context.now === null ? 0 : Math.max(0, s.context.calendar.launchAt - s.context.now),
        'ms left to the start',
      ).toBe(left);
      specExpect(
        '§2.home.countdown',
        cards(ctx),
        'flip cards: Days, Hours, Minutes, Seconds',
      ).toEqual(specCountdownCards(left));
      expect(ctx.clock.stopped).toBe(false);
    },
    trainingOpen: ({ ctx }) => {
      expectCopy(ctx);
      const s = ctx.actor.getSnapshot();
      specExpect(
        '§4.launch.countdown',
        ctx.lastReading,
        'the clock reading: open only from the start',
      ).toBeGreaterThanOrEqual(ctx.calendar.launchAt);
      specExpect('§4.launch.countdown', selectIsTrainingOpen(s), 'Training Open').toBe(true);
      expect(selectIsSyncing(s)).toBe(false);
      specExpect('§2.home.trainingOpen', TRAINING_OPEN_TEXT, 'the open text').toBe(
        SPEC_DATED_TEXTS.trainingOpen,
      );
      expect(cards(ctx)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
      expect(ctx.clock.stopped, 'the clock stops once open').toBe(true);
    },
  },
});

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
  const snapshot = ctx.actor.getSnapshot();
  const now = selectNow(snapshot);
  expect(now, 'the copy reads the last clock reading').toBe(ctx.lastReading);
  expect(snapshot.context.calendar, 'the calendar told last').toEqual(ctx.calendar);
  const at = { now, calendar: ctx.calendar };
  const moved = ctx.calendar.launchAt !== launchAt;
  const launched = now !== null && now >= ctx.calendar.launchAt;
  const earlyBirdOver = now !== null && now >= ctx.calendar.earlyBirdEnd;
  const day = moved ? 'January 19' : 'December 20';
  expect(startsHeaderAt(at), '§2 hero header').toBe(
    launched ? README_DATED_TEXTS.headerFromLaunch : `Starts ${day}`,
  );
  expect(trainingStartAt(at), '§2 receipt').toBe(
    launched ? README_DATED_TEXTS.receiptFromLaunch(day) : `Training starts ${day}`,
  );
  const endDay = ctx.calendar.earlyBirdEnd === earlyBirdEnd ? 'Nov 20' : 'Nov 10';
  expect(ticketCardAt(at), '§2 ticket card').toEqual(
    earlyBirdOver
      ? {
          title: README_DATED_TEXTS.ticketCard,
          badge: launched ? README_DATED_TEXTS.tierFromLaunch : README_DATED_TEXTS.tierBeforeLaunch,
        }
      : { title: 'Early Bird Entry', badge: `Until ${endDay}` },
  );
  expect(priceTierNameAt(at), '§9 price by date').toBe(
    launched
      ? README_DATED_TEXTS.tierFromLaunch
      : earlyBirdOver
        ? README_DATED_TEXTS.tierBeforeLaunch
        : README_DATED_TEXTS.tierEarlyBird,
  );
  expect(bonusBoxAt(at).title, '§2 bonus box').toBe(
    earlyBirdOver ? README_DATED_TEXTS.bonusAfterEarlyBird : 'Early Bird bonus',
  );
}

/**
 * §4 Launch from the events alone: no reading yet, counting down, or Training Open, against the
 * spec's two instants (Date.UTC in the oracle: no zone to misread) until a calendar is told; a
 * told instant is read with the zone it is written with.
 */
type LaunchRecord = {
  phase: 'syncing' | 'countingDown' | 'open';
  now: number | null;
  launchAt: number;
  earlyBirdEnd: number;
};
const judged = (x: LaunchRecord): LaunchRecord =>
  x.now === null ? x : { ...x, phase: x.now >= x.launchAt ? 'open' : 'countingDown' };
const instantOf = (text: string | undefined, fallback: number): number => {
  const ms = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isFinite(ms) ? ms : fallback;
};

const withRecord = withSpecRecord(model, driver, {
  clauses: ['§4.launch.countdown', '§1.launch.date', '§9.earlyBird'],
  start: (): LaunchRecord => ({ phase: 'syncing', now: null, launchAt, earlyBirdEnd }),
  next: (x, event): LaunchRecord => {
    if (event.type === 'clock.ticked')
      // Once open the clock is stopped: a reading it no longer sends changes nothing.
      return x.phase === 'open' ? x : judged({ ...x, now: event.now });
    const moved = instantOf(event.launchAt, x.launchAt);
    const end = Math.min(instantOf(event.earlyBirdEnd, x.earlyBirdEnd), moved);
    return judged({ ...x, launchAt: moved, earlyBirdEnd: end });
  },
  check: (ctx, x) => {
    const s = ctx.actor.getSnapshot();
    const iso = (ms: number) => new Date(ms).toISOString();
    specExpect('§1.launch.date', iso(s.context.calendar.launchAt), 'the training start').toBe(
      iso(x.launchAt),
    );
    specExpect('§9.earlyBird', iso(s.context.calendar.earlyBirdEnd), 'the Early Bird end').toBe(
      iso(x.earlyBirdEnd),
    );
    specExpect('§4.launch.countdown', selectIsTrainingOpen(s), 'Training Open').toBe(
      x.phase === 'open',
    );
    expect(selectIsSyncing(s), 'waiting for a first reading').toBe(x.phase === 'syncing');
    specExpect(
      '§2.home.countdown',
      s.context.now === null ? 0 : Math.max(0, s.context.calendar.launchAt - s.context.now),
      'ms left to the start',
    ).toBe(x.phase === 'countingDown' && x.now !== null ? x.launchAt - x.now : 0);
  },
});

testPaths(model, withRecord);

it('training opens exactly when a clock reading reaches the launch instant, and stays open until the launch moves later', () => {
  checkModelProperty('launch opens only at or after the calendar launch instant', model, {
    input: {},
    maxEvents: 20,
    invariant: ({ snapshot, previous, event }) => {
      const open = snapshot.matches('trainingOpen');
      const { now, calendar } = snapshot.context;
      if (previous?.matches('trainingOpen') && !open) {
        return event?.type === 'launch.calendarTold' && now !== null && now < calendar.launchAt;
      }
      if (open && !previous?.matches('trainingOpen')) {
        return event?.type === 'clock.ticked' && event.now >= calendar.launchAt;
      }
      return (
        !snapshot.matches({ running: 'countingDown' }) ||
        (snapshot.context.now === null
          ? 0
          : Math.max(0, snapshot.context.calendar.launchAt - snapshot.context.now)) > 0
      );
    },
  });
});
