import { assign, enqueueActions, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import { copyFeedbackMachine } from '../copyFeedback/copyFeedback.machine';
import { readFailure } from '../shared/callError';
import type { ErrorModalOpenPayload } from '../errorModal/errorModal.types';
import { SYSTEM_IDS, sendToService } from '../systemIds';
import {
  PAYMENT_DELAYS,
  PAYMENT_ERRORS,
  isCancellation,
  type BlockhashOutput,
  type CheckBalanceInput,
  type CheckBalanceOutput,
  type ConnectWalletInput,
  type ConnectWalletOutput,
  type ErrorSource,
  type ErrorText,
  type PaymentEvent,
  type PaymentInput,
  type PaymentTarget,
  type SendTransferInput,
  type SendTransferOutput,
  type WalletKind,
} from './payment.types';

export type PaymentContext = {
  target: PaymentTarget | null;
  /**
   * The wallet the last `payment.send` named (Phantom, the first button, before any): read by the
   * states a send leads to, and by the selectors only while a wallet step is busy.
   */
  wallet: WalletKind;
  publicKey: string | null;
  blockhash: BlockhashOutput | null;
  /** Latest balance read from the server (SOL decimal string). */
  balance: string | null;
  /** Polls done after a send that has not been confirmed yet. */
  polls: number;
  /** Lamports sent by the last payment (shown in the Ticket Purchased! modal). */
  paidLamports: string | null;
  /** The tier the server settled the ticket in (the receipt's access level), once granted. */
  paidTier: string | null;
  /** The last error shown, for the record (the error modal owns the display). */
  lastError: ErrorText | null;
  /** The view that opened the payment (its `payment.open`), named by the error modal. */
  source: ErrorSource | null;
};

/** A balance check's answer, the params of the guards and the action that read it. */
const outputOf = ({ event }: { event: { output: CheckBalanceOutput } }) => ({
  output: event.output,
});

/**
 * A balance check (after a send, by the refresh button, or while the QR code is shown): the
 * server's answer says friends' tickets granted access, this payment did (the receipt), or not
 * yet — then `notYet` says where to go; the balance it read is kept in every case.
 */
function balanceCheck<NotYet extends { guard?: 'hasPollsLeft'; target: string }, OnError>(
  id: string,
  {
    notYet,
    onError,
    quietWhenPaidElsewhere = false,
  }: { notYet: readonly NotYet[]; onError: OnError; quietWhenPaidElsewhere?: boolean },
) {
  const setBalance = { type: 'setBalance' as const, params: outputOf };
  // The receipt pops in the tab that paid; the player's other tabs update quietly.
  const quiet = {
    guard: { type: 'isPaidInAnotherTab' as const, params: outputOf },
    target: '#payment.open.granted.done',
    actions: [setBalance, 'notifyAccessGranted' as const],
  };
  return {
    id,
    src: 'checkBalance' as const,
    input: ({ context }: { context: PaymentContext }) => ({
      // Stryker disable next-line OptionalChaining,StringLiteral: a balance is checked only with a target (hasWalletId, hasPaymentAddress or gainsAccess held before); the fallback is for TypeScript
      walletId: context.target?.walletId ?? '',
    }),
    onDone: [
      {
        guard: { type: 'isAccessByFriends' as const, params: outputOf },
        target: '#payment.open.granted.byFriends',
        actions: setBalance,
      },
      ...(quietWhenPaidElsewhere ? [quiet] : []),
      {
        guard: { type: 'isAccessGranted' as const, params: outputOf },
        target: '#payment.open.granted.celebrating',
        actions: setBalance,
      },
      ...notYet.map((next) => ({ ...next, actions: setBalance })),
    ],
    onError,
  };
}

// Stryker disable next-line ArrowFunction: the placeholder actors' body (always provided instead; see below)
const notProvided = (name: string) => async (): Promise<never> => {
  throw new Error(`${name} not provided`);
};

/**
 * §4 Payment: connect a wallet → blockhash from the server → sign and send the ticket transfer →
 * check the balance 3 s later (then at 10 s and 30 s) → access granted (Ticket Purchased! modal).
 * A user rejection only shows the cancelled notice (5 s); every other failure opens the error
 * modal. The chart never resends: each transfer starts with a `payment.send` from the user, and
 * `payment.send` is not accepted while a wallet approval is in flight.
 */
export const paymentMachine = setup({
  types: {
    context: {} as PaymentContext,
    events: {} as PaymentEvent,
    input: {} as PaymentInput,
  },
  actors: {
    connectWallet: fromPromise<ConnectWalletOutput, ConnectWalletInput>(
      // Stryker disable next-line StringLiteral: placeholder names (src/app and the tests provide every actor)
      notProvided('connectWallet'),
    ),
    // Stryker disable next-line StringLiteral: as above
    getBlockhash: fromPromise<BlockhashOutput, { wallet: WalletKind }>(notProvided('getBlockhash')),
    // Stryker disable next-line StringLiteral: as above
    sendTransfer: fromPromise<SendTransferOutput, SendTransferInput>(notProvided('sendTransfer')),
    // Stryker disable next-line StringLiteral: as above
    checkBalance: fromPromise<CheckBalanceOutput, CheckBalanceInput>(notProvided('checkBalance')),
    copyFeedback: copyFeedbackMachine,
    /** Sends `payment.target` from the auth and session services (provided from src/app). */
    targetWatch: fromCallback<PaymentEvent>(() => {
      throw new Error('targetWatch not provided');
    }),
  },
  guards: {
    hasAccess: ({ context }) => context.target?.hasAccess === true,
    /**
     * The tab's new facts say the player has access through friends' tickets (the user data's
     * user_access_via); the ones it had did not. The user data says all there is to show.
     */
    gainsAccessByFriends: ({ context }, params: { target: PaymentTarget }) =>
      params.target.hasAccess && params.target.byFriends && context.target?.hasAccess !== true,
    /** The tab's new facts say the player has access; the ones it had did not. */
    gainsAccess: ({ context }, params: { target: PaymentTarget }) =>
      params.target.hasAccess &&
      context.target?.hasAccess !== true &&
      Boolean(params.target.walletId),
    hasPaymentAddress: ({ context }) => Boolean(context.target?.address),
    hasWalletId: ({ context }) => Boolean(context.target?.walletId),
    /** Provided from src/: is the wallet's provider injected in this page? */
    // Stryker disable next-line ArrowFunction,BooleanLiteral: a default only; src/app provides the wallet detection, the tests their own
    isWalletInstalled: (_, _params: { wallet: WalletKind }) => false,
    isCancellation: (_, params: { error: unknown }) => isCancellation(params.error),
    isAccessGranted: (_, params: { output: CheckBalanceOutput }) => params.output.accessGranted,
    /** Access came from friends' tickets, not from this player's payment: no receipt. */
    isAccessByFriends: (_, params: { output: CheckBalanceOutput }) =>
      params.output.accessGranted && params.output.accessVia === 'invites',
    /**
     * Provided from src/: access is granted and another tab of the player started the payment
     * (its wallet or its QR code), so the receipt is that tab's; this one shows access quietly.
     */
    // Stryker disable next-line ArrowFunction,BooleanLiteral: a default only; src/app provides the other tabs' word, the tests their own
    isPaidInAnotherTab: (_, _params: { output: CheckBalanceOutput }) => false,
    hasPollsLeft: ({ context }) => context.polls < PAYMENT_DELAYS.pendingPolls.length,
    hasPublicKey: (_, params: { publicKey: string }) => params.publicKey.length > 0,
  },
  actions: {
    setTarget: assign((_, params: { target: PaymentTarget }) => ({
      target: params.target,
      balance: params.target.balance,
    })),
    setWallet: assign((_, params: { wallet: WalletKind }) => ({ wallet: params.wallet })),
    setPublicKey: assign((_, params: { publicKey: string }) => ({ publicKey: params.publicKey })),
    setBlockhash: assign((_, params: { blockhash: BlockhashOutput }) => ({
      blockhash: params.blockhash,
    })),
    recordSent: assign(({ context }) => ({
      polls: 0,
      // Stryker disable next-line OptionalChaining: a transfer is sent only after hasPaymentAddress held (a target)
      paidLamports: context.target?.priceLamports ?? null,
    })),
    countPoll: assign(({ context }) => ({ polls: context.polls + 1 })),
    setBalance: assign(({ context }, params: { output: CheckBalanceOutput }) => ({
      balance: params.output.balance ?? context.balance,
      // The receipt's amount is what the chain showed received, when the server says.
      paidLamports:
        params.output.accessGranted && params.output.paidLamports
          ? params.output.paidLamports
          : context.paidLamports,
      paidTier:
        params.output.accessGranted && params.output.ticketTier
          ? params.output.ticketTier
          : context.paidTier,
    })),
    setSource: assign({ source: (_, params: { source: ErrorSource | null }) => params.source }),
    /** Opens the error modal (§8) with the spec's message and solution, and where it happened. */
    showError: enqueueActions((queue, params: ErrorText) => {
      const { enqueue, context } = queue;
      enqueue.assign({ lastError: params });
      const open: { type: 'errorModal.open' } & ErrorModalOpenPayload = {
        type: 'errorModal.open',
        message: params.message,
        solution: params.solution,
        ...context.source,
      };
      sendToService(queue, SYSTEM_IDS.errorModal, open);
    }),
    /** Provided from src/: tells the player's other tabs that this one is paying. */
    announcePaying: (_, _params: undefined) => {},
    /** Provided from src/: fetches the wallet library's code ahead, as the tab opens. */
    preloadWalletCode: (_, _params: undefined) => {},
    /** Provided from src/: opens phantom.com / solflare.com, synchronously in the click. */
    openInstallSite: (_, _params: { wallet: WalletKind }) => {},
    /** Tells the auth service the ticket was issued (user_access = 1). */
    notifyAccessGranted: enqueueActions((queue) =>
      sendToService(queue, SYSTEM_IDS.auth, { type: 'auth.accessGranted' }),
    ),
    copyAddress: sendTo('addressCopy', ({ context }) => ({
      type: 'copyFeedback.copy' as const,
      text: context.target?.address ?? '',
    })),
  },
  delays: {
    balanceRefresh: PAYMENT_DELAYS.balanceRefresh,
    cancelNotice: PAYMENT_DELAYS.cancelNotice,
    pendingPoll: ({ context }) => PAYMENT_DELAYS.pendingPolls[context.polls] ?? 0,
    qrPoll: PAYMENT_DELAYS.qrPoll,
  },
}).createMachine({
  id: 'payment',
  context: {
    target: null,
    // Stryker disable next-line StringLiteral: read only once payment.send has set it; no view shows this first value
    wallet: 'phantom',
    publicKey: null,
    blockhash: null,
    balance: null,
    polls: 0,
    paidLamports: null,
    paidTier: null,
    lastError: null,
    source: null,
  },
  invoke: [
    { id: 'addressCopy', src: 'copyFeedback' },
    {
      // Stryker disable next-line StringLiteral: the id only names the actor in the inspector; nothing sends to it
      id: 'targetWatch',
      src: 'targetWatch',
    },
  ],
  on: {
    'payment.copyAddress': { actions: 'copyAddress' },
    // The facts may change at any time (user data refetched, price changed): keep the latest.
    'payment.target': {
      actions: { type: 'setTarget', params: ({ event }) => ({ target: event.target }) },
    },
  },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'payment.open': {
          target: 'open',
          actions: { type: 'setSource', params: ({ event }) => ({ source: event.source ?? null }) },
        },
      },
    },
    open: {
      entry: 'preloadWalletCode',
      initial: 'entering',
      on: {
        'payment.close': { target: 'closed' },
      },
      states: {
        entering: {
          always: [{ guard: 'hasAccess', target: 'granted.done' }, { target: 'idle' }],
        },
        idle: {
          initial: 'ready',
          states: {
            ready: {},
            /** The dismissible cancelled notice (§2), hidden after 5 s. */
            cancelled: {
              after: { cancelNotice: { target: 'ready' } },
              on: { 'payment.dismissNotice': { target: 'ready' } },
            },
            /** Sent, but the server has not seen the funds after the last poll: refresh by hand. */
            unconfirmed: {},
          },
          on: {
            // Access arrived while the tab is open, learned from the server's push or the poll:
            // through friends' tickets the user data says so, and the friends' message shows at
            // once; a payment from another wallet asks the balance call how much the chain
            // received, so the receipt is true.
            'payment.target': [
              {
                guard: {
                  type: 'gainsAccessByFriends',
                  params: ({ event }) => ({ target: event.target }),
                },
                target: 'granted.byFriends',
                actions: { type: 'setTarget', params: ({ event }) => ({ target: event.target }) },
              },
              {
                guard: {
                  type: 'gainsAccess',
                  params: ({ event }) => ({ target: event.target }),
                },
                target: 'refreshing',
                actions: { type: 'setTarget', params: ({ event }) => ({ target: event.target }) },
              },
              {
                actions: { type: 'setTarget', params: ({ event }) => ({ target: event.target }) },
              },
            ],
            'payment.send': [
              {
                guard: { type: 'hasPaymentAddress' },
                target: 'checkingWallet',
                actions: { type: 'setWallet', params: ({ event }) => ({ wallet: event.wallet }) },
              },
              { actions: { type: 'showError', params: PAYMENT_ERRORS.addressNotFound } },
            ],
            'payment.refresh': [
              { guard: 'hasWalletId', target: 'refreshing' },
              { actions: { type: 'showError', params: PAYMENT_ERRORS.walletIdNotFound } },
            ],
            'payment.showQr': [
              { guard: 'hasPaymentAddress', target: 'qr' },
              { actions: { type: 'showError', params: PAYMENT_ERRORS.addressNotFound } },
            ],
          },
        },
        checkingWallet: {
          always: [
            {
              guard: {
                type: 'isWalletInstalled',
                params: ({ context }) => ({ wallet: context.wallet }),
              },
              target: 'connecting',
            },
            {
              target: 'idle',
              actions: [
                {
                  type: 'openInstallSite',
                  params: ({ context }) => ({ wallet: context.wallet }),
                },
                {
                  type: 'showError',
                  params: ({ context }) => PAYMENT_ERRORS.notDetected(context.wallet),
                },
              ],
            },
          ],
        },
        connecting: {
          tags: ['busy'],
          entry: 'announcePaying',
          invoke: {
            id: 'connectWallet',
            src: 'connectWallet',
            input: ({ context }) => ({ wallet: context.wallet }),
            onDone: [
              {
                guard: {
                  type: 'hasPublicKey',
                  params: ({ event }) => ({ publicKey: event.output.publicKey }),
                },
                target: 'fetchingBlockhash',
                actions: {
                  type: 'setPublicKey',
                  params: ({ event }) => ({ publicKey: event.output.publicKey }),
                },
              },
              { target: 'idle', actions: { type: 'showError', params: PAYMENT_ERRORS.publicKey } },
            ],
            onError: [
              {
                guard: { type: 'isCancellation', params: ({ event }) => ({ error: event.error }) },
                target: 'idle.cancelled',
              },
              {
                target: 'idle',
                actions: { type: 'showError', params: ({ event }) => failureText(event.error) },
              },
            ],
          },
        },
        fetchingBlockhash: {
          tags: ['busy'],
          invoke: {
            id: 'getBlockhash',
            src: 'getBlockhash',
            input: ({ context }) => ({ wallet: context.wallet }),
            onDone: {
              target: 'sending',
              actions: {
                type: 'setBlockhash',
                params: ({ event }) => ({ blockhash: event.output }),
              },
            },
            onError: {
              target: 'idle',
              actions: { type: 'showError', params: PAYMENT_ERRORS.blockhash },
            },
          },
        },
        sending: {
          tags: ['busy'],
          invoke: {
            id: 'sendTransfer',
            src: 'sendTransfer',
            input: ({ context }) => ({
              wallet: context.wallet,
              // Stryker disable next-line StringLiteral: set before (hasPublicKey held); the fallback is for TypeScript
              fromPublicKey: context.publicKey ?? '',
              // Stryker disable next-line OptionalChaining,StringLiteral: sent only after hasPaymentAddress held (a target)
              toAddress: context.target?.address ?? '',
              // Stryker disable next-line OptionalChaining,StringLiteral: sent only after hasPaymentAddress held (a target)
              lamports: context.target?.priceLamports ?? '0',
              // Stryker disable next-line StringLiteral: set before (getBlockhash's answer); the fallback is for TypeScript
              blockhash: context.blockhash?.blockhash ?? '',
              lastValidBlockHeight: context.blockhash?.lastValidBlockHeight,
            }),
            onDone: { target: 'waiting', actions: 'recordSent' },
            onError: [
              {
                guard: { type: 'isCancellation', params: ({ event }) => ({ error: event.error }) },
                target: 'idle.cancelled',
              },
              {
                target: 'idle',
                actions: { type: 'showError', params: ({ event }) => failureText(event.error) },
              },
            ],
          },
        },
        /** Sent: the balance is checked 3 s later (§4, §9). */
        waiting: {
          tags: ['confirming'],
          after: { balanceRefresh: { target: 'confirming' } },
        },
        confirming: {
          tags: ['confirming'],
          invoke: balanceCheck('confirmBalance', {
            notYet: [{ guard: 'hasPollsLeft', target: 'pending' }, { target: 'idle.unconfirmed' }],
            onError: {
              target: 'idle',
              actions: { type: 'showError', params: PAYMENT_ERRORS.refresh },
            },
          }),
        },
        /** The server has not seen the funds yet: not an error, look again a little later. */
        pending: {
          tags: ['confirming'],
          after: { pendingPoll: { target: 'confirming', actions: 'countPoll' } },
        },
        refreshing: {
          tags: ['refreshing'],
          invoke: balanceCheck('refreshBalance', {
            notYet: [{ target: 'idle' }],
            quietWhenPaidElsewhere: true,
            onError: {
              target: 'idle',
              actions: { type: 'showError', params: PAYMENT_ERRORS.refresh },
            },
          }),
        },
        /** The Solana Pay QR code is shown: the balance is polled while it is. */
        qr: {
          entry: 'announcePaying',
          initial: 'shown',
          on: {
            'payment.hideQr': { target: 'idle' },
            'payment.send': {
              target: 'checkingWallet',
              actions: { type: 'setWallet', params: ({ event }) => ({ wallet: event.wallet }) },
            },
            'payment.refresh': { target: 'refreshing' },
          },
          states: {
            shown: { after: { qrPoll: { target: 'polling' } } },
            polling: {
              invoke: balanceCheck('qrBalance', {
                notYet: [{ target: 'shown' }],
                // A missed poll is retried at the next tick; the manual refresh reports errors.
                onError: { target: 'shown' },
              }),
            },
          },
        },
        granted: {
          initial: 'done',
          states: {
            /** The Ticket Purchased! modal is open. */
            celebrating: {
              entry: 'notifyAccessGranted',
              on: { 'payment.closeModal': { target: 'done' } },
            },
            /**
             * Friends' tickets granted access: its own moment (the Access Granted! modal with
             * their message, no receipt and no amount), then their message on the panel.
             */
            byFriends: {
              entry: 'notifyAccessGranted',
              initial: 'celebrating',
              states: {
                celebrating: { on: { 'payment.closeModal': { target: 'seen' } } },
                seen: {},
              },
            },
            done: {},
          },
        },
      },
    },
  },
});

/** A wallet's refusal with its own texts (§8), else §8's default payment failure. */
function failureText(error: unknown): ErrorText {
  const { kind, message, solution } = readFailure(error);
  return kind === 'failed' && message && solution ? { message, solution } : PAYMENT_ERRORS.failed;
}

export type PaymentMachine = typeof paymentMachine;
