import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { EMPTY_STORED } from '../../machines/shared/stored';
import { selectInvitedCode, selectWasInvited } from '../../machines/signIn/invited.selectors';
import { isSixDigitCode } from '../../machines/signIn/signIn.rules';
import { selectDigit, selectNoticeText, selectStep } from '../../machines/signIn/signIn.selectors';
import { EMAIL_EDGES, SPEC_MESSAGES, SPEC_TIMERS } from '../support/oracle';
import { controllableSignIn, flush, session, startSignInSystem } from '../support/signIn/fakes';

/**
 * Boundary inputs the generated paths meet with one payload each (tests/model/signIn.paths.test.tsx):
 * every e-mail edge of §5's pattern, digits and boxes at and past their edges, the resend
 * countdown with another address, and the modal with none of the services around it.
 */
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

type System = ReturnType<typeof startSignInSystem>;
const boxes = (t: System) =>
  [0, 1, 2, 3, 4, 5].map((i) => selectDigit(i)(t.signIn.getSnapshot())).join('');

async function codeStep(email = 'don@example.com') {
  const t = startSignInSystem();
  t.signIn.send({ type: 'signIn.open' });
  t.signIn.send({ type: 'signIn.emailChanged', email });
  t.signIn.send({ type: 'signIn.submitEmail' });
  t.sendCalls[0]!.result.resolve({ inviteCode: null });
  await flush();
  expect(selectStep(t.signIn.getSnapshot())).toBe('code');
  return t;
}

describe('§5 e-mail: non-space text, an @, text, a dot, text', () => {
  it.each(EMAIL_EDGES.valid)('%j asks for a code', (email) => {
    const t = startSignInSystem();
    t.signIn.send({ type: 'signIn.open' });
    t.signIn.send({ type: 'signIn.emailChanged', email });
    t.signIn.send({ type: 'signIn.submitEmail' });
    expect(t.sendCalls.map((c) => c.input.email)).toEqual([email.trim()]);
  });

  it.each([...EMAIL_EDGES.invalid, 'don corleone@example.com', 'don@example.com and more'])(
    '%j: no call, the banner says so',
    (email) => {
      const t = startSignInSystem();
      t.signIn.send({ type: 'signIn.open' });
      t.signIn.send({ type: 'signIn.emailChanged', email });
      t.signIn.send({ type: 'signIn.submitEmail' });
      expect(t.sendCalls).toHaveLength(0);
      expect(selectNoticeText(t.signIn.getSnapshot())).toBe(SPEC_MESSAGES.invalidEmail);
    },
  );
});

describe('§2 six boxes, one digit each', () => {
  it('each of the six boxes takes a digit, the first and the last included', async () => {
    const t = await codeStep();
    for (let i = 0; i < 6; i += 1)
      t.signIn.send({ type: 'signIn.digitEntered', index: i, digit: `${i + 1}` });
    expect(boxes(t)).toBe('123456');
  });

  it.each(['a', 'x', '12', 'a1', '1a', ' ', ''])(
    '%j is no digit: the box stays as it was',
    async (digit) => {
      const t = await codeStep();
      t.signIn.send({ type: 'signIn.digitEntered', index: 2, digit: '7' });
      t.signIn.send({ type: 'signIn.digitEntered', index: 2, digit });
      expect(boxes(t)).toBe('7');
      expect(selectDigit(2)(t.signIn.getSnapshot())).toBe('7');
    },
  );

  it.each([-1, 6, 7, 2.5, Number.NaN])(
    'an entry for box %s (there is none) changes nothing, the message included',
    async (index) => {
      const t = await codeStep();
      t.signIn.send({ type: 'signIn.verify' });
      expect(selectNoticeText(t.signIn.getSnapshot())).toBe(SPEC_MESSAGES.invalidCode);
      t.signIn.send({ type: 'signIn.digitEntered', index, digit: '5' });
      expect(boxes(t)).toBe('');
      expect(selectNoticeText(t.signIn.getSnapshot())).toBe(SPEC_MESSAGES.invalidCode);
    },
  );

  it('erasing a box keeps the others', async () => {
    const t = await codeStep();
    t.signIn.send({ type: 'signIn.codePasted', text: '123456' });
    t.signIn.send({ type: 'signIn.digitErased', index: 0 });
    t.signIn.send({ type: 'signIn.digitErased', index: 3 });
    expect([0, 1, 2, 3, 4, 5].map((i) => selectDigit(i)(t.signIn.getSnapshot()))).toEqual([
      '',
      '2',
      '3',
      '',
      '5',
      '6',
    ]);
  });

  it.each([-1, 6, 2.5, Number.NaN])(
    'erasing box %s (there is none) keeps all six',
    async (index) => {
      const t = await codeStep();
      t.signIn.send({ type: 'signIn.codePasted', text: '123456' });
      t.signIn.send({ type: 'signIn.digitErased', index });
      expect(boxes(t)).toBe('123456');
    },
  );
});

