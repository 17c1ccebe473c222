import { describe, expect, it } from 'vitest';
import {
  assign,
  createActor,
  createMachine,
  fromCallback,
  initialTransition,
  transition,
  type AnyActorRef,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
} from 'xstate';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { launchMachine } from '../../machines/launch/launch.machine';
import { selectIsTrainingOpen } from '../../machines/launch/launch.selectors';
import { notificationsMachine } from '../../machines/notifications/notifications.machine';
import { selectQueuedCount } from '../../machines/notifications/notifications.selectors';
import { EMPTY_STORED } from '../../machines/shared/stored';
import { signInMachine } from '../../machines/signIn/signIn.machine';
import { selectNoticeText } from '../../machines/signIn/signIn.selectors';
import type { SignInNotice } from '../../machines/signIn/signIn.types';
import { themeMachine } from '../../machines/theme/theme.machine';
import { EMAIL_EDGES, SPEC_LIMITS, SPEC_MESSAGES } from '../support/oracle';
import {
  actorProbe,
  advanceSpecDelay,
  controllable,
  coverageProblems,
  defineModel,
  failureHeadline,
  runPath,
  specExpect,
  StepError,
  type Driver,
  type GeneratedPath,
  type OutcomeType,
  type PathModel,
  type SpecTransition,
} from '../support/paths';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

/**
 * The path harness against planted faults: a timer, a limit, a message and a transition, each
 * planted in a copy of a machine (provide, input, or a changed config), never in machines/. Each
 * run must fail, and the first line of the failure must name the clause the fault breaks and
 * expected/actual in the spec's words: what QA read first.
 */

type AnyPath = GeneratedPath<AnyStateMachine, OutcomeType>;
type AnyModel = PathModel<AnyStateMachine, OutcomeType>;
type Ctx = { actor: AnyActorRef; sent: number };

/** A path through the spec's chart by the given events (labels as the generator prints them). */
function pathOf(
  machine: AnyStateMachine,
  input: unknown,
  events: { event: AnyEventObject; label: string }[],
): AnyPath {
  let [snapshot] = initialTransition(machine, input as never) as [AnyMachineSnapshot, unknown];
  const initial = snapshot;
  const steps = events.map(({ event, label }) => {
    [snapshot] = transition(machine, snapshot, event) as [AnyMachineSnapshot, unknown];
    return { event, label, snapshot };
  });
  return { description: 'planted fault', input, initial, steps, clauses: [] } as AnyPath;
}

/** Runs the path against the driver and returns the first line of its failure. */
async function firstLine(
  machine: AnyStateMachine,
  required: readonly SpecTransition[],
  path: AnyPath,
  driver: {
    setup: () => Ctx;
    events: Record<string, (args: { ctx: Ctx; event: AnyEventObject }) => unknown>;
    states?: Record<string, (args: { ctx: Ctx }) => void>;
    actual?: boolean;
  },
): Promise<string> {
  const full = {
    setup: driver.setup,
    teardown: (ctx: Ctx) => void ctx.actor.stop(),
    events: driver.events,
    states: driver.states,
    actual: driver.actual === false ? undefined : (ctx: Ctx) => ctx.actor.getSnapshot(),
  } as unknown as Driver<AnyModel, Ctx>;
  const model = { machine, spec: { required } } as unknown as AnyModel;
  const error = await runPath(model, path, full).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'the planted fault must fail the path').toBeInstanceOf(StepError);
  const line = failureHeadline((error as StepError).failure);
  console.log(`planted fault → ${line}`);
  expect(line.length, 'the first line of a failure stays under 200 characters').toBeLessThan(200);
  return line;
}

