/**
 * SOL amounts as integers. A price like "0.0157" times 1e9 in floating point is
 * 15699999.999999998, which SystemProgram.transfer rejects, so prices are parsed from their
 * decimal text straight into BigInt lamports and displayed back from lamports.
 */
import { DEFAULT_OLD_PRICE, DEFAULT_TICKET_PRICE, LAMPORTS_PER_SOL } from '../../contract/spec';

/** Page defaults when the server gives no price (§9), and 1e9 lamports per SOL. */
export { DEFAULT_OLD_PRICE, DEFAULT_TICKET_PRICE, LAMPORTS_PER_SOL };
const DECIMALS = 9;

/** "0.22" → 220000000n; null for anything that is not a plain non-negative decimal. */
export function solToLamports(text: string): bigint | null {
  const match = /^\s*(\d*)(?:\.(\d*))?\s*$/.exec(text);
  if (!match) return null;
  const whole = match[1] ?? '';
  const frac = match[2] ?? '';
  if (whole === '' && frac === '') return null;
  // Digits beyond the ninth decimal must be zeros: a lamport is indivisible.
  if (frac.length > DECIMALS && /[1-9]/.test(frac.slice(DECIMALS))) return null;
  const fracPadded = frac.slice(0, DECIMALS).padEnd(DECIMALS, '0');
  return BigInt(whole === '' ? '0' : whole) * LAMPORTS_PER_SOL + BigInt(fracPadded);
}

/** 220000000n → "0.22": up to 9 decimals, trailing zeros dropped, never an exponent. */
export function lamportsToSol(lamports: bigint): string {
  const negative = lamports < 0n;
  const abs = negative ? -lamports : lamports;
  const whole = abs / LAMPORTS_PER_SOL;
  const frac = (abs % LAMPORTS_PER_SOL).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** Fixed decimals, rounded half up: 219999999n with 2 → "0.22". */
export function lamportsToSolFixed(lamports: bigint, decimals: number): string {
  const unit = 10n ** BigInt(DECIMALS - decimals);
  const rounded = (lamports + unit / 2n) / unit;
  const scale = 10n ** BigInt(decimals);
  const whole = rounded / scale;
  if (decimals === 0) return whole.toString();
  return `${whole}.${(rounded % scale).toString().padStart(decimals, '0')}`;
}

/** Percent off from the old and new price, whole percent: 0.55 → 0.22 is 60. */
export function percentOff(oldLamports: bigint, newLamports: bigint): number {
  if (oldLamports <= 0n || newLamports >= oldLamports) return 0;
  const hundredths = ((oldLamports - newLamports) * 10_000n) / oldLamports;
  return Number((hundredths + 50n) / 100n);
}

/** The ticket price of public_data (ticket_price_lamports, ticket_price, price), else 0.22 SOL. */
export function ticketPriceLamports(publicData: {
  ticket_price_lamports?: string | undefined;
  ticket_price?: string | undefined;
  price?: string | undefined;
}): bigint {
  const exact = publicData.ticket_price_lamports;
  if (exact && /^\d+$/.test(exact)) return BigInt(exact);
  for (const text of [publicData.ticket_price, publicData.price]) {
    const parsed = text === undefined ? null : solToLamports(text);
    if (parsed !== null && parsed > 0n) return parsed;
  }
  return solToLamports(DEFAULT_TICKET_PRICE) ?? 0n;
}

export function oldPriceLamports(publicData: { old_price?: string | undefined }): bigint {
  const parsed = publicData.old_price === undefined ? null : solToLamports(publicData.old_price);
  return parsed !== null && parsed > 0n ? parsed : (solToLamports(DEFAULT_OLD_PRICE) ?? 0n);
}
