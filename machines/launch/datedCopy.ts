/**
 * Copy that names a date of the spec (§2 Home, §9): the spec's words before the date, words that
 * stay true from it on. The dates are one constant each in contract/spec.ts; `now` is the launch
 * service's clock reading (null before its first reading: the spec's words, as pre-rendered).
 */
import { EARLY_BIRD_END_MS, LAUNCH_AT_MS } from '../../contract/spec';

const OPEN_SINCE = 'Training open since December 20';
// Stryker disable next-line ConditionalExpression: `null >= at` is false too; `!== null` is for the type checker
const from = (at: number) => (now: number | null) => now !== null && now >= at;
const launched = from(LAUNCH_AT_MS);
const earlyBirdOver = from(EARLY_BIRD_END_MS);

/** §2 hero header. */
export const startsHeaderAt = (now: number | null): string =>
  launched(now) ? OPEN_SINCE : 'Starts December 20';

/** The ticket receipt and Access Granted. */
export const trainingStartAt = (now: number | null): string =>
  launched(now) ? OPEN_SINCE : 'Training starts December 20';

/** §2 Early Bird badge. */
export const earlyBirdBadgeAt = (now: number | null): string =>
  earlyBirdOver(now) ? 'Ended' : 'Until Nov 20';

/**
 * §9's price tier the card's price belongs to once the Early Bird has ended (Nov 20 to Dec 20,
 * then from Dec 20); null while it runs (the spec's card as it is).
 */
export const priceTierNameAt = (now: number | null): string | null =>
  launched(now) ? 'Launch price' : earlyBirdOver(now) ? 'Pre-launch price' : null;
