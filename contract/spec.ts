/**
 * Constants of the product spec (§1, §4, §9) that the site, the machines and the server all use,
 * written once here.
 */

/** §9: the API version the site requires from sess/init. */
export const API_VERSION = '0.2.0';

/** §4, §9: the sign-in code has 6 digits. */
export const SIGN_IN_CODE_LENGTH = 6;
/** A sign-in code as typed: exactly SIGN_IN_CODE_LENGTH digits. */
export const SIGN_IN_CODE_SHAPE = new RegExp(`^\\d{${SIGN_IN_CODE_LENGTH}}$`);
/** §4, §9: a new code can be requested 30 s after the last one. */
export const RESEND_SECONDS = 30;

/** §1, §9: 2 friends who buy tickets give free entry. */
export const FRIENDS_FOR_ACCESS = 2;
/** §9: entry (a ticket, or 2 friends' tickets) gives 2 Gangsters. */
export const GANGSTERS_WITH_ENTRY = 2;
/** §9: each invited friend who buys a ticket gives +1 Gangster. */
export const GANGSTERS_PER_FRIEND = 1;

/** §1, §9: the training phase starts 2025-12-20T00:00:00Z, shown as 'December 20'. */
export const LAUNCH_AT_ISO = '2025-12-20T00:00:00Z';
export const LAUNCH_AT_MS = Date.parse(LAUNCH_AT_ISO);
/** §9: Early Bird until Nov 20 (2025). */
const EARLY_BIRD_END_ISO = '2025-11-20T00:00:00Z';
export const EARLY_BIRD_END_MS = Date.parse(EARLY_BIRD_END_ISO);

/** Ticket prices in SOL (decimal strings) of the three tiers of the launch calendar. */
export type TicketPrices = {
  readonly earlyBird: string;
  readonly beforeLaunch: string;
  readonly afterLaunch: string;
};
/**
 * §9: ticket prices before Nov 20, Nov 20 to Dec 20, after Dec 20 (the schedule by date:
 * contract/calendar.ts).
 */
export const TICKET_PRICES = {
  earlyBird: '0.22',
  beforeLaunch: '0.33',
  afterLaunch: '0.55',
} as const satisfies TicketPrices;
/** §9: the page's price when the server gives none, and the crossed-out old price. */
export const DEFAULT_TICKET_PRICE = TICKET_PRICES.earlyBird;
export const DEFAULT_OLD_PRICE = TICKET_PRICES.afterLaunch;
/** §9: amounts are converted to lamports at 1e9 per SOL. */
export const LAMPORTS_PER_SOL = 1_000_000_000n;
