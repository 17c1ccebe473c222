import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initialTransition, transition, type EventFromLogic } from 'xstate';
import { EMPTY_STORED } from '../../machines/shared/stored';
import { signInMachine } from '../../machines/signIn/signIn.machine';
import {
  selectCanResend,
  selectResendLabel,
  type SignInSnapshot,
} from '../../machines/signIn/signIn.selectors';
import { SPEC_MESSAGES, SPEC_TIMERS } from '../support/oracle';
import { assertProperty, propertyRuns } from '../support/paths';
import { session } from '../support/signIn/fakes';

/**
 * Properties over random sequences of player intents, server answers and passing time, folded
 * through the pure transition function. The server is an oracle: a code verifies only when it is
 * RIGHT. Time passes in whole seconds; the chart's named delays fire when their time is due.
 */
const RIGHT = '271828';
const RESEND_SECONDS_SPEC = SPEC_TIMERS.resendCooldown / 1000;
type Event = EventFromLogic<typeof signInMachine>;
type Step =
  | { kind: 'intent'; event: Event }
  | { kind: 'answer'; ok: boolean; telegram: boolean }
  | { kind: 'wait'; seconds: number };

const digit = fc.constantFrom(...'0123456789x'.split(''));
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const intent: fc.Arbitrary<Step> = fc
  .oneof(
    w(2, fc.constant<Event>({ type: 'signIn.open' })),
    w(1, fc.constant<Event>({ type: 'signIn.close' })),
    w(
      2,
      fc
        .constantFrom('don@example.com', 'nope', '', 'a@b')
        .map<Event>((email) => ({ type: 'signIn.emailChanged', email })),
    ),
    w(2, fc.constant<Event>({ type: 'signIn.submitEmail' })),
    w(
      2,
      fc
        .record({ index: fc.integer({ min: -1, max: 6 }), digit })
        .map<Event>((p) => ({ type: 'signIn.digitEntered', ...p })),
    ),
    w(
      1,
      fc.integer({ min: 0, max: 5 }).map<Event>((index) => ({ type: 'signIn.digitErased', index })),
    ),
    w(
      3,
      fc
        .oneof(fc.constant(RIGHT), fc.stringMatching(/^[0-9 -]{0,8}$/))
        .map<Event>((text) => ({ type: 'signIn.codePasted', text })),
    ),
    w(3, fc.constant<Event>({ type: 'signIn.verify' })),
    w(2, fc.constant<Event>({ type: 'signIn.resend' })),
    w(1, fc.constant<Event>({ type: 'signIn.changeEmail' })),
    w(1, fc.constant<Event>({ type: 'signIn.telegramOpened' })),
    w(1, fc.constant<Event>({ type: 'signIn.backToEmail' })),
  )
  .map((event) => ({ kind: 'intent', event }));
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: intent, weight: 6 },
  {
    arbitrary: fc
      .record({ ok: fc.boolean(), telegram: fc.boolean() })
      .map<Step>((a) => ({ kind: 'answer', ...a })),
    weight: 2,
  },
  {
    arbitrary: fc.constantFrom(1, 7, 30).map<Step>((seconds) => ({ kind: 'wait', seconds })),
    weight: 2,
  },
);

/** A way into the code step and a verification that many runs start with (random sequences
 * rarely find them on their own). */
const HAPPY_START: Step[] = [
  { kind: 'intent', event: { type: 'signIn.open' } },
  { kind: 'intent', event: { type: 'signIn.emailChanged', email: 'don@example.com' } },
  { kind: 'intent', event: { type: 'signIn.submitEmail' } },
  { kind: 'answer', ok: true, telegram: false },
  { kind: 'intent', event: { type: 'signIn.codePasted', text: RIGHT } },
  { kind: 'intent', event: { type: 'signIn.verify' } },
];
const sequence = fc
  .tuple(
    fc.integer({ min: 0, max: HAPPY_START.length }),
    fc.array(step, { maxLength: 80, size: 'max' }),
  )
  .map(([n, tail]) => [...HAPPY_START.slice(0, n), ...tail]);

