/**
 * Cancelled or failed? The spec (§8) counts 4001, -32603 and reject/cancel messages as a user
 * cancellation, but wallets also answer -32603 when the account lacks SOL or the blockhash
 * expired during a slow approval; those show their real error, never "cancelled".
 */
import { PAYMENT_ERRORS, type PaymentFailure } from '../../machines/payment/payment.types';

type Raw = { code?: unknown; message?: unknown; error?: unknown; name?: unknown };

function layers(error: unknown): Raw[] {
  const out: Raw[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    out.push(current as Raw);
    current = (current as Raw).error ?? (current as { cause?: unknown }).cause;
  }
  if (typeof error === 'string') out.push({ message: error });
  return out;
}

const REJECTED = /reject|cancel|denied|declined|closed by user/i;
const INSUFFICIENT =
  /insufficient (funds|lamports)|not enough (sol|funds)|debit an account but found no record|0x1\b/i;
const BLOCKHASH = /blockhash|expired|block height exceeded|expir/i;
const SIMULATION = /simulation failed|simulat/i;
const NETWORK = /network|failed to fetch|fetch failed|timed? ?out|econn|offline|load failed/i;

/** A wallet step's refusal with the texts the error modal shows (§8). */
export const walletFailed = (text: { message: string; solution: string }): PaymentFailure => ({
  source: 'wallet',
  kind: 'failed',
  ...text,
});

/** The player declined in the wallet: the wallet's own words are kept for the console. */
const cancelled = (message: string): PaymentFailure => ({
  source: 'wallet',
  kind: 'cancelled',
  message: message || 'Cancelled in the wallet',
});

export function classifyWalletError(error: unknown): PaymentFailure {
  // Always log the raw error: the classification below loses detail on purpose.
  console.warn('[wallet] raw error', error);
  const all = layers(error);
  const codes = all.map((l) => l.code).filter((c): c is number => typeof c === 'number');
  const message = all
    .map((l) => (typeof l.message === 'string' ? l.message : ''))
    .filter(Boolean)
    .join(' | ');

  if (INSUFFICIENT.test(message)) return walletFailed(PAYMENT_ERRORS.insufficientFunds);
  if (BLOCKHASH.test(message))
    return walletFailed({
      message: PAYMENT_ERRORS.failed.message,
      solution:
        'The transaction expired before it was approved. Click the button again to retry with a fresh blockhash.',
    });
  if (SIMULATION.test(message))
    return walletFailed({
      message: PAYMENT_ERRORS.failed.message,
      solution: `${message}. ${PAYMENT_ERRORS.failed.solution}`,
    });
  if (codes.includes(4001) || REJECTED.test(message)) return cancelled(message);
  if (codes.includes(-32603)) return cancelled(message);
  if (codes.includes(-32002))
    return walletFailed({
      message: PAYMENT_ERRORS.failed.message,
      solution:
        'A wallet request is already open: finish or close it in your wallet, then try again.',
    });
  if (NETWORK.test(message)) return walletFailed(PAYMENT_ERRORS.network);
  return walletFailed({
    message: PAYMENT_ERRORS.failed.message,
    solution: message
      ? `${message}. ${PAYMENT_ERRORS.failed.solution}`
      : PAYMENT_ERRORS.failed.solution,
  });
}
