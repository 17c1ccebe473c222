// @vitest-environment happy-dom
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect } from 'vitest';
import { assign } from 'xstate';
import { EMPTY_STORED } from '../../machines/shared/stored';
import { signInMachine } from '../../machines/signIn/signIn.machine';
import {
  selectCanResend,
  selectCanVerify,
  selectCodeComplete,
  selectDigit,
  selectEmail,
  selectInviteCodeShown,
  selectIsOpen,
  selectIsResending,
  selectIsSending,
  selectIsVerifying,
  selectNoticeText,
  selectResendLabel,
  selectStep,
  selectTelegramLink,
} from '../../machines/signIn/signIn.selectors';
import type {
  SendCodeInput,
  VerifyCodeInput,
  VerifyCodeOutput,
} from '../../machines/signIn/signIn.types';
import { SignInModalView } from '../../src/views/signIn/SignInModal';
import {
  CODE_EDGES,
  EMAIL_EDGES,
  isSpecCode,
  isSpecEmail,
  SPEC_MESSAGES,
  SPEC_TIMERS,
} from '../support/oracle';
import {
  actorProbe,
  advanceExactly,
  defineModel,
  settle,
  specExpect,
  systemDriver,
  testPaths,
  type AnyExecutor,
  type Executors,
} from '../support/paths';
import { session, startSignInSystem } from '../support/signIn/fakes';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

/**
 * Generated paths of the sign-in machine (§2 Sign-in modal, §4 Sign-in steps, §5, §8), run
 * against the machine as an actor and against the rendered modal.
 *
 * The model counts the resend cooldown down from 2 instead of 30: the per-second tick is the same
 * transition, and 30 distinct counters would only multiply the graph's vertices by 15 without
 * reaching anything new. The drivers run the real machine (30 s) and check the real countdown
 * against the fake clock.
 */
const MODEL_SECONDS = 2;
const modelMachine = signInMachine.provide({
  actions: {
    startCountdown: assign({ resendSecondsLeft: MODEL_SECONDS }),
    // Ticks stop at 1 in the model: only the end of the countdown (its own delay) reaches 0, as
    // in the real chart, where the 30th second ends the countdown before its tick.
    tickCountdown: assign({
      resendSecondsLeft: ({ context }) => Math.max(1, context.resendSecondsLeft - 1),
    }),
  },
});
const input = { stored: { ...EMPTY_STORED, codeInvite: 'abCD12' } };
const TELEGRAM = 'https://t.me/smw_bot?start=abc';
const RESEND_TICK = 'xstate.after.resendTick.signIn.open.code.resend.coolingDown.counting';
const RESEND_COOLDOWN = 'xstate.after.resendCooldown.signIn.open.code.resend.coolingDown';
const EMAIL_TICK = 'xstate.after.resendTick.signIn.open.email.cooldown.running.counting';
const EMAIL_COOLDOWN = 'xstate.after.resendCooldown.signIn.open.email.cooldown.running';
/** The server refuses a code request inside the countdown (429 with Retry-After). */
const REFUSED = {
  kind: 'http',
  message: 'Please wait 2 s before requesting a new code.',
  serverMessage: 'Please wait 2 s before requesting a new code.',
  status: 429,
  retryAfterSeconds: MODEL_SECONDS,
};

