import { assign, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import type { EventObject } from 'xstate';
import type { AuthEvent } from '../auth/auth.types';
import type { InfoShowEvent } from '../notifications/notifications.types';
import { SYSTEM_IDS, sendToService } from '../systemIds';
import type { ServiceInput } from '../shared/stored';
import { sanitizeInviteCode } from '../../contract/inviteCode';
import { INVITATION_MESSAGES } from '../../contract/invitationMessages';
import type {
  CheckCodeInput,
  InvitationContext,
  InvitationEvent,
  SetInviterInput,
  SetInviterOutput,
} from './invitation.types';

const linkCodeOf = ({ context }: { context: InvitationContext }) => ({
  code: context.linkCode ?? '',
});
/** Keeps the checked link's code: stored, and shown by sign-in. */
const keepLinkCode = [
  { type: 'storeLinkCode' as const, params: linkCodeOf },
  {
    type: 'tellSignIn' as const,
    params: (args: { context: InvitationContext }) => linkCodeOf(args).code,
  },
];

/** The server's refusal of a code, else a failure's own message. */
function refusalOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { serverMessage, message } = error as { serverMessage?: unknown; message?: unknown };
    if (typeof serverMessage === 'string' && serverMessage) return serverMessage;
    if (typeof message === 'string' && message) return message;
  }
  return INVITATION_MESSAGES.emptyCode;
}

/**
 * The invitation rule on the page (§2 bonus box: "invitation via ref is required to enter after
 * Nov 20"):
 * - `link`: the code of an invite link the page was opened with (told by the provided
 *   `linkCodes`) is checked (invite/check) before it is kept: a code of a player is stored and
 *   told to the sign-in service, as §2's routes say; a code that belongs to nobody is said to be
 *   unknown once, in the sign-in dialog when it is open, else on the banner, and never stored. A
 *   check that cannot be made keeps the code, as before there was a check. The home page's `?i=`
 *   is such a code too.
 * - `entry`: a signed-in player without an inviter types a friend's invite code; user/inviter
 *   names the inviter and the fresh user data goes to the auth service. A refusal is shown and
 *   what was typed stays.
 */
export const invitationMachine = setup({
  types: {
    context: {} as InvitationContext,
    events: {} as InvitationEvent,
    // Spawned by the app with the common service input; nothing in it is needed here.
    input: {} as Partial<ServiceInput> | undefined,
  },
  actors: {
    linkCodes: fromCallback<EventObject>(() => {
      throw new Error('linkCodes not provided');
    }),
    /** Tells `signIn.dialogOpened` / `signIn.dialogClosed` as the sign-in dialog opens and closes. */
    signInDialog: fromCallback<EventObject>(() => {
      throw new Error('signInDialog not provided');
    }),
    checkCode: fromPromise<boolean, CheckCodeInput>(async () => {
      throw new Error('checkCode not provided');
    }),
    setInviter: fromPromise<SetInviterOutput, SetInviterInput>(async () => {
      throw new Error('setInviter not provided');
    }),
  },
  guards: {
    hasCode: ({ context }) => sanitizeInviteCode(context.typed) !== '',
    isKnown: (_, known: boolean) => known,
    isSignInOpen: ({ context }) => context.signInOpen,
  },
  actions: {
    /** Keeps the code as §2's routes say (provided: browser storage). */
    storeLinkCode: (_, _params: { code: string }) => {},
    /** The sign-in service shows the kept code (§2: `Invite code`). */
    tellSignIn: enqueueActions(({ enqueue, system }, code: string) => {
      enqueue.assign({ unknownLinkNotice: null });
      sendToService({ enqueue, system }, SYSTEM_IDS.signIn, { type: 'inviteCode.stored', code });
    }),
    /** The open sign-in dialog says it (it reads `unknownLinkNotice`), and nothing else does. */
    noteUnknownLink: assign({
      unknownLinkNotice: ({ context }) =>
        INVITATION_MESSAGES.unknownCode((context.linkCode ?? '').toUpperCase()),
    }),
    /** With the dialog closed, the banner says it, once; the dialog opened later does not. */
    sayUnknownLink: enqueueActions(({ context, enqueue, system }) => {
      const message = INVITATION_MESSAGES.unknownCode((context.linkCode ?? '').toUpperCase());
      enqueue.assign({ unknownLinkNotice: null });
      const show: InfoShowEvent = { type: 'info.show', message, messageType: 'error' };
      sendToService({ enqueue, system }, SYSTEM_IDS.notifications, show);
    }),
    rememberLink: assign({ linkCode: (_, code: string) => code }),
    noteSignInOpen: assign({ signInOpen: (_, open: boolean) => open }),
    storeTyped: assign({ typed: (_, code: string) => code, notice: null }),
    showRefusal: assign({ notice: (_, text: string) => text }),
    deliver: enqueueActions(({ enqueue, system }, userData: SetInviterOutput) => {
      const loaded: AuthEvent = { type: 'auth.userLoaded', userData };
      sendToService({ enqueue, system }, SYSTEM_IDS.auth, loaded);
      enqueue.assign({ typed: '', notice: null });
    }),
  },
}).createMachine({
  id: 'invitation',
  context: { typed: '', notice: null, linkCode: null, unknownLinkNotice: null, signInOpen: false },
  invoke: [
    { id: 'linkCodes', src: 'linkCodes' },
    { id: 'signInDialog', src: 'signInDialog' },
  ],
  on: {
    // Whether the sign-in dialog is open: where an unknown link's code is said.
    'signIn.dialogOpened': { actions: { type: 'noteSignInOpen', params: true } },
    'signIn.dialogClosed': { actions: { type: 'noteSignInOpen', params: false } },
  },
  type: 'parallel',
  states: {
    link: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'invitation.linkOpened': {
              target: 'checking',
              actions: { type: 'rememberLink', params: ({ event }) => event.code },
            },
          },
        },
        checking: {
          tags: ['checkingLink'],
          on: {
            'invitation.linkOpened': {
              target: 'checking',
              reenter: true,
              actions: { type: 'rememberLink', params: ({ event }) => event.code },
            },
          },
          invoke: {
            id: 'checkCode',
            src: 'checkCode',
            input: ({ context }) => ({ code: context.linkCode ?? '' }),
            onDone: [
              {
                guard: { type: 'isKnown', params: ({ event }) => event.output },
                target: 'idle',
                actions: keepLinkCode,
              },
              { guard: 'isSignInOpen', target: 'idle', actions: 'noteUnknownLink' },
              { target: 'idle', actions: 'sayUnknownLink' },
            ],
            // No answer: the code is kept as a link's code always was.
            onError: { target: 'idle', actions: keepLinkCode },
          },
        },
      },
    },
    entry: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'invitation.codeChanged': {
              actions: { type: 'storeTyped', params: ({ event }) => event.code },
            },
            'invitation.submit': [
              { guard: 'hasCode', target: 'submitting' },
              {
                actions: { type: 'showRefusal', params: INVITATION_MESSAGES.emptyCode },
              },
            ],
          },
        },
        submitting: {
          tags: ['submitting'],
          invoke: {
            id: 'setInviter',
            src: 'setInviter',
            input: ({ context }) => ({ code: context.typed }),
            onDone: {
              target: 'editing',
              actions: { type: 'deliver', params: ({ event }) => event.output },
            },
            onError: {
              target: 'editing',
              actions: { type: 'showRefusal', params: ({ event }) => refusalOf(event.error) },
            },
          },
        },
      },
    },
  },
});

export type InvitationMachine = typeof invitationMachine;
