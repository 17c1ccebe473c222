/**
 * SOL amounts, exactly (§9): decimal text ↔ integer lamports (1e9 per SOL), the two-decimal
 * price check, and the percent off between two prices (lamports as text: contract/lamports.ts). A price like "0.0157" times 1e9 in floating
 * point is 15699999.999999998, which SystemProgram.transfer rejects, so amounts never pass
 * through a float. The one place the site, the machines and the server do SOL arithmetic.
 */
import { LAMPORTS_PER_SOL } from './spec';

/** Decimal places of a SOL amount: a lamport is 1e-9 SOL. */
export const DECIMALS = 9;
/** Digits, an optional point and decimals, at least one digit; blanks around are allowed. */
const SOL_TEXT = /^\s*(\d{0,12})(?:\.(\d*))?\s*$/;

/**
 * "0.22" → 220000000n, ".5" → 500000000n, "1." → 1000000000n; null for anything else: no sign,
 * no exponent, no digits at all, more than 12 whole digits, or a part of a lamport ("0.0000000019":
 * decimals past the ninth must be zeros, a lamport is indivisible).
 */
export function solToLamports(text: string): bigint | null {
  const match = SOL_TEXT.exec(text);
  if (!match) return null;
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (whole === '' && fraction === '') return null;
  if (/[1-9]/.test(fraction.slice(DECIMALS))) return null;
  return (
    BigInt(whole || '0') * LAMPORTS_PER_SOL +
    BigInt(fraction.slice(0, DECIMALS).padEnd(DECIMALS, '0'))
  );
}

/** A SOL amount of more than zero lamports (a price). */
export const isPositiveSol = (text: string): boolean => (solToLamports(text) ?? 0n) > 0n;

/**
 * Percent off of `newLamports` against `oldLamports`, a whole percent rounded half up
 * (0.55 → 0.22 is 60); 0 when there is no discount or no old price.
 */
export function percentOff(oldLamports: bigint, newLamports: bigint): number {
  if (oldLamports <= 0n || newLamports >= oldLamports || newLamports < 0n) return 0;
  return Number(((oldLamports - newLamports) * 200n + oldLamports) / (2n * oldLamports));
}

/** A SOL price text if it is more than zero; otherwise the fallback. */
export const validPrice = (value: string | undefined, fallback: string): string =>
  value !== undefined && isPositiveSol(value) ? value.trim() : fallback;
