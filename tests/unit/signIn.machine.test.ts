import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  selectCanResend,
  selectCanVerify,
  selectInviteCodeShown,
  selectIsSending,
  selectIsVerifying,
  selectNoticeText,
  selectResendLabel,
  selectStep,
  selectTelegramLink,
} from '../../machines/signIn/signIn.selectors';
import { flush, session, startSignInSystem } from '../support/signIn/fakes';

type System = ReturnType<typeof startSignInSystem>;

function typeEmail(sys: System, email: string) {
  sys.signIn.send({ type: 'signIn.open' });
  sys.signIn.send({ type: 'signIn.emailChanged', email });
  sys.signIn.send({ type: 'signIn.submitEmail' });
}

async function reachCodeStep(sys: System, signCode?: string) {
  typeEmail(sys, 'don@example.com');
  sys.sendCalls.at(-1)!.result.resolve({ signCode, inviteCode: 'ABC123' });
  await flush();
}

/** The code verified for an account that still has to link Telegram (`link` is its bot link). */
async function reachTelegramStep(sys: System, link: string) {
  await reachCodeStep(sys, '123456');
  sys.signIn.send({ type: 'signIn.verify' });
  sys.verifyCalls[0]!.result.resolve(session({ user_telegram_link: link }));
  await flush();
}

function enterCode(sys: System, code: string) {
  code.split('').forEach((digit, index) => {
    sys.signIn.send({ type: 'signIn.digitEntered', index, digit });
  });
}