const coolingDown = (s: SignInSnapshot) => s.matches({ open: { code: { resend: 'coolingDown' } } });
const emailCountdown = (s: SignInSnapshot) =>
  s.matches({ open: { email: { cooldown: 'running' } } });
const input = { stored: { ...EMPTY_STORED, codeInvite: 'abCD12' } };

function run(steps: Step[]) {
  let [s] = initialTransition(signInMachine, input);
  let clock = 0;
  /** When the last code went out (§4, §9: resend 30 s after it), while the modal stays open. */
  let codeSentAt: number | null = null;
  let codeSentTo: string | null = null;
  let verifiedCode: string | null = null;
  let handedOver = 0;
  let sawCodeStep = false;
  let resent = false;

  const send = (event: Event | { type: string; [k: string]: unknown }) => {
    const before = s;
    [s] = transition(signInMachine, s, event as Event);
    if (
      event.type === 'xstate.done.actor.sendCode' ||
      event.type === 'xstate.done.actor.resendCode'
    ) {
      codeSentAt = clock;
      codeSentTo = before.context.email.trim();
    }
    // A new modal, or a code used up by a verification, leaves no countdown behind.
    if (s.matches('open') && (before.matches('closed') || s.matches({ open: 'telegram' })))
      codeSentAt = codeSentTo = null;
    return before;
  };
  const secondsLeft = () =>
    codeSentAt === null ? 0 : Math.max(0, RESEND_SECONDS_SPEC - (clock - codeSentAt));

  for (const st of steps) {
    if (st.kind === 'intent') {
      if (!s.can(st.event)) continue;
      const before = send(st.event);
      // Continue with the address of a code whose countdown runs: no request, back to its step.
      if (
        st.event.type === 'signIn.submitEmail' &&
        before.context.email.trim() === codeSentTo &&
        secondsLeft() > 0
      ) {
        expect(s.matches({ open: 'code' })).toBe(true);
        expect(s.context.resendSecondsLeft).toBe(secondsLeft());
      }
      const leftTelegram =
        before.matches({ open: 'telegram' }) &&
        (st.event.type === 'signIn.telegramOpened' || st.event.type === 'signIn.close');
      if (leftTelegram) handedOver += 1;
    } else if (st.kind === 'answer') {
      if (s.matches({ open: { email: { form: 'sendingCode' } } })) {
        send(
          st.ok
            ? { type: 'xstate.done.actor.sendCode', output: { inviteCode: 'abCD12' } }
            : { type: 'xstate.error.actor.sendCode', error: { message: 'Network down' } },
        );
      } else if (s.matches({ open: { code: { resend: 'resendingCode' } } })) {
        send(
          st.ok
            ? { type: 'xstate.done.actor.resendCode', output: { inviteCode: 'abCD12' } }
            : { type: 'xstate.error.actor.resendCode', error: { message: 'Network down' } },
        );
      } else if (s.matches({ open: { code: { entry: 'verifying' } } })) {
        const code = s.context.digits.join('');
        if (code === RIGHT) {
          const before = send({
            type: 'xstate.done.actor.verifyCode',
            output: session(st.telegram ? { user_telegram_link: 'https://t.me/x' } : {}),
          });
          verifiedCode = before.context.digits.join('');
          if (s.matches('closed')) handedOver += 1;
        } else {
          send({
            type: 'xstate.error.actor.verifyCode',
            error: { kind: 'http', message: 'HTTP 400' },
          });
          expect(s.context.digits.join('')).toBe('');
          expect(s.context.notice?.text).toBe(SPEC_MESSAGES.verifyFailed);
        }
      }
    } else {
      for (let i = 0; i < st.seconds; i += 1) {
        clock += 1;
        const done = secondsLeft() === 0;
        if (coolingDown(s)) {
          send({
            type: done
              ? 'xstate.after.resendCooldown.signIn.open.code.resend.coolingDown'
              : 'xstate.after.resendTick.signIn.open.code.resend.coolingDown.counting',
          });
        } else if (emailCountdown(s)) {
          send({
            type: done
              ? 'xstate.after.resendCooldown.signIn.open.email.cooldown.running'
              : 'xstate.after.resendTick.signIn.open.email.cooldown.running.counting',
          });
        }
      }
    }

    if (s.matches({ open: 'code' })) sawCodeStep = true;
    if (s.matches({ open: { code: { resend: 'resendingCode' } } })) resent = true;
    // Invariants after every step.
    const canResend = selectCanResend(s);
    expect(canResend).toBe(
      s.matches({ open: { code: { resend: 'ready', entry: 'awaitingCode' } } }),
    );
    expect(coolingDown(s) || emailCountdown(s) ? s.context.resendSecondsLeft : 0).toBe(
      s.matches({ open: 'code' }) || s.matches({ open: 'email' }) ? secondsLeft() : 0,
    );
    if (coolingDown(s)) {
      const left = secondsLeft();
      expect(s.context.resendSecondsLeft).toBe(left);
      expect(selectResendLabel(s)).toBe(`Resend in ${left}s`);
      expect(canResend).toBe(false);
    }
    if (verifiedCode !== null) expect(verifiedCode).toBe(RIGHT);
    if (s.matches({ open: 'telegram' })) expect(s.context.pending).not.toBeNull();
    else expect(s.context.pending).toBeNull();
  }
  return { handedOver, verifiedCode, sawCodeStep, resent };
}