const model = defineModel({
  name: 'signIn',
  machine: modelMachine,
  required: SPEC_TRANSITIONS.signIn,
  input,
  events: {
    'signIn.open': [{}],
    'signIn.close': [{}],
    // Another tab signed the player in (the auth service tells this tab's dialog).
    'signIn.signedInElsewhere': [{}],
    // §5's pattern at its edges: the shortest valid address, and one without a dot after the @.
    'signIn.emailChanged': [{ email: EMAIL_EDGES.valid[1] }, { email: EMAIL_EDGES.invalid[1] }],
    'signIn.submitEmail': [{}],
    'signIn.digitEntered': [{ index: 5, digit: '6' }],
    'signIn.digitErased': [{ index: 5 }],
    // 5, 6 and 7 digits: only six fill the boxes; a seventh is cut off.
    'signIn.codePasted': [
      { text: CODE_EDGES.short },
      { text: CODE_EDGES.valid },
      { text: CODE_EDGES.long },
    ],
    'signIn.verify': [{}],
    'signIn.resend': [{}],
    'signIn.changeEmail': [{}],
    'signIn.telegramOpened': [{}],
    'signIn.backToEmail': [{}],
    // A code stored from an invite link while the modal is open: it replaces the active one.
    'inviteCode.stored': [{ code: 'Friend30' }],
  },
  outcomes: {
    // The code that went out with the request, or none (a fallback went out: the code stays).
    'xstate.done.actor.sendCode': [
      { output: { inviteCode: 'abCD12' } },
      { output: { inviteCode: null } },
    ],
    'xstate.error.actor.sendCode': [
      { error: { kind: 'network', message: 'Network down' } },
      { error: REFUSED },
    ],
    'xstate.done.actor.resendCode': [{ output: { inviteCode: 'abCD12' } }],
    'xstate.error.actor.resendCode': [
      { error: { kind: 'network', message: 'Network down' } },
      { error: REFUSED },
    ],
    'xstate.done.actor.verifyCode': [
      { output: session() },
      { output: session({ user_telegram_link: TELEGRAM }) },
    ],
    'xstate.error.actor.verifyCode': [
      { error: { kind: 'http', message: 'HTTP 400', serverMessage: 'Invalid code' } },
    ],
    [RESEND_COOLDOWN]: [{}],
    [RESEND_TICK]: [{}],
    [EMAIL_COOLDOWN]: [{}],
    [EMAIL_TICK]: [{}],
  },
  paths: { simple: false, maxPaths: 1500 },
  uncovered: {
    'signIn.open.code.entry.awaitingCode · signIn.verify [isResending] → (no target)':
      'Verify is ignored while a resend is in flight (s.can is false, so no path sends it); tests/unit/signIn.machine.test.ts checks that no verification starts',
  },
});

type Step = 'closed' | 'email' | 'code' | 'telegram';
type Notice = { type: 'error' | 'info'; text: string };

/**
 * What §2, §4, §5 and §8 say the modal shows and does, kept by the test from the events alone
 * (never read from the machine): the step and what is in flight, the address, the six boxes,
 * the invite code, the message, every request sent, the banners and the sessions handed over.
 */
type Expected = {
  step: Step;
  sending: boolean;
  verifying: boolean;
  resending: boolean;
  email: string;
  digits: string[];
  inviteCode: string | null;
  notice: Notice | null;
  pending: VerifyCodeOutput | null;
  sends: SendCodeInput[];
  verifies: VerifyCodeInput[];
  signIns: object[];
  banners: object[];
};

const EMPTY_BOXES = ['', '', '', '', '', ''];
/** §2/§5: a pasted text fills the six boxes with its first six digits. */
const boxesOf = (text: string) =>
  EMPTY_BOXES.map((_, i) => text.replace(/[^0-9]/g, '').slice(0, 6)[i] ?? '');

function expected(): Expected {
  return {
    step: 'closed',
    sending: false,
    verifying: false,
    resending: false,
    email: '',
    digits: [...EMPTY_BOXES],
    inviteCode: input.stored.codeInvite,
    notice: null,
    pending: null,
    sends: [],
    verifies: [],
    signIns: [],
    banners: [],
  };
}

/** §8: a message of the flow shows in the modal and on the information banner. */
function notify(x: Expected, text: string) {
  x.notice = { type: 'error', text };
  x.banners.push({ type: 'info.show', message: text, messageType: 'error' });
}

/** The verified session goes to the auth service: the player is signed in. */
function handOver(x: Expected, session: VerifyCodeOutput | null) {
  if (!session) return;
  const { jwt, refreshToken, userData } = session;
  x.signIns.push({ type: 'auth.signedIn', jwt, refreshToken, userData });
  // The signed-out page's message does not follow the player into the signed-in home.
  x.banners.push({ type: 'info.dismiss' });
}

type Failure = { message?: string; serverMessage?: string; retryAfterSeconds?: number };
const failureOf = (error: unknown) => error as Failure;

type ModelEventOf = Parameters<AnyExecutor<typeof model, Ctx>>[0]['event'];

