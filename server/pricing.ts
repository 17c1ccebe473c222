import type { PublicData } from '../contract/api';
import { priceAt, type LaunchCalendar } from '../contract/calendar';
import { LAMPORTS_PER_SOL } from '../contract/spec';

export { LAMPORTS_PER_SOL };

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

/**
 * The ticket offer and the launch calendar of sess/init: the price by the calendar's date, unless
 * `override` (TICKET_PRICE_SOL) fixes one; the old price is the launch price (§9: 0.55).
 */
export function publicData(
  nowMs: number,
  calendar: LaunchCalendar,
  override?: string,
): Required<PublicData> {
  const price = override ?? priceAt(calendar, nowMs);
  return {
    price,
    ticket_price: price,
    old_price: calendar.prices.afterLaunch,
    ticket_price_lamports: solToLamports(price).toString(),
    launch_at: new Date(calendar.launchAt).toISOString(),
    early_bird_end: new Date(calendar.earlyBirdEnd).toISOString(),
  };
}
