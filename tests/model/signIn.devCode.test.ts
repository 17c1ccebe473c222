import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { selectDigit, selectStep } from '../../machines/signIn/signIn.selectors';
import { SPEC_TIMERS } from '../support/oracle';
import { flush, startSignInSystem } from '../support/signIn/fakes';

/**
 * §7 auth/email/init answers `sign_code` in development mode only, and it prefills the code: the
 * six boxes show it on step 2, after the first request and after a resend. Without it (the
 * production answer) the boxes start empty.
 */
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const boxes = (t: ReturnType<typeof startSignInSystem>) =>
  [0, 1, 2, 3, 4, 5].map((i) => selectDigit(i)(t.signIn.getSnapshot())).join('');

async function codeStep(signCode?: string) {
  const t = startSignInSystem();
  t.signIn.send({ type: 'signIn.open' });
  t.signIn.send({ type: 'signIn.emailChanged', email: 'don@example.com' });
  t.signIn.send({ type: 'signIn.submitEmail' });
  t.sendCalls[0]!.result.resolve({ inviteCode: null, ...(signCode ? { signCode } : {}) });
  await flush();
  expect(selectStep(t.signIn.getSnapshot())).toBe('code');
  return t;
}

describe('§7 sign_code (development mode) prefills the code', () => {
  it('after the first request the boxes show it', async () => {
    expect(boxes(await codeStep('654321'))).toBe('654321');
  });

  it('only its digits, six of them, as a pasted code would', async () => {
    expect(boxes(await codeStep('65-43 21 9'))).toBe('654321');
  });

  it('without it (production) the boxes start empty', async () => {
    expect(boxes(await codeStep())).toBe('');
  });

  it('a resend replaces what was typed with the new code', async () => {
    const t = await codeStep('654321');
    t.signIn.send({ type: 'signIn.digitErased', index: 5 });
    expect(boxes(t)).toBe('65432');
    await vi.advanceTimersByTimeAsync(SPEC_TIMERS.resendCooldown);
    t.signIn.send({ type: 'signIn.resend' });
    expect(t.sendCalls).toHaveLength(2);
    t.sendCalls[1]!.result.resolve({ inviteCode: null, signCode: '111222' });
    await flush();
    expect(boxes(t)).toBe('111222');
  });

  it('a resend without it clears the boxes', async () => {
    const t = await codeStep('654321');
    await vi.advanceTimersByTimeAsync(SPEC_TIMERS.resendCooldown);
    t.signIn.send({ type: 'signIn.resend' });
    t.sendCalls[1]!.result.resolve({ inviteCode: null });
    await flush();
    expect(boxes(t)).toBe('');
  });
});