/** The spec's rules, one event at a time, applied to the expectation before the event happens. */
function apply(ctx: Ctx, event: ModelEventOf) {
  const x = ctx.x;
  const onEmailStep = x.step === 'email' && !x.sending;
  const onCodeStep = x.step === 'code' && !x.verifying;
  switch (event.type) {
    case 'signIn.open':
      if (x.step !== 'closed') return;
      Object.assign(x, { step: 'email', notice: null, digits: [...EMPTY_BOXES], pending: null });
      forgetCode(ctx);
      return;
    case 'signIn.close':
      if (x.step === 'closed') return;
      if (x.step === 'telegram') handOver(x, x.pending);
      Object.assign(x, { step: 'closed', notice: null, pending: null });
      Object.assign(x, { sending: false, verifying: false, resending: false });
      return;
    case 'signIn.signedInElsewhere':
      // Signed in by another tab: the dialog closes whatever its step; a session held for the
      // Telegram step is not handed over (the other tab's stands).
      if (x.step === 'closed') return;
      Object.assign(x, { step: 'closed', notice: null, pending: null });
      Object.assign(x, { sending: false, verifying: false, resending: false });
      return;
    case 'signIn.emailChanged':
      if (onEmailStep) Object.assign(x, { email: event.email, notice: null });
      return;
    case 'signIn.submitEmail': {
      if (!onEmailStep) return;
      const email = x.email.trim();
      if (!isSpecEmail(x.email)) notify(x, SPEC_MESSAGES.invalidEmail);
      else if (email === ctx.codeSentTo && coolingDown(ctx)) {
        // The last code to this address is still valid and its countdown runs: no new request.
        Object.assign(x, { step: 'code', notice: null });
      } else {
        Object.assign(x, { sending: true, notice: null });
        x.sends.push({ email, inviteCode: x.inviteCode, resend: false });
      }
      return;
    }
    case 'xstate.done.actor.sendCode':
      if (!x.sending) return;
      // §4: after a successful init, step 2 and a 30 s resend timer.
      Object.assign(x, { sending: false, step: 'code', digits: [...EMPTY_BOXES] });
      x.inviteCode = (event.output as { inviteCode: string | null }).inviteCode || x.inviteCode;
      ctx.cooldownFrom = Date.now();
      ctx.codeSentTo = x.email.trim();
      return;
    case 'xstate.error.actor.sendCode': {
      if (!x.sending) return;
      x.sending = false;
      const failure = failureOf(event.error);
      if (failure.retryAfterSeconds !== undefined) {
        // Refused inside the countdown: the last code is still valid, so its step.
        Object.assign(x, { step: 'code', digits: [...EMPTY_BOXES] });
        refusedAt(ctx, event.error);
        ctx.codeSentTo = x.email.trim();
      } else notify(x, SPEC_MESSAGES.sendFailed(failure.serverMessage ?? failure.message ?? ''));
      return;
    }
    case 'signIn.digitEntered':
      if (onCodeStep && /^[0-9]$/.test(event.digit) && event.index >= 0 && event.index < 6) {
        x.digits = x.digits.map((d, i) => (i === event.index ? event.digit : d));
        x.notice = null;
      }
      return;
    case 'signIn.digitErased':
      if (onCodeStep && event.index >= 0 && event.index < 6)
        x.digits = x.digits.map((d, i) => (i === event.index ? '' : d));
      return;
    case 'signIn.codePasted':
      if (onCodeStep) Object.assign(x, { digits: boxesOf(event.text), notice: null });
      return;
    case 'signIn.verify': {
      // One request at a time: Verify does nothing while a new code is being sent.
      if (!onCodeStep || x.resending) return;
      const code = x.digits.join('');
      if (!isSpecCode(code)) notify(x, SPEC_MESSAGES.invalidCode);
      else {
        Object.assign(x, { verifying: true, notice: null });
        x.verifies.push({ email: x.email.trim(), code });
      }
      return;
    }
    case 'xstate.done.actor.verifyCode': {
      const session = event.output as VerifyCodeOutput;
      if (!x.verifying) return;
      x.verifying = false;
      if (session.userData.user_telegram_link) {
        // Step 3 holds the session until the player opens Telegram or closes the modal.
        Object.assign(x, { step: 'telegram', pending: session, resending: false });
        forgetCode(ctx);
      } else {
        handOver(x, session);
        Object.assign(x, { step: 'closed', digits: [...EMPTY_BOXES], resending: false });
      }
      return;
    }
    case 'xstate.error.actor.verifyCode': {
      // §8: the server's message or 'Failed to verify code. Please try again.'; boxes cleared.
      if (!x.verifying) return;
      const failure = failureOf(event.error);
      Object.assign(x, { verifying: false, digits: [...EMPTY_BOXES] });
      notify(x, failure.serverMessage ?? SPEC_MESSAGES.verifyFailed);
      return;
    }
    case 'signIn.resend':
      // §5: blocked while the 30 s timer runs; one request at a time.
      if (!onCodeStep || x.resending || coolingDown(ctx)) return;
      x.resending = true;
      x.sends.push({ email: x.email.trim(), inviteCode: x.inviteCode, resend: true });
      return;
    case 'xstate.done.actor.resendCode':
      if (!x.resending) return;
      Object.assign(x, { resending: false, digits: [...EMPTY_BOXES], notice: null });
      ctx.cooldownFrom = Date.now();
      return;
    case 'xstate.error.actor.resendCode': {
      if (!x.resending) return;
      x.resending = false;
      const failure = failureOf(event.error);
      if (failure.retryAfterSeconds !== undefined) refusedAt(ctx, event.error);
      else notify(x, SPEC_MESSAGES.sendFailed(failure.serverMessage ?? failure.message ?? ''));
      return;
    }
    case 'signIn.changeEmail':
      // §4: Change E-mail returns to step 1 and clears the code (its countdown goes on).
      if (x.step !== 'code') return;
      Object.assign(x, { step: 'email', digits: [...EMPTY_BOXES], notice: null });
      Object.assign(x, { verifying: false, resending: false });
      return;
    case 'signIn.telegramOpened':
      if (x.step !== 'telegram') return;
      handOver(x, x.pending);
      Object.assign(x, { step: 'closed', pending: null });
      return;
    case 'signIn.backToEmail':
      if (x.step !== 'telegram') return;
      Object.assign(x, { step: 'email', pending: null, digits: [...EMPTY_BOXES], notice: null });
      return;
    case 'inviteCode.stored':
      x.inviteCode = event.code || x.inviteCode;
      return;
    default:
      // The countdown's timers change nothing but the clock (checked against the real seconds).
      return;
  }
}

