import type { AuthUserData } from '../auth/auth.types';
import type { ServiceInput } from '../shared/stored';
import { SIGN_IN_RULE_MESSAGES } from '../../contract/messages';

/** Spawned by the app machine with the storage snapshot (`stored.codeInvite`). */
export type SignInInput = ServiceInput;

/**
 * What the sign-in machine needs provided (actor input/output contracts) and what it emits.
 * The browser implementations live in src/app/provide/signIn.ts.
 */

/** Fixed texts of §5 and §8 for the sign-in flow. */
export const SIGN_IN_MESSAGES = {
  ...SIGN_IN_RULE_MESSAGES,
  verifyFailed: 'Failed to verify code. Please try again.',
  sendFailed: (error: string) => `Failed to send code: ${error}`,
} as const;

/**
 * How a provided api actor rejects: `serverMessage` is the `message` of the server's error body
 * when the server answered one; `message` describes any failure (network, timeout, bad body).
 */
export type SignInFailure = {
  message: string;
  serverMessage?: string | undefined;
  /** A refusal for the resend cooldown (HTTP 429): the server's `Retry-After`, in seconds. */
  retryAfterSeconds?: number | undefined;
};

/** auth/email/init: `data {email, code_invite, resend}` (§7). */
export type SendCodeInput = { email: string; inviteCode: string | null; resend: boolean };
/**
 * `sign_code` comes back only in development mode; it prefills the boxes. `inviteCode` is the
 * code from a link that was sent, or null when a fallback went out instead (never shown, §2).
 */
export type SendCodeOutput = { signCode?: string | undefined; inviteCode: string | null };

/** auth/email/verify: `data {email, code}` (§7). */
export type VerifyCodeInput = { email: string; code: string };

/** The verified session, handed to the auth service as `auth.signedIn`. */
export type VerifyCodeOutput = { jwt: string; refreshToken: string; userData: AuthUserData };

/** A message of the flow: it goes to the information banner and is also shown in the modal. */
export type SignInNotice = { type: 'error' | 'info'; text: string };

export type SignInContext = {
  email: string;
  /** One entry per box: '' or a single digit. */
  digits: string[];
  /** The active invite code as stored (shown upper-cased), or null when none is set. */
  inviteCode: string | null;
  notice: SignInNotice | null;
  /**
   * Seconds left on the resend cooldown, counted down by a per-second tick of the chart; it keeps
   * counting on the e-mail step after Change E-mail.
   */
  resendSecondsLeft: number;
  /** The address (trimmed) the last code went to, while the modal stays open. */
  codeSentTo: string | null;
  /** Verified session held while the Telegram step is shown (see `hasTelegramLink`). */
  pending: VerifyCodeOutput | null;
};

export type SignInEvent =
  | { type: 'signIn.open' }
  | { type: 'signIn.close' }
  /** Another tab of the site signed in (the auth service tells): this dialog has no more to do. */
  | { type: 'signIn.signedInElsewhere' }
  | { type: 'signIn.emailChanged'; email: string }
  | { type: 'signIn.submitEmail' }
  | { type: 'signIn.digitEntered'; index: number; digit: string }
  | { type: 'signIn.digitErased'; index: number }
  | { type: 'signIn.codePasted'; text: string }
  | { type: 'signIn.verify' }
  | { type: 'signIn.resend' }
  | { type: 'signIn.changeEmail' }
  | { type: 'signIn.telegramOpened' }
  | { type: 'signIn.backToEmail' }
  /** The invite-code route or the home page's `?i=` stored a code (already sanitised). */
  | { type: 'inviteCode.stored'; code: string };
