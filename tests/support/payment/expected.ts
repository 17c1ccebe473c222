import { expect } from 'vitest';
import { specExpect } from '../paths/clause';
import {
  selectBalance,
  selectIsBusy,
  selectIsRefreshing,
  selectIsUnconfirmed,
  selectPayButtonsDisabled,
  selectPayStep,
  selectShowCancelled,
  selectShowFriendsModal,
  selectShowPurchasedModal,
  selectShowQr,
  type PaymentSnapshot,
} from '../../../machines/payment/payment.selectors';
import {
  PAY_STEP_TEXT,
  type BlockhashOutput,
  type CheckBalanceInput,
  type CheckBalanceOutput,
  type ConnectWalletInput,
  type ConnectWalletOutput,
  type ErrorText,
  type PaymentTarget,
  type SendTransferInput,
  type WalletKind,
} from '../../../machines/payment/payment.types';
import { SITE_SOLUTIONS, SPEC_MESSAGES } from '../oracle';
import { insufficient, networkFailed } from './model';

/**
 * What §2 Get Ticket, §4 Payment and §8 say the tab is doing, kept by the tests from the events
 * alone (never read from the machine): where the payment is, what it is paying, the balance and
 * the amount of the receipt, every request made (wallet, blockhash, transfer, balance), every
 * error shown, the install sites opened and how often the auth service heard of access.
 */
export type Phase =
  | 'closed'
  | 'ready'
  | 'cancelled'
  | 'unconfirmed'
  | 'connecting'
  | 'fetchingBlockhash'
  | 'sending'
  | 'waiting'
  | 'confirming'
  | 'pending'
  | 'refreshing'
  | 'qrShown'
  | 'qrPolling'
  | 'celebrating'
  | 'byFriends'
  | 'byFriendsSeen'
  | 'done';

export type PaymentExpected = {
  phase: Phase;
  target: PaymentTarget | null;
  wallet: WalletKind | null;
  publicKey: string;
  balance: string | null;
  paid: string | null;
  /** Balance checks made after the 3 s one, for this transfer. */
  polls: number;
  /** When the last transfer was sent (fake clock). */
  sentAt: number;
  lastError: string | null;
  errors: ErrorText[];
  installs: WalletKind[];
  connects: ConnectWalletInput[];
  blockhashes: { wallet: WalletKind }[];
  transfers: SendTransferInput[];
  balanceChecks: CheckBalanceInput[];
  grants: number;
};

/**
 * The checks after a send that the server has not confirmed: 3 s (the spec), then 10 s and 30 s
 * after sending (README "Balance checks after paying"); then the player refreshes by hand.
 */
const POLLS_AFTER_SEND_MS = [10_000, 30_000] as const;

export function newExpected(): PaymentExpected {
  return {
    phase: 'closed',
    target: null,
    wallet: null,
    publicKey: '',
    balance: null,
    paid: null,
    polls: 0,
    sentAt: 0,
    lastError: null,
    errors: [],
    installs: [],
    connects: [],
    blockhashes: [],
    transfers: [],
    balanceChecks: [],
    grants: 0,
  };
}

const IDLE: readonly Phase[] = ['ready', 'cancelled', 'unconfirmed'];
const QR: readonly Phase[] = ['qrShown', 'qrPolling'];
const BUSY: readonly Phase[] = ['connecting', 'fetchingBlockhash', 'sending'];
const CONFIRMING: readonly Phase[] = ['waiting', 'confirming', 'pending'];
const GRANTED: readonly Phase[] = ['celebrating', 'byFriends', 'byFriendsSeen', 'done'];

/** §2 Get Ticket: the tab shows the payment panel (not Access Granted!) while it is open. */
export const showsPayPanel = (x: PaymentExpected): boolean =>
  x.phase !== 'closed' && x.target?.hasAccess !== true && !GRANTED.includes(x.phase);
/** §2: both send buttons are disabled while a wallet approval or the blockhash is in flight. */
export const isBusy = (x: PaymentExpected): boolean => BUSY.includes(x.phase);
/** Every pay button stays disabled until the sent transfer is settled or given up, too. */
export const payButtonsDisabled = (x: PaymentExpected): boolean =>
  isBusy(x) || CONFIRMING.includes(x.phase);