/** Every executor applies the spec's rule to the expectation first. */
function expecting(events: Executors<typeof model, Ctx>): Executors<typeof model, Ctx> {
  const wrapped: Record<string, AnyExecutor<typeof model, Ctx>> = {};
  for (const [type, run] of Object.entries(events) as [string, AnyExecutor<typeof model, Ctx>][])
    wrapped[type] = (args) => {
      apply(args.ctx, args.event);
      return run(args);
    };
  return wrapped as unknown as Executors<typeof model, Ctx>;
}

/** What the services around the modal saw: requests, banners and sessions handed over. */
function checkEffects(ctx: Ctx) {
  const x = ctx.x;
  specExpect(
    '§7.calls.auth',
    ctx.sendCalls.map((c) => c.input),
    'auth/email/init requests',
  ).toEqual(x.sends);
  specExpect(
    '§7.calls.auth',
    ctx.verifyCalls.map((c) => c.input),
    'auth/email/verify requests',
  ).toEqual(x.verifies);
  specExpect('§4.auth.signIn', ctx.authEvents, 'sessions handed to the auth service').toEqual(
    x.signIns,
  );
  expect(ctx.bannerEvents, '§8 information banners').toEqual(x.banners);
}

/** What the views read, against the expectation. */
function checkSelectors(ctx: Ctx) {
  const s = ctx.signIn.getSnapshot();
  const x = ctx.x;
  const code = isSpecCode(x.digits.join(''));
  expect(selectIsOpen(s), 'open').toBe(x.step !== 'closed');
  specExpect('§2.signin.steps', selectStep(s), 'step').toBe(x.step === 'closed' ? null : x.step);
  expect(selectEmail(s), 'e-mail as typed').toBe(x.email);
  specExpect(
    '§5.code.boxes',
    x.digits.map((_, i) => selectDigit(i)(s)),
    'the six boxes',
  ).toEqual(x.digits);
  specExpect('§2.signin.busy', selectIsSending(s), 'sending the code').toBe(x.sending);
  specExpect('§2.signin.busy', selectIsVerifying(s), 'verifying').toBe(x.verifying);
  expect(selectIsResending(s), 'resending').toBe(x.resending);
  expect(selectNoticeText(s), 'message').toBe(x.notice?.text ?? null);
  expect(s.context.notice?.type ?? null, 'message type').toBe(x.notice?.type ?? null);
  specExpect(
    '§2.signin.inviteShown',
    selectInviteCodeShown(s),
    'invite code shown (not on step 2)',
  ).toBe(x.inviteCode && x.step !== 'code' ? x.inviteCode.toUpperCase() : null);
  expect(selectTelegramLink(s), 'Telegram link').toBe(
    x.pending?.userData.user_telegram_link ?? null,
  );
  expect(selectCodeComplete(s), 'six digits in').toBe(code);
  const onCodeStep = x.step === 'code' && !x.verifying;
  specExpect('§5.code.boxes', selectCanVerify(s), 'Verify enabled').toBe(
    onCodeStep && !x.resending && code,
  );
  specExpect('§5.resend.blocked', selectCanResend(s), 'Resend possible').toBe(
    onCodeStep && !x.resending && !coolingDown(ctx),
  );
  if (x.step === 'code')
    specExpect('§2.signin.resendLabel', selectResendLabel(s), 'resend label').toBe(
      coolingDown(ctx)
        ? SPEC_MESSAGES.resendIn(realSecondsLeft(ctx))
        : x.resending
          ? 'Sending...'
          : SPEC_MESSAGES.resendReady,
    );
}