describe('a planted fault fails with its clause and expected/actual in the spec words', () => {
  it('a timer: "Copied!" for 1.9 s instead of 2 s', async () => {
    const write = controllable<void, { text: string }>();
    const faulty = copyFeedbackMachine.provide({
      actors: { writeClipboard: write.logic },
      delays: { copyFeedback: 1900 },
    });
    const path = pathOf(copyFeedbackMachine, undefined, [
      { event: { type: 'copyFeedback.copy', text: 'x' }, label: 'copyFeedback.copy' },
      {
        event: { type: 'xstate.done.actor.writeClipboard', actorId: 'writeClipboard' },
        label: 'writeClipboard done',
      },
      {
        event: { type: 'xstate.after.copyFeedback.copyFeedback.copied' },
        label: 'after copyFeedback',
      },
    ]);
    const line = await firstLine(copyFeedbackMachine, SPEC_TRANSITIONS.copyFeedback, path, {
      setup: () => ({ actor: createActor(faulty).start(), sent: 0 }),
      events: {
        'copyFeedback.copy': ({ ctx, event }) => ctx.actor.send(event),
        'xstate.done.actor.writeClipboard': () => write.resolve(),
        'xstate.after.copyFeedback.copyFeedback.copied': ({ ctx, event }) =>
          advanceSpecDelay(event.type, actorProbe(ctx.actor)),
      },
    });
    expect(line).toMatch(
      /^§9\.timers\.copy \(copy feedback 2 s\) — step 3 of 3: after copyFeedback \(\+2000 ms\) — /,
    );
    expect(line).toContain('expected nothing changes before 2000 ms');
    expect(line).toContain('actual changed before 2000 ms');
  });

  it('a limit: 98 notifications kept waiting instead of 99', async () => {
    const input = { queueCap: SPEC_LIMITS.notificationQueueCap - 1 };
    const show = { type: 'notify.show', message: 'hello', messageType: 'info' };
    const path = pathOf(notificationsMachine, { queueCap: SPEC_LIMITS.notificationQueueCap }, [
      { event: show, label: 'notify.show' },
    ]);
    const line = await firstLine(notificationsMachine, SPEC_TRANSITIONS.notifications, path, {
      setup: () => ({ actor: createActor(notificationsMachine, { input }).start(), sent: 0 }),
      events: {
        // One shows, 100 more are queued: §4 keeps the newest 99.
        'notify.show': ({ ctx }) => {
          for (let i = 0; i <= 100; i++) ctx.actor.send({ ...show, message: `n${i}` });
          ctx.sent = 101;
        },
      },
      states: {
        'toast.showing': ({ ctx }) =>
          specExpect(
            '§4.notify.cap',
            selectQueuedCount(ctx.actor.getSnapshot()),
            `notifications waiting after ${ctx.sent} were shown`,
          ).toBe(Math.min(ctx.sent - 1, SPEC_LIMITS.notificationQueueCap)),
      },
      actual: false,
    });
    expect(line).toBe(
      '§4.notify.cap (at most 99 queued (older ones dropped)) — step 1 of 1: notify.show — notifications waiting after 101 were shown: expected 99, actual 98',
    );
  });

  it("a message: 'Please enter a valid e-mail address.' instead of §5's words", async () => {
    const faulty = signInMachine.provide({
      actions: {
        showNotice: assign((_, notice: SignInNotice) => ({
          notice: { ...notice, text: notice.text.replace('enter valid', 'enter a valid') },
        })),
      },
    });
    const input = { stored: EMPTY_STORED };
    const path = pathOf(signInMachine, input, [
      { event: { type: 'signIn.open' }, label: 'signIn.open' },
      {
        event: { type: 'signIn.emailChanged', email: EMAIL_EDGES.invalid[1] },
        label: 'signIn.emailChanged',
      },
      { event: { type: 'signIn.submitEmail' }, label: 'signIn.submitEmail' },
    ]);
    const line = await firstLine(signInMachine, SPEC_TRANSITIONS.signIn, path, {
      setup: () => ({ actor: createActor(faulty, { input }).start(), sent: 0 }),
      events: {
        'signIn.open': ({ ctx, event }) => ctx.actor.send(event),
        'signIn.emailChanged': ({ ctx, event }) => ctx.actor.send(event),
        'signIn.submitEmail': ({ ctx, event }) => {
          ctx.actor.send(event);
          ctx.sent = 1;
        },
      },
      states: {
        'open.email': ({ ctx }) => {
          if (ctx.sent)
            specExpect(
              '§5.email',
              selectNoticeText(ctx.actor.getSnapshot()),
              `the message for '${EMAIL_EDGES.invalid[1]}'`,
            ).toBe(SPEC_MESSAGES.invalidEmail);
        },
      },
    });
    expect(line).toBe(
      // Too long with the clause's title (254 characters): the title moves to the lines below.
      `§5.email — step 3 of 3: signIn.submitEmail — the message for 'a@b': expected 'Please enter valid e-mail address.', actual 'Please enter a valid e-mail address.'`,
    );
  });

  it('a transition: the theme cycles auto → dark instead of auto → light', async () => {
    const config = themeMachine.config as { states: Record<string, object> };
    const faulty = createMachine(
      {
        ...(config as object),
        states: {
          ...config.states,
          auto: { ...config.states.auto, on: { 'theme.cycle': { target: 'dark' } } },
        },
      } as never,
      themeMachine.implementations as never,
    ) as AnyStateMachine;
    // The faulty chart's own paths: coverage names the clause of the transition it lost.
    const model = defineModel({
      name: 'theme',
      machine: faulty,
      required: SPEC_TRANSITIONS.theme,
      input: { stored: EMPTY_STORED },
      events: { 'theme.cycle': [{}] },
    } as never);
    const problems = coverageProblems(model as unknown as AnyModel);
    console.log(`planted fault → ${problems[0]}`);
    expect(problems[0]).toMatch(
      /^§4\.theme\.cycle \(theme cycle: light, dark, auto, then light again; stored; default auto\): spec transition walked by no path: /,
    );
    expect(problems).toContain(
      '§4.theme.cycle (theme cycle: light, dark, auto, then light again; stored; default auto): spec transition walked by no path: auto ─theme.cycle→ light (spec: §4 theme cycle: auto, then light again)',
    );
    // The spec's path run against the faulty actor: the step names the clause too.
    const input = { stored: { ...EMPTY_STORED, theme: 'auto' } };
    const path = pathOf(themeMachine, input, [
      { event: { type: 'theme.cycle' }, label: 'theme.cycle' },
    ]);
    const line = await firstLine(themeMachine, SPEC_TRANSITIONS.theme, path, {
      setup: () => ({
        actor: createActor(faulty.provide({ actions: { applyTheme: () => {} } }), {
          input,
        }).start(),
        sent: 0,
      }),
      events: { 'theme.cycle': ({ ctx, event }) => ctx.actor.send(event) },
    });
    expect(line).toBe(
      '§4.theme.cycle (theme cycle: light, dark, auto, then light again; stored; default auto) — step 1 of 1: theme.cycle — the state: expected in state light, actual in state dark',
    );
  });

  it('a boundary: training opens 1 ms after the launch instead of at it', async () => {
    const { launchAt } = SPEC_LIMITS;
    const stillClock = fromCallback(() => () => {}) as never;
    const faulty = launchMachine.provide({
      actors: { clock: stillClock },
      guards: {
        isLaunchReached: ({ context }) =>
          context.now !== null && context.now > context.calendar.launchAt,
      },
    });
    const path = pathOf(launchMachine.provide({ actors: { clock: stillClock } }), {}, [
      { event: { type: 'clock.ticked', now: launchAt - 1000 }, label: 'clock.ticked' },
      { event: { type: 'clock.ticked', now: launchAt }, label: 'clock.ticked' },
    ]);
    const line = await firstLine(launchMachine, SPEC_TRANSITIONS.launch, path, {
      setup: () => ({ actor: createActor(faulty, { input: {} }).start(), sent: 0 }),
      events: {
        'clock.ticked': ({ ctx, event }) => {
          ctx.actor.send(event);
          ctx.sent = (event as unknown as { now: number }).now;
        },
      },
      states: {
        trainingOpen: ({ ctx }) =>
          specExpect(
            '§4.launch.countdown',
            selectIsTrainingOpen(ctx.actor.getSnapshot()),
            `Training Open at ${new Date(ctx.sent).toISOString()}`,
          ).toBe(true),
      },
      actual: false,
    });
    expect(line).toBe(
      '§4.launch.countdown (countdown until 2025-12-20T00:00:00Z, then the Training Open state) — step 2 of 2: clock.ticked — Training Open at 2025-12-20T00:00:00.000Z: expected true, actual false',
    );
  });
});
