/**
 * The payment service (systemId `payment`): what it needs provided from src/ (wallet, API) and
 * the spec's texts (§2 Get Ticket, §8 wallet and payment errors).
 */
import { readFailure, type CallErrorShape } from '../shared/callError';
import type { ServiceInput } from '../shared/stored';

/**
 * The wallets a player pays with. `local`: the development wallet of local builds (`npm start`,
 * the browser tests), a button of its own marked as a development tool; never in production.
 */
export type WalletKind = 'phantom' | 'solflare' | 'local';

/** What the Get Ticket tab knows when it opens (auth user data + session public data). */
export type PaymentTarget = {
  /** The user's payment wallet address (user_payment_wallet). */
  address: string;
  /** user_payment_wallet_data.wallet_id */
  walletId: string;
  /** Ticket price in lamports, integer string. */
  priceLamports: string;
  /** Balance in SOL as the user data shows it (user_payment_wallet_balance). */
  balance: string;
  hasAccess: boolean;
  /** The access came through friends' tickets (user_access_via "invites"). */
  byFriends: boolean;
};

export type PaymentInput = Partial<ServiceInput>;

export type PaymentEvent =
  /**
   * The Get Ticket tab is shown (`payment.close` when it is left); the view names itself
   * (`source`), which the error modal shows as where a payment error happened (§3).
   */
  | { type: 'payment.open'; source?: ErrorSource }
  /**
   * What to pay, from the auth and session services (targetWatch, provided): sent at start and
   * whenever the user data or the price changes, whether or not the tab is open.
   */
  | { type: 'payment.target'; target: PaymentTarget }
  | { type: 'payment.close' }
  | { type: 'payment.send'; wallet: WalletKind }
  | { type: 'payment.refresh' }
  | { type: 'payment.dismissNotice' }
  | { type: 'payment.showQr' }
  | { type: 'payment.hideQr' }
  | { type: 'payment.closeModal' }
  | { type: 'payment.copyAddress' };

/**
 * A failure of a wallet or payment step, as the provided actors throw it: the site's one failure
 * shape from the wallet, `cancelled` (the player declined) or `failed` with the message and
 * solution the error modal shows (§8).
 */
export type PaymentFailure = CallErrorShape & {
  readonly source: 'wallet';
  readonly kind: 'cancelled' | 'failed';
};

export function isCancellation(error: unknown): boolean {
  return readFailure(error).kind === 'cancelled';
}

export type ErrorText = { message: string; solution: string };
/** Where on the page a payment runs: the error modal's component and file (§3 Error modal). */
export type ErrorSource = { component: string; file: string };

export type ConnectWalletInput = { wallet: WalletKind };
export type ConnectWalletOutput = { publicKey: string };
export type BlockhashOutput = { blockhash: string; lastValidBlockHeight: number | undefined };
export type SendTransferInput = {
  wallet: WalletKind;
  fromPublicKey: string;
  toAddress: string;
  lamports: string;
  blockhash: string;
  lastValidBlockHeight: number | undefined;
};
export type SendTransferOutput = { signature: string };
export type CheckBalanceInput = { walletId: string };
export type CheckBalanceOutput = {
  accessGranted: boolean;
  balance: string | undefined;
  balanceLamports: string | undefined;
  /** Why access was granted: the player's own ticket, or friends' tickets (`invites`). */
  accessVia?: string | undefined;
  /** What the chain showed received for the player's ticket, in lamports. */
  paidLamports?: string | undefined;
  /** The calendar tier the server settled the ticket in (`early_bird`, …). */
  ticketTier?: string | undefined;
};

/** The message shown instead of a receipt when friends' tickets granted access (no amount). */
export const ACCESS_BY_FRIENDS_TEXT = 'Two friends bought tickets with your invite code.';

export const CANCELLED_NOTICE = "Transaction cancelled. Click the button again when you're ready.";

/**
 * Where the payment the player started stands, shown on the button they pressed: the wallet is
 * connecting (§2's 'Connecting...'), the wallet is asked to approve the transfer, or the transfer
 * is sent and the balance is being checked (the seconds until the receipt).
 */
export type PayStep = 'connecting' | 'approving' | 'confirming';
export const PAY_STEP_TEXT: Record<PayStep, string> = {
  connecting: 'Connecting...',
  approving: 'Waiting for the wallet…',
  confirming: 'Confirming…',
};

/**
 * §2's note to click refresh after paying, kept true: the balance updates on its own (the
 * server's push, the page's polls), Refresh is the way to ask at once.
 */
export const AFTER_PAYING_NOTE =
  'After paying, the balance updates on its own; click Refresh if it does not.';

const DEFAULT_SOLUTION = 'Please try again or contact support if the issue persists';

/** §8 messages and solutions. */
export const PAYMENT_ERRORS = {
  notDetected: (wallet: WalletKind): ErrorText =>
    wallet === 'phantom'
      ? {
          message: 'Phantom wallet not detected',
          solution: 'Install the Phantom extension from phantom.com, then reload this page.',
        }
      : wallet === 'solflare'
        ? {
            message: 'Solflare wallet not detected',
            solution: 'Install the Solflare extension from solflare.com, then reload this page.',
          }
        : {
            message: 'Local test wallet not available',
            solution: 'Start the site with npm start (local chain), then reload this page.',
          },
  network: {
    message: 'Network connection failed',
    solution: 'Check your internet connection and try again.',
  },
  insufficientFunds: {
    message: 'Insufficient funds',
    solution:
      'Your wallet does not hold enough SOL for the ticket and the network fee. Top it up and try again.',
  },
  failed: { message: 'Failed to process payment', solution: DEFAULT_SOLUTION },
  blockhash: { message: 'Failed to get blockhash from server', solution: DEFAULT_SOLUTION },
  publicKey: {
    message: 'Failed to get wallet public key',
    solution: 'Unlock your wallet, connect it to this site and try again.',
  },
  addressNotFound: {
    message: 'Payment wallet address not found',
    solution: 'Reload the page; if the address is still missing, contact support.',
  },
  walletIdNotFound: {
    message: 'Wallet ID not found',
    solution: 'Reload the page; if the problem persists, contact support.',
  },
  refresh: {
    message: 'Failed to refresh balance',
    solution: 'Check your connection and reload the page.',
  },
} satisfies Record<string, ErrorText | ((wallet: WalletKind) => ErrorText)>;

/** Delays (§9: balance refresh 3 s after payment, cancel notice 5 s). */
export const PAYMENT_DELAYS = {
  balanceRefresh: 3_000,
  cancelNotice: 5_000,
  /** After the 3 s check: again at 10 s and at 30 s after sending, then the user refreshes. */
  pendingPolls: [7_000, 20_000] as readonly number[],
  qrPoll: 5_000,
};
