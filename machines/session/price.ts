/**
 * Ticket price arithmetic on decimal strings (§9): exact, via integer lamports (1e9 per SOL).
 */
import { DEFAULT_OLD_PRICE, DEFAULT_TICKET_PRICE, LAMPORTS_PER_SOL } from '../../contract/spec';

export { DEFAULT_OLD_PRICE, DEFAULT_TICKET_PRICE, LAMPORTS_PER_SOL };

const DECIMAL = /^\s*(\d+)(?:\.(\d{0,9})\d*)?\s*$/;

/** "0.22" → 220000000n; null when the text is not a non-negative decimal number. */
export function solToLamports(sol: string): bigint | null {
  const match = DECIMAL.exec(sol);
  if (!match) return null;
  // Stryker disable next-line StringLiteral: group 1 is not optional, so the fallback never applies
  const whole = BigInt(match[1] ?? '0');
  const fraction = BigInt((match[2] ?? '').padEnd(9, '0'));
  return whole * LAMPORTS_PER_SOL + fraction;
}

/** A price string if it parses to more than zero lamports; otherwise the fallback. */
export function validPrice(value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  const lamports = solToLamports(value);
  return lamports !== null && lamports > 0n ? value.trim() : fallback;
}

/** Percent off of `price` against `oldPrice`, rounded to a whole number (0.22 vs 0.55 → 60). */
export function discountPercent(price: string, oldPrice: string): number {
  const now = solToLamports(price);
  const before = solToLamports(oldPrice);
  if (now === null || before === null || before <= 0n) return 0;
  if (now >= before) return 0;
  return Number(((before - now) * 200n + before) / (2n * before));
}