describe('sign-in properties', () => {
  it('only the right code verifies; resend is possible exactly when the chart allows it', () => {
    const reached = { codeStep: 0, resent: 0, handedOver: 0 };
    assertProperty(
      'signIn: only the right code verifies; resend exactly when allowed',
      fc.property(sequence, (steps) => {
        const result = run(steps);
        // Nothing is handed to the auth service without a verified (right) code.
        if (result.handedOver > 0) expect(result.verifiedCode).toBe(RIGHT);
        if (result.sawCodeStep) reached.codeStep += 1;
        if (result.resent) reached.resent += 1;
        if (result.handedOver > 0) reached.handedOver += 1;
      }),
    );
    // The random sequences do reach the interesting parts of the chart.
    console.log(`signIn property coverage: ${JSON.stringify(reached)}`);
    if (propertyRuns() >= 100) {
      expect(reached.codeStep).toBeGreaterThan(0);
      expect(reached.resent).toBeGreaterThan(0);
      expect(reached.handedOver).toBeGreaterThan(0);
    }
  });

  it('a scripted sign-in reaches the hand-over with the right code only', () => {
    const wrong = run([
      { kind: 'intent', event: { type: 'signIn.open' } },
      { kind: 'intent', event: { type: 'signIn.emailChanged', email: 'don@example.com' } },
      { kind: 'intent', event: { type: 'signIn.submitEmail' } },
      { kind: 'answer', ok: true, telegram: false },
      { kind: 'intent', event: { type: 'signIn.codePasted', text: '000000' } },
      { kind: 'intent', event: { type: 'signIn.verify' } },
      { kind: 'answer', ok: true, telegram: false },
    ]);
    expect(wrong.handedOver).toBe(0);
    const right = run([
      { kind: 'intent', event: { type: 'signIn.open' } },
      { kind: 'intent', event: { type: 'signIn.emailChanged', email: 'don@example.com' } },
      { kind: 'intent', event: { type: 'signIn.submitEmail' } },
      { kind: 'answer', ok: true, telegram: false },
      { kind: 'wait', seconds: 30 },
      { kind: 'intent', event: { type: 'signIn.codePasted', text: RIGHT } },
      { kind: 'intent', event: { type: 'signIn.verify' } },
      { kind: 'answer', ok: true, telegram: false },
    ]);
    expect(right.handedOver).toBe(1);
  });
});
