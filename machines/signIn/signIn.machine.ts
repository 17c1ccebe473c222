import { assign, enqueueActions, fromPromise, setup, stateIn } from 'xstate';
import type { AuthEvent } from '../auth/auth.types';
import { readFailure } from '../shared/callError';
import type { InfoShowEvent } from '../notifications/notifications.types';
import { SYSTEM_IDS, sendToService } from '../systemIds';
import {
  digitsFromText,
  emptyDigits,
  isBoxIndex,
  isDigit,
  isSixDigitCode,
  isValidEmail,
} from './signIn.rules';
import { RESEND_SECONDS } from '../../contract/spec';
import {
  SIGN_IN_MESSAGES,
  type SendCodeInput,
  type SendCodeOutput,
  type SignInContext,
  type SignInEvent,
  type SignInFailure,
  type SignInInput,
  type SignInNotice,
  type VerifyCodeInput,
  type VerifyCodeOutput,
} from './signIn.types';

/** A rejection of a provided api actor, read as the SignInFailure contract. */
function failureOf(error: unknown): SignInFailure {
  const { message, serverMessage, retryAfterSeconds } = readFailure(error);
  return { message: message ?? 'Unknown error', serverMessage, retryAfterSeconds };
}

/** `{error}` of 'Failed to send code: {error}': the server's message, else the failure's. */
function sendErrorText(error: unknown): string {
  const failure = failureOf(error);
  return failure.serverMessage ?? failure.message;
}

/** The rejection carried by an actor's error event (the params of the refusal branches). */
const errorOf = ({ event }: { event: { error?: unknown } }): unknown => event.error;

/** 'Failed to send code: {error}' (§8) for a code request that failed. */
const sendFailedNotice = {
  type: 'showNotice' as const,
  params: ({ event }: { event: { error?: unknown } }): SignInNotice => ({
    type: 'error',
    text: SIGN_IN_MESSAGES.sendFailed(sendErrorText(event.error)),
  }),
};

/** A digit typed into a box (the params of the digit-entry guard and action). */
type DigitEntry = { index: number; digit: string };

const digitEntry = ({
  event,
}: {
  event: Extract<SignInEvent, { type: 'signIn.digitEntered' }>;
}) => ({
  index: event.index,
  digit: event.digit,
});

/** The session held for the Telegram step: holdSession stored it on the way in. */
function heldSession({ context }: { context: SignInContext }): VerifyCodeOutput {
  if (context.pending === null) throw new Error('no session held for the Telegram step');
  return context.pending;
}

/** Seconds a cooldown refusal (HTTP 429 with Retry-After) asks to wait, or null for any other. */
function cooldownRefusal(error: unknown): number | null {
  return failureOf(error).retryAfterSeconds ?? null;
}

/**
 * The resend countdown as a state: ends after the seconds left when it is entered, ticking them
 * down each second. The code step and the e-mail step (after Change E-mail) both run it.
 */
const countdown = (done: string) => ({
  after: { resendCooldown: { target: done, actions: 'endCountdown' as const } },
  initial: 'counting' as const,
  states: {
    counting: {
      after: {
        resendTick: { target: 'counting', reenter: true, actions: 'tickCountdown' as const },
      },
    },
  },
});

/**
 * Sign-in modal (§2 Sign-in modal, §4 Sign-in steps, §5, §8): closed or open; steps
 * e-mail → code → Telegram. Sends auth/email/init and auth/email/verify through provided actors
 * and hands the verified session to the auth service (`auth.signedIn`).
 */
