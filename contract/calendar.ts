/**
 * The launch calendar: when training opens, when the Early Bird ends, and the ticket price of
 * each tier. The spec's dates and prices are the defaults (§1, §9); a studio sets its own through
 * the server's environment (`calendarFromEnv`), and the server hands them to the site in
 * public_data (`launch_at`, `early_bird_end`). Everything dated (the countdown, the header, the
 * Early Bird card and badge, the price by date, the receipt's access level) reads one calendar.
 */
import { isPositiveSol, percentOff, solToLamports } from './money';
import { EARLY_BIRD_END_MS, LAUNCH_AT_MS, TICKET_PRICES, type TicketPrices } from './spec';

export type LaunchCalendar = {
  /** The training start (ms since epoch). */
  readonly launchAt: number;
  /** The first instant after the Early Bird (ms since epoch); at most `launchAt`. */
  readonly earlyBirdEnd: number;
  /** SOL prices (decimal strings) of the three tiers. */
  readonly prices: TicketPrices;
  /**
   * From when a ticket needs an invitation (ms since epoch; contract/invitation.ts); the Early
   * Bird end when absent. The page reads the server's (public_data's `invitation_from`) once the
   * session has loaded, the build's until then.
   */
  readonly invitationFrom?: number | undefined;
};

/** §1, §9: launch 2025-12-20T00:00:00Z, Early Bird until Nov 20, 0.22 / 0.33 / 0.55 SOL. */
export const SPEC_CALENDAR: LaunchCalendar = {
  launchAt: LAUNCH_AT_MS,
  earlyBirdEnd: EARLY_BIRD_END_MS,
  prices: TICKET_PRICES,
};

/** §9's three prices, by date: before the Early Bird end, until the launch, after it. */
export type TicketTier = keyof TicketPrices;

/** The tier a ticket bought at `nowMs` belongs to. */
export function tierAt(calendar: LaunchCalendar, nowMs: number): TicketTier {
  if (nowMs < calendar.earlyBirdEnd) return 'earlyBird';
  if (nowMs < calendar.launchAt) return 'beforeLaunch';
  return 'afterLaunch';
}

/** The ticket price in SOL at `nowMs`. */
export const priceAt = (calendar: LaunchCalendar, nowMs: number): string =>
  calendar.prices[tierAt(calendar, nowMs)];

/**
 * The ticket offer at `nowMs`: the tier's price, the launch price struck through (§9: 0.55), and
 * the percent off between them.
 */
export function offerAt(
  calendar: LaunchCalendar,
  nowMs: number,
): { price: string; oldPrice: string; discount: number } {
  const price = priceAt(calendar, nowMs);
  const oldPrice = calendar.prices.afterLaunch;
  return {
    price,
    oldPrice,
    discount: percentOff(solToLamports(oldPrice) ?? 0n, solToLamports(price) ?? 0n),
  };
}

/** The receipt's access level for a ticket of each tier (§2: 'Early Bird' while it runs). */
export const TIER_ACCESS_LEVEL: Record<TicketTier, string> = {
  earlyBird: 'Early Bird',
  beforeLaunch: 'Pre-launch',
  afterLaunch: 'Launch',
};

/** The API's names of the tiers (balance answer `ticket_tier`, user data `user_ticket_tier`). */
export const TIER_WIRE: Record<TicketTier, string> = {
  earlyBird: 'early_bird',
  beforeLaunch: 'before_launch',
  afterLaunch: 'after_launch',
};
export const tierOfWire = (wire: string | undefined): TicketTier | null =>
  (Object.keys(TIER_WIRE) as TicketTier[]).find((tier) => TIER_WIRE[tier] === wire) ?? null;

/** The day of `ms` in UTC as the spec writes dates: 'December 20' (long) or 'Nov 20' (short). */
const dayLabel = (ms: number, month: 'long' | 'short'): string =>
  new Date(ms).toLocaleDateString('en-US', { month, day: 'numeric', timeZone: 'UTC' });