describe('§5 the code must be exactly six digits', () => {
  it.each([[[]], [['1', '2', '3', '4', '5']], [['1', '2', '3', '4', '5', '6', '7']]])(
    '%j is no code (the rule, for any number of boxes)',
    (digits) => {
      expect(isSixDigitCode(digits)).toBe(false);
    },
  );

  it('six digits are a code', () => {
    expect(isSixDigitCode(['1', '2', '3', '4', '5', '6'])).toBe(true);
  });
});

describe('§4, §5 the 30 s countdown belongs to the address the code went to', () => {
  it('the same address while it runs: back to its code, no new request', async () => {
    const t = await codeStep('don@example.com');
    t.signIn.send({ type: 'signIn.changeEmail' });
    t.signIn.send({ type: 'signIn.emailChanged', email: ' don@example.com ' });
    t.signIn.send({ type: 'signIn.submitEmail' });
    expect(selectStep(t.signIn.getSnapshot())).toBe('code');
    expect(t.sendCalls).toHaveLength(1);
  });

  it('another address while it runs: a new request for that address', async () => {
    const t = await codeStep('don@example.com');
    await vi.advanceTimersByTimeAsync(SPEC_TIMERS.resendCooldown / 2);
    t.signIn.send({ type: 'signIn.changeEmail' });
    t.signIn.send({ type: 'signIn.emailChanged', email: 'vito@example.com' });
    t.signIn.send({ type: 'signIn.submitEmail' });
    expect(t.sendCalls.map((c) => c.input.email)).toEqual(['don@example.com', 'vito@example.com']);
  });
});

/**
 * The sign-in machine with no system around it: an invalid address first (its message), then a
 * code asked for, pasted and verified with `verified`.
 */
async function signInAlone(verified: ReturnType<typeof session>) {
  const { machine, sendCalls, verifyCalls } = controllableSignIn();
  const alone = createActor(machine, { input: { stored: EMPTY_STORED } }).start();
  alone.send({ type: 'signIn.open' });
  alone.send({ type: 'signIn.submitEmail' });
  expect(selectNoticeText(alone.getSnapshot())).toBe(SPEC_MESSAGES.invalidEmail);
  alone.send({ type: 'signIn.emailChanged', email: 'don@example.com' });
  alone.send({ type: 'signIn.submitEmail' });
  sendCalls[0]!.result.resolve({ inviteCode: null });
  await flush();
  alone.send({ type: 'signIn.codePasted', text: '123456' });
  alone.send({ type: 'signIn.verify' });
  verifyCalls[0]!.result.resolve(verified);
  await flush();
  return alone;
}

describe('the modal alone, without the banner and auth services around it', () => {
  it('shows its own message and signs in without failing', async () => {
    const alone = await signInAlone(session());
    expect(alone.getSnapshot().status).toBe('active');
    expect(selectStep(alone.getSnapshot())).toBeNull();
    alone.stop();
  });

  it('a verified session with a Telegram link, closed, leaves without failing', async () => {
    const alone = await signInAlone(
      session({ user_telegram_link: 'https://t.me/smw_bot?start=x' }),
    );
    expect(selectStep(alone.getSnapshot())).toBe('telegram');
    alone.send({ type: 'signIn.close' });
    expect(alone.getSnapshot().status).toBe('active');
    expect(selectStep(alone.getSnapshot())).toBeNull();
    alone.stop();
  });
});

describe("§9 a friend's invite link: the landing's cue", () => {
  it('a code from the link is held and shown upper-cased; without one, no cue', () => {
    const invited = startSignInSystem({ codeInvite: 'don7x2' }).signIn.getSnapshot();
    expect([selectWasInvited(invited), selectInvitedCode(invited)]).toEqual([true, 'DON7X2']);
    const plain = startSignInSystem().signIn.getSnapshot();
    expect([selectWasInvited(plain), selectInvitedCode(plain)]).toEqual([false, '']);
  });

  it('a code stored later (the link followed in another tab) is the cue too', () => {
    const t = startSignInSystem();
    t.signIn.send({ type: 'inviteCode.stored', code: 'fam1ly99' });
    expect(selectInvitedCode(t.signIn.getSnapshot())).toBe('FAM1LY99');
  });
});

describe('§5 Telegram step: it hands over the session the code step held', () => {
  it('a Telegram step with no session held fails loudly instead of signing in no one', () => {
    const { machine } = controllableSignIn();
    const broken = machine.resolveState({
      value: { open: 'telegram' },
      context: {
        ...createActor(machine, { input: { stored: EMPTY_STORED } }).getSnapshot().context,
        pending: null,
      },
    });
    const actor = createActor(machine, {
      snapshot: broken,
      input: { stored: EMPTY_STORED },
    });
    const errors: unknown[] = [];
    actor.subscribe({ error: (e) => void errors.push(e) });
    actor.start();
    actor.send({ type: 'signIn.telegramOpened' });
    expect(errors.map((e) => (e as Error).message)).toEqual([
      'no session held for the Telegram step',
    ]);
  });
});
