/**
 * Lamports as SOL text (§9), exactly: the amounts the payment panel, the receipt, the server's
 * answers and reports show. Apart from contract/money.ts so the landing page's first load, which
 * only reads prices, does not carry them.
 */
import { DECIMALS } from './money';
import { LAMPORTS_PER_SOL } from './spec';

/** 220000000n → "0.22": up to 9 decimals, trailing zeros dropped, never an exponent. */
export function lamportsToSol(lamports: bigint): string {
  const negative = lamports < 0n;
  const abs = negative ? -lamports : lamports;
  const whole = abs / LAMPORTS_PER_SOL;
  const fraction = (abs % LAMPORTS_PER_SOL).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Fixed decimals (0 to 9), rounded half up: 219999999n with 2 → "0.22". Not for negatives. */
export function lamportsToSolFixed(lamports: bigint, decimals: number): string {
  const unit = 10n ** BigInt(DECIMALS - decimals);
  const rounded = (lamports + unit / 2n) / unit;
  const scale = 10n ** BigInt(decimals);
  const whole = rounded / scale;
  if (decimals === 0) return whole.toString();
  return `${whole}.${(rounded % scale).toString().padStart(decimals, '0')}`;
}