/** What the pressed button says: §2's Connecting..., then the wallet's approval, then confirming. */
export const payStepText = (x: PaymentExpected): string | null =>
  x.phase === 'connecting'
    ? 'Connecting...'
    : isBusy(x)
      ? 'Waiting for the wallet…'
      : CONFIRMING.includes(x.phase)
        ? 'Confirming…'
        : null;

/** §8's message and the solution players read (the spec's default, else the site's wording). */
const spec = (message: string, solution: string): ErrorText => ({ message, solution });
const FAILED = spec(SPEC_MESSAGES.paymentFailed, SPEC_MESSAGES.paymentFailedSolution);

function showError(x: PaymentExpected, error: ErrorText) {
  x.errors.push(error);
  x.lastError = error.message;
}

/** A wallet failure: nothing for a cancellation (the notice shows), else its §8 text. */
function walletFailure(x: PaymentExpected, error: unknown) {
  const failure = error as { kind?: string; message?: string; solution?: string };
  if (failure.kind === 'cancelled') return enter(x, 'cancelled');
  if (error === networkFailed)
    showError(x, spec(SPEC_MESSAGES.networkFailed, SITE_SOLUTIONS.network));
  else if (error === insufficient)
    showError(x, spec(SPEC_MESSAGES.insufficientFunds, SITE_SOLUTIONS.insufficientFunds));
  else if (failure.kind === 'failed')
    showError(x, { message: failure.message ?? '', solution: failure.solution ?? '' });
  else showError(x, FAILED);
  enter(x, 'ready');
}

function enter(x: PaymentExpected, phase: Phase) {
  x.phase = phase;
  const walletId = x.target?.walletId ?? '';
  const wallet = x.wallet ?? 'phantom';
  if (phase === 'connecting') x.connects.push({ wallet });
  if (phase === 'fetchingBlockhash') x.blockhashes.push({ wallet });
  if (phase === 'confirming' || phase === 'refreshing' || phase === 'qrPolling')
    x.balanceChecks.push({ walletId });
  // Access granted while the tab is open: the auth service hears of it (user_access = 1).
  if (phase === 'celebrating' || phase === 'byFriends') x.grants += 1;
}

/** A balance answer: the balance shown, the receipt's amount, and where the tab goes. */
function balanceAnswer(x: PaymentExpected, out: CheckBalanceOutput, otherwise: Phase) {
  x.balance = out.balance ?? x.balance;
  // The receipt shows what the chain received when the server says so.
  if (out.accessGranted && out.paidLamports) x.paid = out.paidLamports;
  if (out.accessGranted && out.accessVia === 'invites') enter(x, 'byFriends');
  else if (out.accessGranted) enter(x, 'celebrating');
  else enter(x, otherwise);
}

/** A wallet button: Phantom is injected in these tests, any other wallet is not (§8). */
function sendWith(x: PaymentExpected, wallet: WalletKind) {
  x.wallet = wallet;
  if (wallet === 'phantom') return enter(x, 'connecting');
  x.installs.push(wallet);
  showError(x, spec(SPEC_MESSAGES.solflareMissing, SITE_SOLUTIONS.solflareMissing));
  enter(x, 'ready');
}

type Event = { type: string } & Record<string, unknown>;