/** 'December 20': the launch day as the spec writes it (UTC, the month in full). */
export const launchDayLabel = (calendar: LaunchCalendar): string =>
  dayLabel(calendar.launchAt, 'long');

/**
 * 'Nov 20': a day as the spec writes the Early Bird's end (UTC, the month in three letters). The
 * end is the first instant after the Early Bird, so an end at midnight names that day ('until
 * Nov 20' as the spec means it: the offer stops when Nov 20 begins).
 */
export const shortDayLabel = (ms: number): string => dayLabel(ms, 'short');

/** An ISO 8601 instant with its zone (`2026-03-01T18:00:00Z`); null when it is not one. */
const instant = (text: string): number | null => {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text))
    return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
};

/** The environment variables of the calendar (README, "Running a launch"). */
const CALENDAR_ENV = {
  launchAt: 'LAUNCH_AT',
  earlyBirdEnd: 'EARLY_BIRD_END',
  invitationFrom: 'INVITATION_REQUIRED_FROM',
  earlyBird: 'PRICE_EARLY_BIRD_SOL',
  beforeLaunch: 'PRICE_BEFORE_LAUNCH_SOL',
  afterLaunch: 'PRICE_AFTER_LAUNCH_SOL',
} as const;

/**
 * The calendar an environment sets, the spec's for anything unset. Throws with the variable's
 * name when a value is not a date or price, or when the Early Bird would end after the launch.
 */
export function calendarFromEnv(env: Readonly<Record<string, string | undefined>>): LaunchCalendar {
  const date = (name: string, fallback: number): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const ms = instant(raw);
    if (ms === null)
      throw new Error(`${name} must be an ISO 8601 instant like 2026-03-01T18:00:00Z, got ${raw}`);
    return ms;
  };
  const price = (name: string, fallback: string): string => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!isPositiveSol(raw)) throw new Error(`${name} must be a SOL amount like 0.22, got ${raw}`);
    return raw;
  };
  const launchAt = date(CALENDAR_ENV.launchAt, SPEC_CALENDAR.launchAt);
  const earlyBirdEnd = date(
    CALENDAR_ENV.earlyBirdEnd,
    Math.min(SPEC_CALENDAR.earlyBirdEnd, launchAt),
  );
  if (earlyBirdEnd > launchAt)
    throw new Error(`${CALENDAR_ENV.earlyBirdEnd} must not be after ${CALENDAR_ENV.launchAt}`);
  return {
    launchAt,
    earlyBirdEnd,
    ...(env[CALENDAR_ENV.invitationFrom]?.trim()
      ? { invitationFrom: date(CALENDAR_ENV.invitationFrom, earlyBirdEnd) }
      : {}),
    prices: {
      earlyBird: price(CALENDAR_ENV.earlyBird, TICKET_PRICES.earlyBird),
      beforeLaunch: price(CALENDAR_ENV.beforeLaunch, TICKET_PRICES.beforeLaunch),
      afterLaunch: price(CALENDAR_ENV.afterLaunch, TICKET_PRICES.afterLaunch),
    },
  };
}

/**
 * The calendar of public_data (`launch_at`, `early_bird_end`, `invitation_from` as ISO instants)
 * over `base`: a field that is missing or not an instant keeps the base's date; an end after the
 * launch is brought back to the launch.
 */
export function calendarFromPublicData(
  data: {
    launch_at?: string | undefined;
    early_bird_end?: string | undefined;
    invitation_from?: string | undefined;
  },
  base: LaunchCalendar,
): LaunchCalendar {
  // The server writes these with toISOString; anything Date.parse cannot read keeps the base.
  const read = (text: string | undefined) => {
    const ms = text ? Date.parse(text) : Number.NaN;
    return Number.isFinite(ms) ? ms : null;
  };
  const launchAt = read(data.launch_at) ?? base.launchAt;
  const end = read(data.early_bird_end) ?? base.earlyBirdEnd;
  return {
    ...base,
    launchAt,
    earlyBirdEnd: Math.min(end, launchAt),
    invitationFrom: read(data.invitation_from) ?? base.invitationFrom,
  };
}
