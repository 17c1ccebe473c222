import { assign, type SnapshotFrom } from 'xstate';
import { paymentMachine } from '../../../machines/payment/payment.machine';
import {
  PAYMENT_ERRORS,
  type CheckBalanceOutput,
  type PaymentFailure,
  type PaymentTarget,
  type WalletKind,
} from '../../../machines/payment/payment.types';

/**
 * The payment machine's path model (§2 Get Ticket, §4 Payment, §8).
 *
 * Phantom is injected, Solflare is not: both branches of the wallet detection exist. The model
 * machine keeps in its context only what a guard reads (target, wallet, polls): every other
 * assignment (the public key, the blockhash, the balance, the paid amount, `lastError`, the
 * record of what the error modal got) would only multiply the graph's vertices without reaching
 * a new state or transition. The drivers run the real machine and check those values where they
 * show: the transfer's input, the error modal after every step, the rendered balance and amount.
 * Payload variants are the fewest that take every guard both ways: a buyer, a member (access
 * already granted) and a user without payment wallet; a public key and an empty one; a
 * cancellation, a classified failure and an unknown one; a balance with and without the ticket.
 */
export const PHANTOM_ONLY = (_: unknown, params: { wallet: WalletKind }) =>
  params.wallet === 'phantom';

export const modelMachine = paymentMachine.provide({
  guards: { isWalletInstalled: PHANTOM_ONLY },
  actions: {
    showError: () => {},
    openInstallSite: () => {},
    setPublicKey: () => {},
    setBlockhash: () => {},
    setBalance: () => {},
    recordSent: assign({ polls: 0 }),
  },
});

export const PAYER = 'Payer1111111111111111111111111111111111111';
export const buyer: PaymentTarget = {
  address: 'Pay11111111111111111111111111111111111111111',
  walletId: 'wallet-1',
  priceLamports: '220000000',
  balance: '0',
  hasAccess: false,
  byFriends: false,
};
export const member: PaymentTarget = { ...buyer, hasAccess: true };
const noWallet: PaymentTarget = { ...buyer, address: '', walletId: '' };
/** §9: the price tier changed (Nov 20 → 0.33 SOL) while a payment of the old price confirms. */
const repriced: PaymentTarget = { ...buyer, priceLamports: '330000000' };

const granted: CheckBalanceOutput = {
  accessGranted: true,
  balance: '0.22',
  balanceLamports: '220000000',
};
/** The server names the player's own ticket and what the chain received (0.25 SOL). */
const grantedPaid: CheckBalanceOutput = {
  ...granted,
  accessVia: 'ticket',
  paidLamports: '250000000',
};
/** Friends' tickets granted access: no receipt. */
const grantedByFriends: CheckBalanceOutput = {
  accessGranted: true,
  balance: '0.05',
  balanceLamports: '50000000',
  accessVia: 'invites',
};
/** Some SOL in the play wallet, not the ticket: the balance shown changes, access does not. */
const notYet: CheckBalanceOutput = {
  accessGranted: false,
  balance: '0.1',
  balanceLamports: '100000000',
};
const cancelled: PaymentFailure = {
  source: 'wallet',
  kind: 'cancelled',
  message: 'User rejected the request.',
};
/**
 * The wallet failures the model sends, as the wallet layer classifies them (§8): a connection
 * that fails on the network, a transfer the account cannot pay for. The driver expects the
 * spec's text for each (the oracle), not the failure's own.
 */
export const networkFailed: PaymentFailure = {
  source: 'wallet',
  kind: 'failed',
  ...PAYMENT_ERRORS.network,
};
export const insufficient: PaymentFailure = {
  source: 'wallet',
  kind: 'failed',
  ...PAYMENT_ERRORS.insufficientFunds,
};
/** Anything else a wallet throws: §8's default text, never a cancellation. */
const walletCrashed = new Error('wallet crashed');

/** The model's events and actor outcomes with their payload variants. */
export const PAYMENT_VARIANTS = {
  events: {
    'payment.open': [{}],
    'payment.target': [
      { target: buyer },
      { target: member },
      { target: noWallet },
      { target: repriced },
    ],
    'payment.close': [{}],
    'payment.send': [{ wallet: 'phantom' }, { wallet: 'solflare' }],
    'payment.refresh': [{}],
    'payment.dismissNotice': [{}],
    'payment.showQr': [{}],
    'payment.hideQr': [{}],
    'payment.closeModal': [{}],
    'payment.copyAddress': [{}],
  },
  outcomes: {
    'xstate.done.actor.connectWallet': [
      { output: { publicKey: PAYER } },
      { output: { publicKey: '' } },
    ],
    'xstate.error.actor.connectWallet': [
      { error: cancelled },
      { error: networkFailed },
      { error: walletCrashed },
    ],
    'xstate.done.actor.getBlockhash': [{ output: { blockhash: 'Hash1', lastValidBlockHeight: 9 } }],
    'xstate.error.actor.getBlockhash': [{ error: new Error('offline') }],
    'xstate.done.actor.sendTransfer': [{ output: { signature: 'Sig1' } }],
    'xstate.error.actor.sendTransfer': [
      { error: cancelled },
      { error: insufficient },
      { error: walletCrashed },
    ],
    'xstate.done.actor.confirmBalance': [
      { output: granted },
      { output: grantedPaid },
      { output: grantedByFriends },
      { output: notYet },
    ],
    'xstate.error.actor.confirmBalance': [{ error: new Error('down') }],
    'xstate.done.actor.refreshBalance': [
      { output: granted },
      { output: grantedPaid },
      { output: grantedByFriends },
      { output: notYet },
    ],
    'xstate.error.actor.refreshBalance': [{ error: new Error('down') }],
    'xstate.done.actor.qrBalance': [
      { output: granted },
      { output: grantedPaid },
      { output: grantedByFriends },
      { output: notYet },
    ],
    'xstate.error.actor.qrBalance': [{ error: new Error('down') }],
    'xstate.after.cancelNotice.payment.open.idle.cancelled': [{}],
    'xstate.after.balanceRefresh.payment.open.waiting': [{}],
    'xstate.after.pendingPoll.payment.open.pending': [{}],
    'xstate.after.qrPoll.payment.open.qr.shown': [{}],
  },
} as const;

export type PaymentModelSnapshot = SnapshotFrom<typeof modelMachine>;