/** The spec's rules, one event at a time (before the event happens in the test). */
export function applyPayment(x: PaymentExpected, event: Event) {
  const idle = IDLE.includes(x.phase);
  const qr = QR.includes(x.phase);
  switch (event.type) {
    case 'payment.target': {
      const target = event.target as PaymentTarget;
      const had = x.target?.hasAccess === true;
      x.target = target;
      x.balance = target.balance;
      // Access learned while the tab waits: through friends the user data says so; another
      // wallet's payment asks the balance (what the chain received).
      if (idle && target.hasAccess && !had && target.byFriends) enter(x, 'byFriends');
      else if (idle && target.hasAccess && !had && target.walletId) enter(x, 'refreshing');
      return;
    }
    case 'payment.open':
      if (x.phase === 'closed') enter(x, x.target?.hasAccess ? 'done' : 'ready');
      return;
    case 'payment.close':
      if (x.phase !== 'closed') enter(x, 'closed');
      return;
    case 'payment.send':
      if (qr) sendWith(x, event.wallet as WalletKind);
      else if (idle) {
        if (x.target?.address) sendWith(x, event.wallet as WalletKind);
        else showError(x, spec(SPEC_MESSAGES.walletAddressMissing, SITE_SOLUTIONS.addressNotFound));
      }
      return;
    case 'payment.refresh':
      if (qr) enter(x, 'refreshing');
      else if (idle) {
        if (x.target?.walletId) enter(x, 'refreshing');
        else showError(x, spec(SPEC_MESSAGES.walletIdMissing, SITE_SOLUTIONS.walletIdNotFound));
      }
      return;
    case 'payment.showQr':
      if (!idle) return;
      if (x.target?.address) enter(x, 'qrShown');
      else showError(x, spec(SPEC_MESSAGES.walletAddressMissing, SITE_SOLUTIONS.addressNotFound));
      return;
    case 'payment.hideQr':
      if (qr) enter(x, 'ready');
      return;
    case 'payment.dismissNotice':
      if (x.phase === 'cancelled') enter(x, 'ready');
      return;
    case 'payment.closeModal':
      if (x.phase === 'celebrating') enter(x, 'done');
      // The moment of access through friends closes the same ways; their message stays.
      if (x.phase === 'byFriends') enter(x, 'byFriendsSeen');
      return;
    case 'xstate.done.actor.connectWallet': {
      if (x.phase !== 'connecting') return;
      const { publicKey } = event.output as ConnectWalletOutput;
      if (publicKey) {
        x.publicKey = publicKey;
        enter(x, 'fetchingBlockhash');
      } else {
        showError(x, spec(SPEC_MESSAGES.publicKeyFailed, SITE_SOLUTIONS.publicKey));
        enter(x, 'ready');
      }
      return;
    }
    case 'xstate.error.actor.connectWallet':
      if (x.phase === 'connecting') walletFailure(x, event.error);
      return;
    case 'xstate.done.actor.getBlockhash': {
      if (x.phase !== 'fetchingBlockhash') return;
      const { blockhash, lastValidBlockHeight } = event.output as BlockhashOutput;
      // §4: the price in integer lamports, from the connected key to the tab's payment wallet.
      x.transfers.push({
        wallet: x.wallet ?? 'phantom',
        fromPublicKey: x.publicKey,
        toAddress: x.target?.address ?? '',
        lamports: x.target?.priceLamports ?? '0',
        blockhash,
        lastValidBlockHeight,
      });
      enter(x, 'sending');
      return;
    }
    case 'xstate.error.actor.getBlockhash':
      if (x.phase !== 'fetchingBlockhash') return;
      showError(x, spec(SPEC_MESSAGES.blockhashFailed, SPEC_MESSAGES.paymentFailedSolution));
      enter(x, 'ready');
      return;
    case 'xstate.done.actor.sendTransfer':
      if (x.phase !== 'sending') return;
      Object.assign(x, { polls: 0, sentAt: Date.now(), paid: x.target?.priceLamports ?? null });
      enter(x, 'waiting');
      return;
    case 'xstate.error.actor.sendTransfer':
      if (x.phase === 'sending') walletFailure(x, event.error);
      return;
    case 'xstate.done.actor.confirmBalance':
      if (x.phase !== 'confirming') return;
      balanceAnswer(
        x,
        event.output as CheckBalanceOutput,
        x.polls < POLLS_AFTER_SEND_MS.length ? 'pending' : 'unconfirmed',
      );
      return;
    case 'xstate.done.actor.refreshBalance':
      if (x.phase === 'refreshing') balanceAnswer(x, event.output as CheckBalanceOutput, 'ready');
      return;
    case 'xstate.done.actor.qrBalance':
      if (x.phase === 'qrPolling') balanceAnswer(x, event.output as CheckBalanceOutput, 'qrShown');
      return;
    case 'xstate.error.actor.confirmBalance':
    case 'xstate.error.actor.refreshBalance':
      if (x.phase !== 'confirming' && x.phase !== 'refreshing') return;
      showError(x, spec(SPEC_MESSAGES.refreshBalanceFailed, SITE_SOLUTIONS.refresh));
      enter(x, 'ready');
      return;
    case 'xstate.error.actor.qrBalance':
      // A missed QR poll is retried at the next tick, quietly.
      if (x.phase === 'qrPolling') enter(x, 'qrShown');
      return;
    default:
      if (event.type.startsWith('xstate.after.cancelNotice.') && x.phase === 'cancelled')
        enter(x, 'ready');
      if (event.type.startsWith('xstate.after.balanceRefresh.') && x.phase === 'waiting')
        enter(x, 'confirming');
      if (event.type.startsWith('xstate.after.pendingPoll.') && x.phase === 'pending') {
        x.polls += 1;
        enter(x, 'confirming');
      }
      if (event.type.startsWith('xstate.after.qrPoll.') && x.phase === 'qrShown')
        enter(x, 'qrPolling');
  }
}

