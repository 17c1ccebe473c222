import { assign, fromPromise, sendTo, setup } from 'xstate';
import { copyFeedbackMachine } from '../copyFeedback/copyFeedback.machine';
import type { ServiceInput } from '../shared/stored';
import {
  SHARE_TEXT,
  SHARE_TITLE,
  type HomeEvent,
  type InviteCodeItem,
  type OfferChoice,
  type ShareInput,
  type ShareResult,
} from './home.types';

/**
 * The signed-in home page (§2 Home, logged in): the `Get Ticket` and `Invite` tabs. Opening the
 * Invite tab loads the user's invite codes (user/invite/codes), again whenever the player's data
 * changes on the server (`home.userChanged`, from the user-data service), and runs the copy feedback of the
 * invite link; sharing uses the provided share actor and falls back to copying. The option card a
 * visitor chose on the landing (`home.offerChosen`) is kept until the signed-in home is shown:
 * `Invite 2 friends` opens it on the Invite tab.
 */
export const homeMachine = setup({
  types: {
    context: {} as { codes: InviteCodeItem[]; offer: OfferChoice; shareUrl: string },
    events: {} as HomeEvent,
    // Spawned by the app with the common service input; nothing in it is needed here.
    input: {} as Partial<ServiceInput> | undefined,
  },
  actors: {
    inviteCodes: fromPromise<InviteCodeItem[]>(async () => {
      throw new Error('inviteCodes actor not provided');
    }),
    shareLink: fromPromise<ShareResult, ShareInput>(async () => {
      throw new Error('shareLink actor not provided');
    }),
    copyFeedback: copyFeedbackMachine,
  },
  actions: {
    storeOffer: assign({ offer: (_, params: { offer: OfferChoice }) => params.offer }),
    forgetOffer: assign({ offer: 'ticket' as const }),
    storeCodes: assign({ codes: (_, params: { codes: InviteCodeItem[] }) => params.codes }),
    /** The link the share sheet shares: the one the player asked to share. */
    storeShareUrl: assign({ shareUrl: (_, params: { url: string }) => params.url }),
    copyLink: sendTo('copyFeedback', (_, params: { url: string }) => ({
      type: 'copyFeedback.copy' as const,
      text: params.url,
    })),
  },
  guards: {
    hasChosenInvite: ({ context }) => context.offer === 'invite',
    isShareUnsupported: (_, params: ShareResult) => params.outcome === 'unsupported',
  },
}).createMachine({
  id: 'home',
  context: {
    codes: [],
    // Stryker disable next-line StringLiteral: only 'invite' is ever asked of it (hasChosenInvite); nothing shows it
    offer: 'ticket',
    // Stryker disable next-line StringLiteral: invite.share sets it before the share sheet reads it
    shareUrl: '',
  },
  on: {
    'home.offerChosen': {
      actions: { type: 'storeOffer', params: ({ event }) => ({ offer: event.offer }) },
    },
  },
  initial: 'getTicket',
  states: {
    getTicket: {
      on: {
        'home.showInvite': 'invite',
        // The visitor chose `Invite 2 friends` before signing in: the home opens where the
        // invite link is, once (a later visit opens as usual).
        'home.shown': { guard: 'hasChosenInvite', target: 'invite', actions: 'forgetOffer' },
      },
    },
    invite: {
      on: { 'home.showTicket': 'getTicket' },
      invoke: { id: 'copyFeedback', src: 'copyFeedback' },
      type: 'parallel',
      states: {
        codes: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'inviteCodes',
                src: 'inviteCodes',
                onDone: {
                  target: 'loaded',
                  actions: { type: 'storeCodes', params: ({ event }) => ({ codes: event.output }) },
                },
                onError: { target: 'failed' },
              },
            },
            loaded: { on: { 'home.userChanged': 'loading' } },
            failed: { on: { 'home.userChanged': 'loading' } },
          },
        },
        link: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'invite.copyLink': {
                  actions: { type: 'copyLink', params: ({ event }) => ({ url: event.url }) },
                },
                'invite.share': {
                  target: 'sharing',
                  actions: { type: 'storeShareUrl', params: ({ event }) => ({ url: event.url }) },
                },
              },
            },
            sharing: {
              invoke: {
                id: 'shareLink',
                src: 'shareLink',
                input: ({ context }) => ({
                  url: context.shareUrl,
                  title: SHARE_TITLE,
                  text: SHARE_TEXT,
                }),
                onDone: [
                  {
                    guard: { type: 'isShareUnsupported', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: {
                      type: 'copyLink',
                      params: ({ event }) => ({ url: event.output.url }),
                    },
                  },
                  { target: 'idle' },
                ],
                // A dismissed share sheet is not an error the player needs to read about.
                onError: { target: 'idle' },
              },
            },
          },
        },
      },
    },
  },
});