export const signInMachine = setup({
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
    input: {} as SignInInput,
  },
  actors: {
    sendCode: fromPromise<SendCodeOutput, SendCodeInput>(async () => {
      throw new Error('sendCode actor not provided');
    }),
    verifyCode: fromPromise<VerifyCodeOutput, VerifyCodeInput>(async () => {
      throw new Error('verifyCode actor not provided');
    }),
  },
  guards: {
    isValidEmail: ({ context }) => isValidEmail(context.email),
    isSixDigits: ({ context }) => isSixDigitCode(context.digits),
    isDigitEntry: (_, params: DigitEntry) => isBoxIndex(params.index) && isDigit(params.digit),
    /**
     * The one rule for the Telegram step (the spec leaves its trigger open): after a successful
     * verification, a Telegram link pending on the account (`user_telegram_link`) shows step 3.
     */
    /** One request at a time on the code step: no resend while the code is being verified. */
    isAwaitingCode: stateIn('#signIn.open.code.entry.awaitingCode'),
    /**
     * Continue with the address the last code went to while its resend countdown runs: no new
     * request (the server would refuse it), back to the code step, whose code still verifies.
     */
    isCoolingDownForAddress: ({ context }) =>
      isValidEmail(context.email) &&
      context.email.trim() === context.codeSentTo &&
      context.resendSecondsLeft > 0,
    isCountingDown: ({ context }) => context.resendSecondsLeft > 0,
    /** A code request refused for the cooldown (429 with Retry-After). */
    isCooldownRefusal: (_, error: unknown) => cooldownRefusal(error) !== null,
    /** One request at a time on the code step: no verification while a new code is being sent. */
    isResending: stateIn('#signIn.open.code.resend.resendingCode'),
    hasTelegramLink: (_, session: VerifyCodeOutput) => Boolean(session.userData.user_telegram_link),
  },
  delays: {
    /** What is left of the countdown when its state is entered (30 s after a new code). */
    resendCooldown: ({ context }) => context.resendSecondsLeft * 1000,
    resendTick: 1000,
  },
  actions: {
    /** Shows a message in the modal and on the information banner when that service runs. */
    showNotice: enqueueActions((queue, notice: SignInNotice) => {
      queue.enqueue.assign({ notice });
      const show: InfoShowEvent = {
        type: 'info.show',
        message: notice.text,
        messageType: notice.type,
      };
      sendToService(queue, SYSTEM_IDS.notifications, show);
    }),
    clearNotice: assign({ notice: null }),
    storeEmail: assign({ email: (_, email: string) => email }),
    storeInviteCode: assign({
      inviteCode: ({ context }, code: string | null) => code || context.inviteCode,
    }),
    enterDigit: assign({
      digits: ({ context }, { index, digit }: DigitEntry) =>
        context.digits.map((d, i) => (i === index ? digit : d)),
    }),
    /** Clears one box; an index outside the six matches no box and changes nothing. */
    eraseDigit: assign({
      digits: ({ context }, index: number) => context.digits.map((d, i) => (i === index ? '' : d)),
    }),
    pasteCode: assign({ digits: (_, text: string) => digitsFromText(text) }),
    /** Development mode: the server's `sign_code` prefills the boxes. */
    prefillCode: assign({
      digits: ({ context }, output: SendCodeOutput) =>
        output.signCode ? digitsFromText(output.signCode) : context.digits,
    }),
    clearDigits: assign({ digits: () => emptyDigits() }),
    startCountdown: assign({ resendSecondsLeft: RESEND_SECONDS }),
    /** The server's Retry-After of a cooldown refusal becomes the countdown. */
    holdCooldown: assign({
      resendSecondsLeft: (_, error: unknown) => cooldownRefusal(error) ?? 0,
    }),
    /** The address counts only while a countdown runs (isCoolingDownForAddress). */
    rememberAddress: assign({ codeSentTo: ({ context }) => context.email.trim() }),
    tickCountdown: assign({
      resendSecondsLeft: ({ context }) => Math.max(0, context.resendSecondsLeft - 1),
    }),
    endCountdown: assign({ resendSecondsLeft: 0 }),
    holdSession: assign({ pending: (_, session: VerifyCodeOutput) => session }),
    dropSession: assign({ pending: null }),
    handOverSession: enqueueActions((queue, session: VerifyCodeOutput) => {
      const signedIn: Extract<AuthEvent, { type: 'auth.signedIn' }> = {
        type: 'auth.signedIn',
        jwt: session.jwt,
        refreshToken: session.refreshToken,
        userData: session.userData,
      };
      sendToService(queue, SYSTEM_IDS.auth, signedIn);
    }),
    // A message the signed-out page left on the banner (a mistyped address, a refused code) must
    // not follow the player into the signed-in home.
    clearBanner: enqueueActions((queue) =>
      sendToService(queue, SYSTEM_IDS.notifications, { type: 'info.dismiss' }),
    ),
  },
}).createMachine({
  id: 'signIn',
  context: ({ input }) => ({
    email: '',
    digits: emptyDigits(),
    inviteCode: input.stored.codeInvite || null,
    notice: null,
    resendSecondsLeft: 0,
    codeSentTo: null,
    pending: null,
  }),
  on: {
    'inviteCode.stored': {
      actions: { type: 'storeInviteCode', params: ({ event }) => event.code },
    },
  },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'signIn.open': {
          target: 'open',
          actions: ['clearDigits', 'endCountdown'],
        },
      },
    },
    open: {
      initial: 'email',
      on: {
        'signIn.close': { target: 'closed', actions: 'clearNotice' },
        // The player is signed in by another tab: the dialog closes for good, whatever its step
        // (a session this tab held for the Telegram step is dropped: the other tab's stands).
        'signIn.signedInElsewhere': { target: 'closed', actions: ['clearNotice', 'dropSession'] },
      },
      states: {
        email: {
          type: 'parallel',
          tags: ['step.email'],
          states: {
            form: {
              initial: 'editing',
              states: {
                editing: {
                  on: {
                    'signIn.emailChanged': {
                      actions: [
                        { type: 'storeEmail', params: ({ event }) => event.email },
                        'clearNotice',
                      ],
                    },
                    'signIn.submitEmail': [
                      {
                        guard: 'isCoolingDownForAddress',
                        target: '#signIn.open.code',
                      },
                      { guard: 'isValidEmail', target: 'sendingCode', actions: 'clearNotice' },
                      {
                        actions: {
                          type: 'showNotice',
                          params: { type: 'error', text: SIGN_IN_MESSAGES.invalidEmail },
                        },
                      },
                    ],
                  },
                },
                sendingCode: {
                  invoke: {
                    id: 'sendCode',
                    src: 'sendCode',
                    input: ({ context }) => ({
                      email: context.email.trim(),
                      inviteCode: context.inviteCode,
                      resend: false,
                    }),
                    onDone: {
                      target: '#signIn.open.code',
                      actions: [
                        'startCountdown',
                        'rememberAddress',
                        {
                          type: 'storeInviteCode',
                          params: ({ event }) => event.output.inviteCode,
                        },
                        { type: 'prefillCode', params: ({ event }) => event.output },
                      ],
                    },
                    onError: [
                      {
                        // The last code to this address is still valid: its step, its countdown.
                        guard: { type: 'isCooldownRefusal', params: errorOf },
                        target: '#signIn.open.code',
                        actions: [{ type: 'holdCooldown', params: errorOf }, 'rememberAddress'],
                      },
                      {
                        target: 'editing',
                        actions: sendFailedNotice,
                      },
                    ],
                  },
                },
              },
            },
            /** The countdown of the last code keeps running while another address is typed. */
            cooldown: {
              initial: 'idle',
              states: {
                idle: { always: { guard: 'isCountingDown', target: 'running' } },
                running: countdown('idle'),
              },
            },
          },
        },
        code: {
          type: 'parallel',
          tags: ['step.code'],
          on: {
            'signIn.changeEmail': {
              target: 'email',
              actions: ['clearDigits', 'clearNotice'],
            },
          },
          states: {
            entry: {
              initial: 'awaitingCode',
              states: {
                awaitingCode: {
                  on: {
                    'signIn.digitEntered': {
                      guard: { type: 'isDigitEntry', params: digitEntry },
                      actions: [{ type: 'enterDigit', params: digitEntry }, 'clearNotice'],
                    },
                    'signIn.digitErased': {
                      actions: { type: 'eraseDigit', params: ({ event }) => event.index },
                    },
                    'signIn.codePasted': {
                      actions: [
                        { type: 'pasteCode', params: ({ event }) => event.text },
                        'clearNotice',
                      ],
                    },
                    'signIn.verify': [
                      // Ignored while a resend is in flight (the Verify button is disabled then).
                      { guard: 'isResending' },
                      { guard: 'isSixDigits', target: 'verifying', actions: 'clearNotice' },
                      {
                        actions: {
                          type: 'showNotice',
                          params: { type: 'error', text: SIGN_IN_MESSAGES.invalidCode },
                        },
                      },
                    ],
                  },
                },
                verifying: {
                  invoke: {
                    id: 'verifyCode',
                    src: 'verifyCode',
                    input: ({ context }) => ({
                      email: context.email.trim(),
                      code: context.digits.join(''),
                    }),
                    onDone: [
                      {
                        guard: { type: 'hasTelegramLink', params: ({ event }) => event.output },
                        target: '#signIn.open.telegram',
                        // The code is used up: no countdown of it survives Back to E-mail.
                        actions: [
                          { type: 'holdSession', params: ({ event }) => event.output },
                          'endCountdown',
                        ],
                      },
                      {
                        target: '#signIn.closed',
                        actions: [
                          { type: 'handOverSession', params: ({ event }) => event.output },
                          'clearBanner',
                          'clearDigits',
                        ],
                      },
                    ],
                    onError: {
                      target: 'awaitingCode',
                      actions: [
                        'clearDigits',
                        {
                          type: 'showNotice',
                          params: ({ event }) => ({
                            type: 'error' as const,
                            text:
                              failureOf(event.error).serverMessage ?? SIGN_IN_MESSAGES.verifyFailed,
                          }),
                        },
                      ],
                    },
                  },
                },
              },
            },
            resend: {
              initial: 'coolingDown',
              states: {
                coolingDown: countdown('ready'),
                ready: {
                  on: { 'signIn.resend': { guard: 'isAwaitingCode', target: 'resendingCode' } },
                },
                resendingCode: {
                  tags: ['resending'],
                  invoke: {
                    id: 'resendCode',
                    src: 'sendCode',
                    input: ({ context }) => ({
                      email: context.email.trim(),
                      inviteCode: context.inviteCode,
                      resend: true,
                    }),
                    onDone: {
                      target: 'coolingDown',
                      actions: [
                        'clearDigits',
                        'clearNotice',
                        'startCountdown',
                        { type: 'prefillCode', params: ({ event }) => event.output },
                      ],
                    },
                    onError: [
                      {
                        guard: { type: 'isCooldownRefusal', params: errorOf },
                        target: 'coolingDown',
                        actions: { type: 'holdCooldown', params: errorOf },
                      },
                      {
                        target: 'ready',
                        actions: sendFailedNotice,
                      },
                    ],
                  },
                },
              },
            },
          },
        },
        telegram: {
          tags: ['step.telegram'],
          on: {
            'signIn.telegramOpened': {
              target: '#signIn.closed',
              actions: [
                { type: 'handOverSession', params: heldSession },
                'clearBanner',
                'dropSession',
              ],
            },
            'signIn.close': {
              target: '#signIn.closed',
              actions: [
                { type: 'handOverSession', params: heldSession },
                'clearBanner',
                'dropSession',
              ],
            },
            'signIn.backToEmail': { target: 'email', actions: ['dropSession', 'clearDigits'] },
          },
        },
      },
    },
  },
});