/**
 * The wait for the balance check of an unconfirmed transfer that `applyPayment` just counted:
 * until 10 s, then 30 s, after the transfer was sent.
 */
export const pollDueIn = (x: PaymentExpected): number =>
  x.sentAt + (POLLS_AFTER_SEND_MS[x.polls - 1] ?? 0) - Date.now();

/** What the tab's views read, against the expectation. */
export function checkPaymentSelectors(x: PaymentExpected, s: PaymentSnapshot) {
  const busy = isBusy(x);
  const confirming = CONFIRMING.includes(x.phase);
  expect(s.matches('open'), 'the tab is open').toBe(x.phase !== 'closed');
  expect(selectIsBusy(s), '§2 send buttons disabled').toBe(busy);
  expect(s.hasTag('busy') ? s.context.wallet : null, 'the pressed button shows Connecting...').toBe(
    busy ? x.wallet : null,
  );
  expect(selectPayButtonsDisabled(s), 'every pay button disabled until settled').toBe(
    payButtonsDisabled(x),
  );
  const step = payStepText(x);
  for (const wallet of ['phantom', 'solflare', 'local'] as const) {
    const pressed = step !== null && x.wallet === wallet;
    const shown = selectPayStep(s, wallet);
    expect(shown ? PAY_STEP_TEXT[shown] : null, `${wallet} button's busy text`).toBe(
      pressed ? step : null,
    );
  }
  expect(s.matches({ open: 'connecting' }), 'connecting').toBe(x.phase === 'connecting');
  expect(s.hasTag('confirming'), 'confirming the payment').toBe(confirming);
  expect(selectIsRefreshing(s), 'Refreshing...').toBe(x.phase === 'refreshing' || confirming);
  expect(selectShowCancelled(s), '§2 cancelled notice').toBe(x.phase === 'cancelled');
  expect(selectIsUnconfirmed(s), 'not confirmed yet').toBe(x.phase === 'unconfirmed');
  expect(selectShowQr(s), 'QR code').toBe(QR.includes(x.phase));
  expect(s.matches({ open: 'granted' }), 'Access Granted!').toBe(GRANTED.includes(x.phase));
  expect(s.matches({ open: { granted: 'byFriends' } }), "friends' tickets").toBe(
    x.phase === 'byFriends' || x.phase === 'byFriendsSeen',
  );
  expect(selectShowFriendsModal(s), "friends' moment").toBe(x.phase === 'byFriends');
  expect(selectShowPurchasedModal(s), 'Ticket Purchased! modal').toBe(x.phase === 'celebrating');
  expect(selectBalance(s), 'balance').toBe(x.balance ?? '0');
  expect(s.context.paidLamports ?? s.context.target?.priceLamports ?? '0', 'receipt amount').toBe(
    x.paid ?? x.target?.priceLamports ?? '0',
  );
  expect(s.context.lastError?.message ?? '', 'last error').toBe(x.lastError ?? '');
}

/** What the services and the wallet saw: requests, errors, install sites, access granted. */
export function checkPaymentEffects(
  x: PaymentExpected,
  seen: {
    connects: ConnectWalletInput[];
    blockhashes: { wallet: WalletKind }[];
    transfers: SendTransferInput[];
    balanceChecks: CheckBalanceInput[];
    modal: ErrorText[];
    installs: WalletKind[];
    authEvents: string[];
  },
) {
  specExpect('§4.payment.flow', seen.connects, 'wallet connections').toEqual(x.connects);
  specExpect('§5.payment.requires', seen.blockhashes, 'blockhash requests').toEqual(x.blockhashes);
  specExpect('§4.payment.flow', seen.transfers, 'transfers').toEqual(x.transfers);
  specExpect('§4.payment.refresh', seen.balanceChecks, 'balance checks').toEqual(x.balanceChecks);
  specExpect('§8.wallet.errors', seen.modal, 'error modal (message and solution)').toEqual(
    x.errors,
  );
  expect(seen.installs, 'install sites opened').toEqual(x.installs);
  specExpect(
    '§4.payment.granted',
    seen.authEvents.filter((type) => type === 'auth.accessGranted'),
    'access granted told to the auth service',
  ).toHaveLength(x.grants);
}
