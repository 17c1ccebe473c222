/** Derived view data of the sign-in machine: one primitive per selector (§2 Sign-in modal). */
import type { SnapshotFrom } from 'xstate';
import type { signInMachine } from './signIn.machine';
import { isSixDigitCode } from './signIn.rules';

export type SignInSnapshot = SnapshotFrom<typeof signInMachine>;
export type SignInStep = 'email' | 'code' | 'telegram';

export const selectIsOpen = (s: SignInSnapshot): boolean => s.matches('open');

export const selectStep = (s: SignInSnapshot): SignInStep | null =>
  s.hasTag('step.email')
    ? 'email'
    : s.hasTag('step.code')
      ? 'code'
      : s.hasTag('step.telegram')
        ? 'telegram'
        : null;

export const selectEmail = (s: SignInSnapshot): string => s.context.email;

export const selectIsSending = (s: SignInSnapshot): boolean =>
  s.matches({ open: { email: { form: 'sendingCode' } } });

export const selectIsVerifying = (s: SignInSnapshot): boolean =>
  s.matches({ open: { code: { entry: 'verifying' } } });

export const selectIsResending = (s: SignInSnapshot): boolean => s.hasTag('resending');

/** Resend is possible exactly when the chart accepts `signIn.resend`. */
export const selectCanResend = (s: SignInSnapshot): boolean => s.can({ type: 'signIn.resend' });

export const selectResendLabel = (s: SignInSnapshot): string =>
  s.matches({ open: { code: { resend: 'coolingDown' } } })
    ? `Resend in ${s.context.resendSecondsLeft}s`
    : s.hasTag('resending')
      ? 'Sending...'
      : 'Resend Code';

export const selectDigit =
  (index: number) =>
  (s: SignInSnapshot): string =>
    // Stryker disable next-line StringLiteral: the six boxes always hold a text; the fallback is for TypeScript
    s.context.digits[index] ?? '';

export const selectCodeComplete = (s: SignInSnapshot): boolean => isSixDigitCode(s.context.digits);

export const selectCanVerify = (s: SignInSnapshot): boolean =>
  isSixDigitCode(s.context.digits) && s.can({ type: 'signIn.verify' });

/** §2: the active invite code, upper-cased, shown when set and the step is not 2. */
export const selectInviteCodeShown = (s: SignInSnapshot): string | null =>
  s.context.inviteCode && !s.hasTag('step.code') ? s.context.inviteCode.toUpperCase() : null;

export const selectNoticeText = (s: SignInSnapshot): string | null =>
  s.context.notice?.text ?? null;

export const selectTelegramLink = (s: SignInSnapshot): string | null =>
  s.context.pending?.userData.user_telegram_link ?? null;