type Sys = ReturnType<typeof startSignInSystem>;
type Ctx = Sys & {
  /** Fake-clock time the last code went out (for the real "Resend in Ns"). */
  cooldownFrom: number | null;
  /** The address the last code went to, while the modal stays open. */
  codeSentTo: string | null;
  /** What the spec says the modal is doing (see `apply`). */
  x: Expected;
};

function setup(): Ctx {
  return {
    ...startSignInSystem({ codeInvite: 'abCD12' }),
    cooldownFrom: null,
    codeSentTo: null,
    x: expected(),
  };
}

const realSecondsLeft = (ctx: Ctx) =>
  SPEC_TIMERS.resendCooldown / 1000 -
  Math.floor((Date.now() - (ctx.cooldownFrom ?? Date.now())) / 1000);

/** The last code's countdown runs (a code went out less than 30 s ago). */
const coolingDown = (ctx: Ctx) =>
  ctx.cooldownFrom !== null && Date.now() - ctx.cooldownFrom < SPEC_TIMERS.resendCooldown;

/** A refusal's Retry-After: the last code went out 30 s minus that many seconds ago. */
function refusedAt(ctx: Ctx, error: unknown) {
  const retry = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
  if (retry === undefined) return;
  ctx.cooldownFrom = Date.now() - (SPEC_TIMERS.resendCooldown - retry * 1000);
}

/** A new modal, or a code used up by a verification, leaves no countdown behind. */
function forgetCode(ctx: Ctx) {
  ctx.cooldownFrom = null;
  ctx.codeSentTo = null;
}

async function settleLatest<T>(calls: Array<{ result: { resolve: (v: T) => void } }>, value: T) {
  calls.at(-1)!.result.resolve(value);
  await settle();
}
async function failLatest(calls: Array<{ result: { reject: (e: unknown) => void } }>, e: unknown) {
  calls.at(-1)!.result.reject(e);
  await settle();
}

/** The 30 s from the last code's send run out exactly: `ended` is the state at 30 s, not before. */
const cooldownEnds = (
  ctx: Ctx,
  ended: Parameters<ReturnType<Ctx['signIn']['getSnapshot']>['matches']>[0],
  what: string,
) =>
  advanceExactly(
    SPEC_TIMERS.resendCooldown - (Date.now() - ctx.cooldownFrom!),
    () => ctx.signIn.getSnapshot().matches(ended),
    what,
  );