describe('sign-in machine', () => {
  let sys: System;
  beforeEach(() => {
    vi.useFakeTimers();
    sys = startSignInSystem({ codeInvite: 'abCD12' });
  });
  afterEach(() => {
    sys.rootActor.stop();
    vi.useRealTimers();
  });

  it('starts closed, opens on signIn.open at the e-mail step, closes on signIn.close', () => {
    expect(selectStep(sys.signIn.getSnapshot())).toBeNull();
    sys.signIn.send({ type: 'signIn.open' });
    expect(selectStep(sys.signIn.getSnapshot())).toBe('email');
    sys.signIn.send({ type: 'signIn.close' });
    expect(sys.signIn.getSnapshot().matches('closed')).toBe(true);
  });

  it.each(['', 'plain', 'a@b', 'a b@c.d', '@b.c', 'a@.c ', 'a@b.'])(
    'rejects the e-mail %j with the banner message and makes no call',
    (email) => {
      typeEmail(sys, email);
      const s = sys.signIn.getSnapshot();
      expect(selectStep(s)).toBe('email');
      expect(selectIsSending(s)).toBe(false);
      expect(selectNoticeText(s)).toBe('Please enter valid e-mail address.');
      expect(sys.sendCalls).toHaveLength(0);
      expect(sys.bannerEvents).toContainEqual({
        type: 'info.show',
        message: 'Please enter valid e-mail address.',
        messageType: 'error',
      });
    },
  );

  it('keeps the message in the modal when no banner service runs', () => {
    sys.rootActor.stop();
    sys = startSignInSystem({ withBanner: false });
    typeEmail(sys, 'nope');
    expect(selectNoticeText(sys.signIn.getSnapshot())).toBe('Please enter valid e-mail address.');
    expect(sys.bannerEvents).toHaveLength(0);
  });

  it('sends auth/email/init with e-mail, invite code and resend=false, busy while sending [§7.calls.auth]', async () => {
    typeEmail(sys, ' don@example.com ');
    expect(selectIsSending(sys.signIn.getSnapshot())).toBe(true);
    expect(sys.sendCalls.map((c) => c.input)).toEqual([
      { email: 'don@example.com', inviteCode: 'abCD12', resend: false },
    ]);
    sys.sendCalls[0]!.result.resolve({ inviteCode: 'abCD12' });
    await flush();
    const s = sys.signIn.getSnapshot();
    expect(selectStep(s)).toBe('code');
    expect(selectResendLabel(s)).toBe('Resend in 30s');
    expect(selectCanResend(s)).toBe(false);
  });

  it('a send failure shows "Failed to send code: {error}" and keeps the e-mail', async () => {
    typeEmail(sys, 'don@example.com');
    sys.sendCalls[0]!.result.reject({ kind: 'http', message: 'Request failed with status 500' });
    await flush();
    const s = sys.signIn.getSnapshot();
    expect(selectStep(s)).toBe('email');
    expect(s.context.email).toBe('don@example.com');
    expect(selectNoticeText(s)).toBe('Failed to send code: Request failed with status 500');
  });

  it('shows the invite code upper-cased except on the code step [§2.signin.inviteShown]', async () => {
    sys.signIn.send({ type: 'signIn.open' });
    expect(selectInviteCodeShown(sys.signIn.getSnapshot())).toBe('ABCD12');
    await reachCodeStep(sys);
    expect(selectInviteCodeShown(sys.signIn.getSnapshot())).toBeNull();
    sys.signIn.send({ type: 'signIn.changeEmail' });
    // the send reported the code it used: that one is active now
    expect(selectInviteCodeShown(sys.signIn.getSnapshot())).toBe('ABC123');
    sys.signIn.send({ type: 'inviteCode.stored', code: 'Zz9' });
    expect(selectInviteCodeShown(sys.signIn.getSnapshot())).toBe('ZZ9');
  });

  it('counts the resend cooldown down each second and allows resend after 30 s', async () => {
    await reachCodeStep(sys);
    vi.advanceTimersByTime(1000);
    expect(selectResendLabel(sys.signIn.getSnapshot())).toBe('Resend in 29s');
    sys.signIn.send({ type: 'signIn.resend' });
    expect(sys.sendCalls).toHaveLength(1);
    vi.advanceTimersByTime(28_000);
    expect(selectResendLabel(sys.signIn.getSnapshot())).toBe('Resend in 1s');
    expect(selectCanResend(sys.signIn.getSnapshot())).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(selectResendLabel(sys.signIn.getSnapshot())).toBe('Resend Code');
    expect(selectCanResend(sys.signIn.getSnapshot())).toBe(true);
    sys.signIn.send({ type: 'signIn.resend' });
    expect(sys.sendCalls.at(-1)!.input).toEqual({
      email: 'don@example.com',
      inviteCode: 'ABC123',
      resend: true,
    });
    sys.sendCalls.at(-1)!.result.resolve({ signCode: '654321', inviteCode: 'ABC123' });
    await flush();
    const s = sys.signIn.getSnapshot();
    expect(selectResendLabel(s)).toBe('Resend in 30s');
    expect(s.context.digits.join('')).toBe('654321');
  });

  it('a failed resend shows the send message and allows another resend', async () => {
    await reachCodeStep(sys);
    vi.advanceTimersByTime(30_000);
    sys.signIn.send({ type: 'signIn.resend' });
    sys.sendCalls.at(-1)!.result.reject(new Error('Network down'));
    await flush();
    expect(selectNoticeText(sys.signIn.getSnapshot())).toBe('Failed to send code: Network down');
    expect(selectCanResend(sys.signIn.getSnapshot())).toBe(true);
  });

  it('one request at a time: Verify during an in-flight resend starts no verification', async () => {
    await reachCodeStep(sys);
    await vi.advanceTimersByTimeAsync(30_000);
    enterCode(sys, '123456');
    sys.signIn.send({ type: 'signIn.resend' });
    expect(sys.sendCalls).toHaveLength(2);
    expect(selectCanVerify(sys.signIn.getSnapshot())).toBe(false);
    sys.signIn.send({ type: 'signIn.verify' });
    expect(sys.verifyCalls).toHaveLength(0);
    expect(selectIsVerifying(sys.signIn.getSnapshot())).toBe(false);
    expect(selectNoticeText(sys.signIn.getSnapshot())).toBeNull();
    // Once the new code is out, the code typed verifies as usual.
    sys.sendCalls.at(-1)!.result.resolve({ inviteCode: 'ABC123' });
    await flush();
    enterCode(sys, '123456');
    sys.signIn.send({ type: 'signIn.verify' });
    expect(sys.verifyCalls.map((c) => c.input)).toEqual([
      { email: 'don@example.com', code: '123456' },
    ]);
  });

  it('prefills the boxes with the development sign_code', async () => {
    await reachCodeStep(sys, '123456');
    expect(sys.signIn.getSnapshot().context.digits).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(selectCanVerify(sys.signIn.getSnapshot())).toBe(true);
  });

  it('accepts one digit per box, ignores anything else, erases and pastes [§5.code.boxes]', async () => {
    await reachCodeStep(sys);
    sys.signIn.send({ type: 'signIn.digitEntered', index: 0, digit: 'a' });
    sys.signIn.send({ type: 'signIn.digitEntered', index: 1, digit: '12' });
    sys.signIn.send({ type: 'signIn.digitEntered', index: 6, digit: '1' });
    expect(sys.signIn.getSnapshot().context.digits).toEqual(['', '', '', '', '', '']);
    sys.signIn.send({ type: 'signIn.digitEntered', index: 2, digit: '7' });
    expect(sys.signIn.getSnapshot().context.digits).toEqual(['', '', '7', '', '', '']);
    sys.signIn.send({ type: 'signIn.digitErased', index: 2 });
    expect(sys.signIn.getSnapshot().context.digits).toEqual(['', '', '', '', '', '']);
    sys.signIn.send({ type: 'signIn.codePasted', text: ' 98-76 54 ' });
    expect(sys.signIn.getSnapshot().context.digits.join('')).toBe('987654');
  });

  it('an incomplete code shows "Please enter a valid 6-digit code." and makes no call [§9.limits.code]', async () => {
    await reachCodeStep(sys);
    enterCode(sys, '12345');
    expect(selectCanVerify(sys.signIn.getSnapshot())).toBe(false);
    sys.signIn.send({ type: 'signIn.verify' });
    expect(selectNoticeText(sys.signIn.getSnapshot())).toBe('Please enter a valid 6-digit code.');
    expect(sys.verifyCalls).toHaveLength(0);
  });

  it('verifies, hands the session to the auth service and closes', async () => {
    await reachCodeStep(sys);
    enterCode(sys, '123456');
    sys.signIn.send({ type: 'signIn.verify' });
    expect(selectIsVerifying(sys.signIn.getSnapshot())).toBe(true);
    expect(sys.verifyCalls[0]!.input).toEqual({ email: 'don@example.com', code: '123456' });
    const verified = session();
    sys.verifyCalls[0]!.result.resolve(verified);
    await flush();
    expect(sys.signIn.getSnapshot().matches('closed')).toBe(true);
    expect(sys.authEvents).toEqual([
      {
        type: 'auth.signedIn',
        jwt: 'jwt-1',
        refreshToken: 'refresh-1',
        userData: verified.userData,
      },
    ]);
  });

  it('a failed verification clears the boxes with the server message or the default', async () => {
    await reachCodeStep(sys);
    enterCode(sys, '123456');
    sys.signIn.send({ type: 'signIn.verify' });
    sys.verifyCalls[0]!.result.reject({
      kind: 'http',
      message: 'HTTP 400',
      serverMessage: 'Invalid code',
    });
    await flush();
    let s = sys.signIn.getSnapshot();
    expect(selectNoticeText(s)).toBe('Invalid code');
    expect(s.context.digits).toEqual(['', '', '', '', '', '']);
    enterCode(sys, '123456');
    sys.signIn.send({ type: 'signIn.verify' });
    sys.verifyCalls[1]!.result.reject({ kind: 'network', message: 'timeout' });
    await flush();
    s = sys.signIn.getSnapshot();
    expect(selectNoticeText(s)).toBe('Failed to verify code. Please try again.');
    expect(sys.authEvents).toHaveLength(0);
  });

  it('Change E-mail returns to step 1, clears the code and keeps the e-mail', async () => {
    await reachCodeStep(sys, '123456');
    sys.signIn.send({ type: 'signIn.changeEmail' });
    const s = sys.signIn.getSnapshot();
    expect(selectStep(s)).toBe('email');
    expect(s.context.digits).toEqual(['', '', '', '', '', '']);
    expect(s.context.email).toBe('don@example.com');
  });

  it('Change E-mail, same address inside 30 s: back to the code step, no request, countdown left', async () => {
    await reachCodeStep(sys);
    vi.advanceTimersByTime(3000);
    sys.signIn.send({ type: 'signIn.changeEmail' });
    vi.advanceTimersByTime(2000);
    expect(sys.signIn.getSnapshot().context.resendSecondsLeft).toBe(25);
    sys.signIn.send({ type: 'signIn.emailChanged', email: ' don@example.com ' });
    sys.signIn.send({ type: 'signIn.submitEmail' });
    const s = sys.signIn.getSnapshot();
    expect(sys.sendCalls).toHaveLength(1);
    expect(selectStep(s)).toBe('code');
    expect(selectResendLabel(s)).toBe('Resend in 25s');
    expect(selectNoticeText(s)).toBeNull();
    // The code already sent still verifies.
    enterCode(sys, '123456');
    sys.signIn.send({ type: 'signIn.verify' });
    expect(sys.verifyCalls.at(-1)!.input).toEqual({ email: 'don@example.com', code: '123456' });
  });

  it('the countdown ends at 30 s on the e-mail step; the same address then sends a new code', async () => {
    await reachCodeStep(sys);
    sys.signIn.send({ type: 'signIn.changeEmail' });
    vi.advanceTimersByTime(30_000);
    expect(sys.signIn.getSnapshot().context.resendSecondsLeft).toBe(0);
    sys.signIn.send({ type: 'signIn.submitEmail' });
    expect(selectIsSending(sys.signIn.getSnapshot())).toBe(true);
    expect(sys.sendCalls).toHaveLength(2);
  });

  it('Change E-mail, another address: a new code is requested as before', async () => {
    await reachCodeStep(sys);
    sys.signIn.send({ type: 'signIn.changeEmail' });
    sys.signIn.send({ type: 'signIn.emailChanged', email: 'vito@example.com' });
    sys.signIn.send({ type: 'signIn.submitEmail' });
    expect(sys.sendCalls.at(-1)!.input).toMatchObject({ email: 'vito@example.com', resend: false });
    sys.sendCalls.at(-1)!.result.resolve({ inviteCode: 'ABC123' });
    await flush();
    expect(selectResendLabel(sys.signIn.getSnapshot())).toBe('Resend in 30s');
  });

  it('a send refused with 429 and Retry-After shows the code step with that countdown', async () => {
    typeEmail(sys, 'don@example.com');
    sys.sendCalls.at(-1)!.result.reject({
      kind: 'http',
      status: 429,
      message: 'Please wait 29 s before requesting a new code.',
      serverMessage: 'Please wait 29 s before requesting a new code.',
      retryAfterSeconds: 29,
    });
    await flush();
    let s = sys.signIn.getSnapshot();
    expect(selectStep(s)).toBe('code');
    expect(selectResendLabel(s)).toBe('Resend in 29s');
    expect(selectNoticeText(s)).toBeNull();
    vi.advanceTimersByTime(29_000);
    s = sys.signIn.getSnapshot();
    expect(selectCanResend(s)).toBe(true);
    // A resend refused the same way counts down again; any other failure keeps the message.
    sys.signIn.send({ type: 'signIn.resend' });
    sys.sendCalls.at(-1)!.result.reject({ message: 'x', status: 429, retryAfterSeconds: 4 });
    await flush();
    expect(selectResendLabel(sys.signIn.getSnapshot())).toBe('Resend in 4s');
  });

  it('a 429 without Retry-After is a send failure like any other', async () => {
    typeEmail(sys, 'don@example.com');
    sys.sendCalls.at(-1)!.result.reject({ message: 'Too many', serverMessage: 'Slow down' });
    await flush();
    const s = sys.signIn.getSnapshot();
    expect(selectStep(s)).toBe('email');
    expect(selectNoticeText(s)).toBe('Failed to send code: Slow down');
  });

  it('with a pending Telegram link shows step 3; Open Telegram signs in and closes', async () => {
    await reachTelegramStep(sys, 'https://t.me/bot?start=x');
    expect(selectStep(sys.signIn.getSnapshot())).toBe('telegram');
    expect(selectTelegramLink(sys.signIn.getSnapshot())).toBe('https://t.me/bot?start=x');
    expect(sys.authEvents).toHaveLength(0);
    sys.signIn.send({ type: 'signIn.telegramOpened' });
    expect(sys.signIn.getSnapshot().matches('closed')).toBe(true);
    expect(sys.authEvents).toHaveLength(1);
  });

  it('Back to E-mail from the Telegram step drops the verified session', async () => {
    await reachTelegramStep(sys, 'https://t.me/x');
    sys.signIn.send({ type: 'signIn.backToEmail' });
    const s = sys.signIn.getSnapshot();
    expect(selectStep(s)).toBe('email');
    expect(s.context.pending).toBeNull();
    sys.signIn.send({ type: 'signIn.close' });
    expect(sys.authEvents).toHaveLength(0);
  });

  it('closing the Telegram step keeps the verified sign-in', async () => {
    await reachTelegramStep(sys, 'https://t.me/x');
    sys.signIn.send({ type: 'signIn.close' });
    expect(sys.authEvents.map((e) => e.type)).toEqual(['auth.signedIn']);
  });

  it('closing while sending cancels the call and reopening starts at the e-mail step', async () => {
    typeEmail(sys, 'don@example.com');
    sys.signIn.send({ type: 'signIn.close' });
    sys.sendCalls[0]!.result.resolve({ inviteCode: null });
    await flush();
    expect(sys.signIn.getSnapshot().matches('closed')).toBe(true);
    sys.signIn.send({ type: 'signIn.open' });
    const s = sys.signIn.getSnapshot();
    expect(selectStep(s)).toBe('email');
    expect(s.context.email).toBe('don@example.com');
  });
});
