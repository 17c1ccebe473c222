import type { PublicData } from '../contract/api';
import {
  DEFAULT_OLD_PRICE,
  EARLY_BIRD_END_MS,
  LAMPORTS_PER_SOL,
  LAUNCH_AT_MS,
  scheduledTicketPrice,
} from '../contract/spec';

/** §9: 0.22 SOL before Nov 20, 0.33 SOL from Nov 20 to Dec 20, 0.55 SOL after Dec 20 (2025). */
export { EARLY_BIRD_END_MS, LAMPORTS_PER_SOL };
export const LAUNCH_MS = LAUNCH_AT_MS;
export const OLD_PRICE_SOL = DEFAULT_OLD_PRICE;

export const ticketPriceSolAt = scheduledTicketPrice;

const SOL_DECIMAL = /^(\d{1,12})(?:\.(\d{1,9}))?$/;

/** Decimal SOL string → integer lamports, without floating point. */
export function solToLamports(sol: string): bigint {
  const match = SOL_DECIMAL.exec(sol.trim());
  if (!match) throw new Error(`Not a SOL amount: ${sol}`);
  const whole = BigInt(match[1]!);
  const fraction = BigInt((match[2] ?? '').padEnd(9, '0'));
  return whole * LAMPORTS_PER_SOL + fraction;
}

/** Integer lamports → shortest decimal SOL string ("0", "0.22", "1.000000001"). */
export function lamportsToSol(lamports: bigint): string {
  const negative = lamports < 0n;
  const abs = negative ? -lamports : lamports;
  const whole = abs / LAMPORTS_PER_SOL;
  const fraction = (abs % LAMPORTS_PER_SOL).toString().padStart(9, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export function isSolAmount(value: string): boolean {
  return SOL_DECIMAL.test(value.trim());
}

/** The ticket offer of sess/init: `override` (TICKET_PRICE_SOL) wins over the date. */
export function publicData(nowMs: number, override?: string): Required<PublicData> {
  const price = override ?? ticketPriceSolAt(nowMs);
  return {
    price,
    ticket_price: price,
    old_price: OLD_PRICE_SOL,
    ticket_price_lamports: solToLamports(price).toString(),
  };
}