/** Outcome executors, shared by both drivers (wrapped in act() for the view). */
function outcomes(wrap: (fn: () => Promise<void>) => Promise<void>) {
  return {
    'xstate.done.actor.sendCode': ({ ctx, event }) =>
      wrap(() => settleLatest(ctx.sendCalls, event.output as { inviteCode: string })),
    'xstate.error.actor.sendCode': ({ ctx, event }) =>
      wrap(() => failLatest(ctx.sendCalls, event.error)),
    'xstate.done.actor.resendCode': ({ ctx, event }) =>
      wrap(() => settleLatest(ctx.sendCalls, event.output as { inviteCode: string })),
    'xstate.error.actor.resendCode': ({ ctx, event }) =>
      wrap(() => failLatest(ctx.sendCalls, event.error)),
    'xstate.done.actor.verifyCode': ({ ctx, event }) =>
      wrap(() => settleLatest(ctx.verifyCalls, event.output as ReturnType<typeof session>)),
    'xstate.error.actor.verifyCode': ({ ctx, event }) =>
      wrap(() => failLatest(ctx.verifyCalls, event.error)),
    // "Resend in Ns" counts whole seconds: the label changes at each second, not a ms before.
    [RESEND_TICK]: ({ ctx }) =>
      wrap(() => advanceExactly(1000, actorProbe(ctx.signIn), 'resend countdown tick')),
    // After Change E-mail the countdown goes on second by second, and ends at the same 30 s.
    [EMAIL_TICK]: ({ ctx }) =>
      wrap(() => advanceExactly(1000, actorProbe(ctx.signIn), 'countdown tick on the e-mail step')),
    [EMAIL_COOLDOWN]: ({ ctx }) =>
      wrap(() =>
        cooldownEnds(
          ctx,
          { open: { email: { cooldown: 'idle' } } },
          'countdown 30 s on the e-mail step',
        ),
      ),
    // §4, §9: resend is blocked for 30 s from the send, and possible at exactly 30 s.
    [RESEND_COOLDOWN]: ({ ctx }) =>
      wrap(() => cooldownEnds(ctx, { open: { code: { resend: 'ready' } } }, 'resend 30 s')),
  } satisfies Partial<Executors<typeof model, Ctx>>;
}

const direct = (fn: () => Promise<void>) => fn();

const actorDriver = systemDriver(
  model,
  { live: ({ signIn }) => signIn, root: ({ rootActor }) => rootActor },
  {
    setup,
    events: expecting({
      'signIn.open': ({ ctx, event }) => ctx.signIn.send(event),
      'signIn.close': ({ ctx, event }) => ctx.signIn.send(event),
      'signIn.signedInElsewhere': ({ ctx, event }) => ctx.signIn.send(event),
      'signIn.emailChanged': ({ ctx, event }) => ctx.signIn.send(event),
      'signIn.submitEmail': ({ ctx, event }) => ctx.signIn.send(event),
      'signIn.digitEntered': ({ ctx, event }) => ctx.signIn.send(event),
      'signIn.digitErased': ({ ctx, event }) => ctx.signIn.send(event),
      'signIn.codePasted': ({ ctx, event }) => ctx.signIn.send(event),
      'signIn.verify': ({ ctx, event }) => ctx.signIn.send(event),
      'signIn.resend': ({ ctx, event }) => ctx.signIn.send(event),
      'signIn.changeEmail': ({ ctx, event }) => ctx.signIn.send(event),
      'signIn.telegramOpened': ({ ctx, event }) => ctx.signIn.send(event),
      'signIn.backToEmail': ({ ctx, event }) => ctx.signIn.send(event),
      'inviteCode.stored': ({ ctx, event }) => ctx.signIn.send(event),
      ...outcomes(direct),
    }),
    states: {
      '*': ({ ctx }) => {
        checkSelectors(ctx);
        checkEffects(ctx);
      },
      'open.email.cooldown.running': ({ ctx }) => {
        specExpect(
          '§4.signin.resendTimer',
          ctx.signIn.getSnapshot().context.resendSecondsLeft,
          'seconds left of the 30 s resend timer',
        ).toBe(realSecondsLeft(ctx));
      },
      'open.code.resend.coolingDown': ({ ctx }) => {
        const real = ctx.signIn.getSnapshot();
        specExpect(
          '§4.signin.resendTimer',
          real.context.resendSecondsLeft,
          'seconds left of the 30 s resend timer',
        ).toBe(realSecondsLeft(ctx));
        specExpect('§5.resend.blocked', selectCanResend(real), 'resend possible').toBe(false);
      },
      'open.code.resend.ready': ({ ctx }) => {
        // Ready, and possible while no verification runs (one request at a time).
        expect(selectCanResend(ctx.signIn.getSnapshot())).toBe(!ctx.x.verifying);
      },
    },
  },
);

