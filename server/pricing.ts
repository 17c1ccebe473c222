import type { PublicData } from '../contract/api';
import { priceAt, type LaunchCalendar } from '../contract/calendar';
import { invitationRequiredFrom } from '../contract/invitation';
import { solToLamports } from '../contract/money';

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
    // The price was checked at start (calendarFromEnv, TICKET_PRICE_SOL): it always parses.
    ticket_price_lamports: (solToLamports(price) ?? 0n).toString(),
    launch_at: new Date(calendar.launchAt).toISOString(),
    early_bird_end: new Date(calendar.earlyBirdEnd).toISOString(),
    invitation_from: new Date(invitationRequiredFrom(calendar)).toISOString(),
  };
}
