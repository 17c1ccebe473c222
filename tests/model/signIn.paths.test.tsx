// @vitest-environment happy-dom
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect } from 'vitest';
import { assign } from 'xstate';
import { EMPTY_STORED } from '../../machines/shared/stored';
import { signInMachine } from '../../machines/signIn/signIn.machine';
import {
  selectCanResend,
  selectInviteCodeShown,
  type SignInSnapshot,
} from '../../machines/signIn/signIn.selectors';
import type { SignInContext } from '../../machines/signIn/signIn.types';
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
  testPaths,
  type Driver,
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
    'inviteCode.stored': [{ code: 'abCD12' }],
  },
  outcomes: {
    'xstate.done.actor.sendCode': [{ output: { inviteCode: 'abCD12' } }],
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

type Sys = ReturnType<typeof startSignInSystem>;
type Ctx = Sys & {
  /** Fake-clock time the last code went out (for the real "Resend in Ns"). */
  cooldownFrom: number | null;
  /** The address the last code went to, while the modal stays open. */
  codeSentTo: string | null;
  expectedSignIns: number;
  /** auth/email/init calls answered so far (one more sent means one in flight). */
  settledSends: number;
};

function setup(): Ctx {
  return {
    ...startSignInSystem({ codeInvite: 'abCD12' }),
    cooldownFrom: null,
    codeSentTo: null,
    expectedSignIns: 0,
    settledSends: 0,
  };
}

/** The model's context, minus the countdown whose scale differs (see above). */
const comparable = ({ resendSecondsLeft: _ignored, ...rest }: SignInContext) => rest;

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

/** Outcome executors, shared by both drivers (wrapped in act() for the view). */
function outcomes(wrap: (fn: () => Promise<void>) => Promise<void>) {
  return {
    'xstate.done.actor.sendCode': ({ ctx, event, snapshot }) =>
      wrap(async () => {
        ctx.cooldownFrom = Date.now();
        ctx.codeSentTo = snapshot.context.email.trim();
        ctx.settledSends = ctx.sendCalls.length;
        await settleLatest(ctx.sendCalls, event.output as { inviteCode: string });
      }),
    'xstate.error.actor.sendCode': ({ ctx, event, snapshot }) =>
      wrap(() => {
        refusedAt(ctx, event.error);
        if (ctx.cooldownFrom !== null) ctx.codeSentTo = snapshot.context.email.trim();
        ctx.settledSends = ctx.sendCalls.length;
        return failLatest(ctx.sendCalls, event.error);
      }),
    'xstate.done.actor.resendCode': ({ ctx, event }) =>
      wrap(async () => {
        ctx.cooldownFrom = Date.now();
        ctx.settledSends = ctx.sendCalls.length;
        await settleLatest(ctx.sendCalls, event.output as { inviteCode: string });
      }),
    'xstate.error.actor.resendCode': ({ ctx, event }) =>
      wrap(() => {
        refusedAt(ctx, event.error);
        ctx.settledSends = ctx.sendCalls.length;
        return failLatest(ctx.sendCalls, event.error);
      }),
    'xstate.done.actor.verifyCode': ({ ctx, event, snapshot }) =>
      wrap(async () => {
        if (snapshot.matches('closed')) ctx.expectedSignIns += 1;
        else forgetCode(ctx);
        await settleLatest(ctx.verifyCalls, event.output as ReturnType<typeof session>);
      }),
    'xstate.error.actor.verifyCode': ({ ctx, event }) =>
      wrap(() => failLatest(ctx.verifyCalls, event.error)),
    // "Resend in Ns" counts whole seconds: the label changes at each second, not a ms before.
    [RESEND_TICK]: ({ ctx }) =>
      wrap(() => advanceExactly(1000, actorProbe(ctx.signIn), 'resend countdown tick')),
    // After Change E-mail the countdown goes on second by second, and ends at the same 30 s.
    [EMAIL_TICK]: ({ ctx }) =>
      wrap(() => advanceExactly(1000, actorProbe(ctx.signIn), 'countdown tick on the e-mail step')),
    [EMAIL_COOLDOWN]: ({ ctx }) =>
      wrap(async () => {
        const left = SPEC_TIMERS.resendCooldown - (Date.now() - ctx.cooldownFrom!);
        await advanceExactly(
          left,
          () => ctx.signIn.getSnapshot().matches({ open: { email: { cooldown: 'idle' } } }),
          'countdown 30 s on the e-mail step',
        );
      }),
    // §4, §9: resend is blocked for 30 s from the send, and possible at exactly 30 s.
    [RESEND_COOLDOWN]: ({ ctx }) =>
      wrap(async () => {
        const left = SPEC_TIMERS.resendCooldown - (Date.now() - ctx.cooldownFrom!);
        await advanceExactly(
          left,
          () => ctx.signIn.getSnapshot().matches({ open: { code: { resend: 'ready' } } }),
          'resend 30 s',
        );
      }),
  } satisfies Partial<Executors<typeof model, Ctx>>;
}

/**
 * After an intent: exactly one request went out when the chart entered its requesting state,
 * with the payload of §7, and none otherwise (an invalid e-mail or code makes no call).
 */
function expectRequest(
  ctx: Ctx,
  snapshot: SignInSnapshot,
  kind: 'send' | 'resend' | 'verify',
  before: number,
) {
  const { email, inviteCode, digits } = snapshot.context;
  const live = ctx.signIn.getSnapshot().context;
  if (kind === 'verify') {
    const sent = ctx.verifyCalls.slice(before).map((c) => c.input);
    // The spec decides, not the chart: a 6-digit code verifies, once, and only while no other
    // request (a resend) is in flight; anything else asks for a valid code and calls nothing.
    const resending = ctx.sendCalls.length > ctx.settledSends;
    if (resending) expect(sent, 'Verify while a new code is being sent').toEqual([]);
    else if (isSpecCode(digits.join(''))) {
      expect(sent).toEqual([{ email: email.trim(), code: digits.join('') }]);
    } else {
      expect(sent).toEqual([]);
      expect(live.notice?.text).toBe(SPEC_MESSAGES.invalidCode);
    }
    return;
  }
  if (kind === 'send') {
    const sent = ctx.sendCalls.slice(before).map((c) => c.input);
    if (isSpecEmail(email) && email.trim() === ctx.codeSentTo && coolingDown(ctx)) {
      // The last code to this address is still valid and its countdown runs: no new request,
      // back to the code step with what is left of the countdown.
      expect(sent, 'Continue with the same address inside 30 s').toEqual([]);
      expect(ctx.signIn.getSnapshot().hasTag('step.code')).toBe(true);
      expect(live.resendSecondsLeft).toBe(realSecondsLeft(ctx));
    } else if (isSpecEmail(email)) {
      expect(sent).toEqual([{ email: email.trim(), inviteCode, resend: false }]);
    } else {
      expect(sent, '§5: an invalid e-mail makes no call').toEqual([]);
      expect(live.notice?.text).toBe(SPEC_MESSAGES.invalidEmail);
    }
    return;
  }
  const sent = ctx.sendCalls.slice(before).map((c) => c.input);
  // §5: resend is blocked while the 30 s timer runs.
  if (Date.now() - (ctx.cooldownFrom ?? 0) < SPEC_TIMERS.resendCooldown)
    expect(sent, 'resend within 30 s of the last code').toEqual([]);
  if (snapshot.matches({ open: { code: { resend: 'resendingCode' } } }))
    expect(sent).toEqual([{ email: email.trim(), inviteCode, resend: true }]);
  else expect(sent).toEqual([]);
}

const direct = (fn: () => Promise<void>) => fn();

const actorDriver: Driver<typeof model, Ctx> = {
  setup,
  teardown: ({ rootActor }) => {
    rootActor.stop();
  },
  actual: ({ signIn }) => signIn.getSnapshot(),
  events: {
    'signIn.open': ({ ctx, event }) => {
      forgetCode(ctx);
      ctx.signIn.send(event);
    },
    'signIn.close': ({ ctx, event, snapshot }) => {
      if (ctx.signIn.getSnapshot().matches({ open: 'telegram' }) && snapshot.matches('closed'))
        ctx.expectedSignIns += 1;
      ctx.signIn.send(event);
    },
    'signIn.emailChanged': ({ ctx, event }) => ctx.signIn.send(event),
    'signIn.submitEmail': ({ ctx, event, snapshot }) => {
      const before = ctx.sendCalls.length;
      ctx.signIn.send(event);
      expectRequest(ctx, snapshot, 'send', before);
    },
    'signIn.digitEntered': ({ ctx, event }) => ctx.signIn.send(event),
    'signIn.digitErased': ({ ctx, event }) => ctx.signIn.send(event),
    'signIn.codePasted': ({ ctx, event }) => ctx.signIn.send(event),
    'signIn.verify': ({ ctx, event, snapshot }) => {
      const before = ctx.verifyCalls.length;
      ctx.signIn.send(event);
      expectRequest(ctx, snapshot, 'verify', before);
    },
    'signIn.resend': ({ ctx, event, snapshot }) => {
      const before = ctx.sendCalls.length;
      ctx.signIn.send(event);
      expectRequest(ctx, snapshot, 'resend', before);
    },
    'signIn.changeEmail': ({ ctx, event }) => ctx.signIn.send(event),
    'signIn.telegramOpened': ({ ctx, event }) => {
      ctx.expectedSignIns += 1;
      ctx.signIn.send(event);
    },
    'signIn.backToEmail': ({ ctx, event }) => ctx.signIn.send(event),
    'inviteCode.stored': ({ ctx, event }) => ctx.signIn.send(event),
    ...outcomes(direct),
  } satisfies Executors<typeof model, Ctx>,
  states: {
    '*': ({ ctx, snapshot }) => {
      const real = ctx.signIn.getSnapshot();
      expect(comparable(real.context)).toEqual(comparable(snapshot.context));
      expect(ctx.authEvents).toHaveLength(ctx.expectedSignIns);
    },
    'open.email.cooldown.running': ({ ctx }) => {
      expect(ctx.signIn.getSnapshot().context.resendSecondsLeft).toBe(realSecondsLeft(ctx));
    },
    'open.code.resend.coolingDown': ({ ctx }) => {
      const real = ctx.signIn.getSnapshot();
      expect(real.context.resendSecondsLeft).toBe(realSecondsLeft(ctx));
      expect(selectCanResend(real)).toBe(false);
    },
    'open.code.resend.ready': ({ ctx, snapshot }) => {
      // Ready, and possible while no verification runs (one request at a time).
      expect(selectCanResend(ctx.signIn.getSnapshot())).toBe(
        snapshot.matches({ open: { code: { entry: 'awaitingCode' } } }),
      );
    },
  },
};

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

function expectDialogCommon(snapshot: SignInSnapshot) {
  const d = dialog();
  expect(d).toHaveAttribute('aria-modal', 'true');
  const title = document.getElementById(d.getAttribute('aria-labelledby') ?? '');
  expect(title).not.toBeNull();
  const invite = selectInviteCodeShown(snapshot);
  if (invite) expect(inDialog().getByText(invite)).toBeVisible();
  else expect(inDialog().queryByText(/Invite code/)).toBeNull();
  const notice = snapshot.context.notice?.text;
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

const viewDriver: Driver<typeof model, Ctx> = {
  setup: () => {
    const ctx = setup();
    renderModal(ctx);
    return ctx;
  },
  teardown: ({ rootActor }) => {
    rootActor.stop();
  },
  actual: ({ signIn }) => signIn.getSnapshot(),
  events: {
    'signIn.open': ({ ctx }) => {
      forgetCode(ctx);
      return click(screen.getByRole('button', { name: 'Get Access' }));
    },
    'signIn.close': ({ ctx, snapshot }) => {
      if (ctx.signIn.getSnapshot().matches({ open: 'telegram' }) && snapshot.matches('closed'))
        ctx.expectedSignIns += 1;
      return act$(async () => {
        fireEvent.keyDown(dialog(), { key: 'Escape' });
      });
    },
    'signIn.emailChanged': ({ event }) =>
      act$(async () => {
        fireEvent.change(inDialog().getByLabelText('E-mail'), { target: { value: event.email } });
      }),
    'signIn.submitEmail': async ({ ctx, snapshot }) => {
      const before = ctx.sendCalls.length;
      await click(inDialog().getByRole('button', { name: 'Continue' }));
      expectRequest(ctx, snapshot, 'send', before);
    },
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
    'signIn.verify': async ({ ctx, snapshot }) => {
      const before = ctx.verifyCalls.length;
      const verify = inDialog().getByRole('button', { name: 'Verify' });
      if (!verify.hasAttribute('disabled')) await click(verify);
      else {
        // Verify is disabled until six digits are in: Enter in a box still asks.
        await act$(async () => {
          fireEvent.keyDown(boxes()[0]!, { key: 'Enter' });
        });
      }
      expectRequest(ctx, snapshot, 'verify', before);
    },
    'signIn.resend': async ({ ctx, snapshot }) => {
      const before = ctx.sendCalls.length;
      await click(inDialog().getByRole('button', { name: SPEC_MESSAGES.resendReady }));
      expectRequest(ctx, snapshot, 'resend', before);
    },
    'signIn.changeEmail': () => click(inDialog().getByRole('button', { name: 'Change E-mail' })),
    'signIn.telegramOpened': ({ ctx }) => {
      ctx.expectedSignIns += 1;
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
  } satisfies Executors<typeof model, Ctx>,
  states: {
    closed: ({ ctx }) => {
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(ctx.authEvents).toHaveLength(ctx.expectedSignIns);
    },
    open: ({ ctx, snapshot }) => {
      expectDialogCommon(snapshot);
      expect(ctx.authEvents).toHaveLength(ctx.expectedSignIns);
    },
    'open.email': ({ snapshot }) => {
      expect(inDialog().getByRole('heading', { name: 'Sign In' })).toBeVisible();
      expect(inDialog().getByText('Log in or register your account')).toBeVisible();
      // An e-mail input's value has no surrounding spaces (HTML's value sanitization).
      expect(inDialog().getByLabelText('E-mail')).toHaveValue(snapshot.context.email.trim());
    },
    'open.email.form.editing': () => {
      expect(inDialog().getByRole('button', { name: 'Continue' })).toBeEnabled();
    },
    'open.email.form.sendingCode': () => {
      expect(inDialog().getByRole('button', { name: 'Sending...' })).toBeDisabled();
    },
    'open.code': ({ snapshot }) => {
      expect(inDialog().getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
      expect(dialog()).toHaveTextContent(
        `We sent a 6-digit code to ${snapshot.context.email.trim()}.`,
      );
      const all = boxes();
      expect(all).toHaveLength(6);
      all.forEach((box, i) => {
        expect(box).toHaveValue(snapshot.context.digits[i]);
        expect(box).toHaveAttribute('inputmode', 'numeric');
      });
      expect(all[0]).toHaveAttribute('autocomplete', 'one-time-code');
      expect(inDialog().getByRole('button', { name: 'Change E-mail' })).toBeEnabled();
    },
    'open.code.entry.awaitingCode': ({ snapshot }) => {
      const verify = inDialog().getByRole('button', { name: 'Verify' });
      const resending = snapshot.matches({ open: { code: { resend: 'resendingCode' } } });
      if (isSpecCode(snapshot.context.digits.join('')) && !resending) expect(verify).toBeEnabled();
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
    'open.code.resend.ready': ({ snapshot }) => {
      const resend = inDialog().getByRole('button', { name: SPEC_MESSAGES.resendReady });
      if (snapshot.matches({ open: { code: { entry: 'awaitingCode' } } }))
        expect(resend).toBeEnabled();
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
};

describe('sign-in modal', () => {
  testPaths(model, viewDriver, 'view');
});