describe('sign-in machine', () => {
  testPaths(model, actorDriver);
});

/** The rendered modal, opened by a Get Access button as on the home page. */
function renderModal(ctx: Ctx) {
  render(
    <>
      <button type="button" onClick={() => ctx.signIn.send({ type: 'signIn.open' })}>
        Get Access
      </button>
      <SignInModalView signIn={ctx.signIn} hasJwt={false} />
    </>,
  );
}

const dialog = () => screen.getByRole('dialog');
const inDialog = () => within(dialog());
const boxes = () => inDialog().getAllByRole('textbox', { name: /^Digit \d of 6$/ });
const act$ = async (fn: () => Promise<void>) => {
  await act(fn);
};
const click = (el: HTMLElement) =>
  act$(async () => {
    fireEvent.click(el);
  });

function expectDialogCommon(x: Expected) {
  const d = dialog();
  expect(d).toHaveAttribute('aria-modal', 'true');
  const title = document.getElementById(d.getAttribute('aria-labelledby') ?? '');
  expect(title).not.toBeNull();
  const invite = x.inviteCode && x.step !== 'code' ? x.inviteCode.toUpperCase() : null;
  if (invite) expect(inDialog().getByText(invite)).toBeVisible();
  else expect(inDialog().queryByText(/Invite code/)).toBeNull();
  const notice = x.notice?.text;
  if (notice) expect(d.querySelector('.signin-notice')).toHaveTextContent(notice);
  else expect(d.querySelector('.signin-notice')).toBeNull();
  const terms = inDialog().getByRole('link', { name: 'Terms of Service' });
  expect(terms).toHaveAttribute('href', '/docs/terms');
  expect(terms).toHaveAttribute('target', '_blank');
  expect(inDialog().getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
    'href',
    '/docs/privacy',
  );
}

const viewDriver = systemDriver(
  model,
  { live: ({ signIn }) => signIn, root: ({ rootActor }) => rootActor },
  {
    setup: () => {
      const ctx = setup();
      renderModal(ctx);
      return ctx;
    },
    events: expecting({
      'signIn.open': () => click(screen.getByRole('button', { name: 'Get Access' })),
      'signIn.close': () =>
        act$(async () => {
          fireEvent.keyDown(dialog(), { key: 'Escape' });
        }),
      // A fact from another tab, not a control of this dialog: it reaches the service as it would.
      'signIn.signedInElsewhere': ({ ctx, event }) =>
        act$(async () => {
          ctx.signIn.send(event);
        }),
      'signIn.emailChanged': ({ event }) =>
        act$(async () => {
          fireEvent.change(inDialog().getByLabelText('E-mail'), { target: { value: event.email } });
        }),
      'signIn.submitEmail': () => click(inDialog().getByRole('button', { name: 'Continue' })),
      'signIn.digitEntered': ({ event }) =>
        act$(async () => {
          fireEvent.change(boxes()[event.index]!, { target: { value: event.digit } });
        }),
      'signIn.digitErased': ({ event }) =>
        act$(async () => {
          const box = boxes()[event.index]!;
          if (box.getAttribute('value') !== '') fireEvent.change(box, { target: { value: '' } });
        }),
      'signIn.codePasted': ({ event }) =>
        act$(async () => {
          fireEvent.paste(boxes()[0]!, { clipboardData: { getData: () => event.text } });
        }),
      'signIn.verify': async () => {
        const verify = inDialog().getByRole('button', { name: 'Verify' });
        if (!verify.hasAttribute('disabled')) await click(verify);
        else {
          // Verify is disabled until six digits are in: Enter in a box still asks.
          await act$(async () => {
            fireEvent.keyDown(boxes()[0]!, { key: 'Enter' });
          });
        }
      },
      'signIn.resend': () =>
        click(inDialog().getByRole('button', { name: SPEC_MESSAGES.resendReady })),
      'signIn.changeEmail': () => click(inDialog().getByRole('button', { name: 'Change E-mail' })),
      'signIn.telegramOpened': () => {
        const link = inDialog().getByRole('link', { name: 'Open Telegram' });
        link.addEventListener('click', (e) => e.preventDefault(), { once: true });
        return click(link);
      },
      'signIn.backToEmail': () => click(inDialog().getByRole('button', { name: 'Back to E-mail' })),
      'inviteCode.stored': ({ ctx, event }) =>
        act$(async () => {
          ctx.signIn.send(event);
        }),
      ...outcomes(act$),
    }),
    states: {
      '*': ({ ctx }) => checkEffects(ctx),
      closed: () => {
        expect(screen.queryByRole('dialog')).toBeNull();
      },
      open: ({ ctx }) => expectDialogCommon(ctx.x),
      'open.email': ({ ctx }) => {
        expect(inDialog().getByRole('heading', { name: 'Sign In' })).toBeVisible();
        expect(inDialog().getByText('Log in or register your account')).toBeVisible();
        // An e-mail input's value has no surrounding spaces (HTML's value sanitization).
        expect(inDialog().getByLabelText('E-mail')).toHaveValue(ctx.x.email.trim());
      },
      'open.email.form.editing': () => {
        expect(inDialog().getByRole('button', { name: 'Continue' })).toBeEnabled();
      },
      'open.email.form.sendingCode': () => {
        expect(inDialog().getByRole('button', { name: 'Sending...' })).toBeDisabled();
      },
      'open.code': ({ ctx }) => {
        expect(inDialog().getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
        expect(dialog()).toHaveTextContent(`We sent a 6-digit code to ${ctx.x.email.trim()}.`);
        const all = boxes();
        expect(all).toHaveLength(6);
        all.forEach((box, i) => {
          expect(box).toHaveValue(ctx.x.digits[i]);
          expect(box).toHaveAttribute('inputmode', 'numeric');
        });
        expect(all[0]).toHaveAttribute('autocomplete', 'one-time-code');
        expect(inDialog().getByRole('button', { name: 'Change E-mail' })).toBeEnabled();
      },
      'open.code.entry.awaitingCode': ({ ctx }) => {
        const verify = inDialog().getByRole('button', { name: 'Verify' });
        if (isSpecCode(ctx.x.digits.join('')) && !ctx.x.resending) expect(verify).toBeEnabled();
        else expect(verify).toBeDisabled();
      },
      'open.code.entry.verifying': () => {
        expect(inDialog().getByRole('button', { name: 'Verifying...' })).toBeDisabled();
      },
      'open.code.resend.coolingDown': ({ ctx }) => {
        expect(
          inDialog().getByRole('button', { name: SPEC_MESSAGES.resendIn(realSecondsLeft(ctx)) }),
        ).toBeDisabled();
      },
      'open.code.resend.ready': ({ ctx }) => {
        const resend = inDialog().getByRole('button', { name: SPEC_MESSAGES.resendReady });
        if (!ctx.x.verifying) expect(resend).toBeEnabled();
        else expect(resend).toBeDisabled();
      },
      'open.code.resend.resendingCode': () => {
        expect(inDialog().getByRole('button', { name: 'Sending...' })).toBeDisabled();
      },
      'open.telegram': () => {
        expect(inDialog().getByRole('heading', { name: 'Telegram' })).toBeVisible();
        const link = inDialog().getByRole('link', { name: 'Open Telegram' });
        expect(link).toHaveAttribute('href', TELEGRAM);
        expect(link).toHaveAttribute('target', '_blank');
        expect(inDialog().getByRole('button', { name: 'Back to E-mail' })).toBeEnabled();
      },
    },
  },
);

describe('sign-in modal', () => {
  testPaths(model, viewDriver, 'view');
});
