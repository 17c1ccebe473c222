/**
 * Copy that names a date of the launch calendar (§2 Home, §9): the spec's words before the date,
 * words that stay true from it on. The calendar is the spec's unless the server tells another
 * (contract/calendar.ts); `now` is the launch service's clock reading (null before its first
 * reading: the words before every date, as pre-rendered).
 */
import { invitationRequiredFrom } from '../../contract/invitation';
import {
  shortDayLabel,
  launchDayLabel,
  tierAt,
  TIER_ACCESS_LEVEL,
  type LaunchCalendar,
  type TicketTier,
} from '../../contract/calendar';

/** What dated copy reads: the clock and the calendar. */
export type DatedCopyInput = { readonly now: number | null; readonly calendar: LaunchCalendar };

/** The launch instant has come. */
export const launched = ({ now, calendar }: DatedCopyInput): boolean =>
  now !== null && now >= calendar.launchAt;
/** The Early Bird has ended (so no reading: it still runs, as the spec's page shows it). */
export const isEarlyBirdOver = ({ now, calendar }: DatedCopyInput): boolean =>
  now !== null && now >= calendar.earlyBirdEnd;

/** §2 hero header: 'Starts December 20'; from the launch on, what a player can do now. */
export const startsHeaderAt = (at: DatedCopyInput): string =>
  launched(at)
    ? 'Training is open: get your ticket and join now'
    : `Starts ${launchDayLabel(at.calendar)}`;

/** The tier a ticket bought now belongs to (the spec's Early Bird before any reading). */
export const tierNow = (at: DatedCopyInput): TicketTier =>
  at.now === null ? 'earlyBird' : tierAt(at.calendar, at.now);

/**
 * The ticket card's title and badge (§2): 'Early Bird Entry' badged 'Until Nov 20' while the
 * Early Bird runs; then the entry ticket, badged with the tier its price belongs to.
 */
export const ticketCardAt = (at: DatedCopyInput): { title: string; badge: string } =>
  isEarlyBirdOver(at)
    ? { title: 'Entry Ticket', badge: `${TIER_ACCESS_LEVEL[tierNow(at)]} price` }
    : { title: 'Early Bird Entry', badge: `Until ${shortDayLabel(at.calendar.earlyBirdEnd)}` };

/** The hero's price line names the tier: 'Early Bird price', 'Pre-launch price', 'Launch price'. */
export const priceTierNameAt = (at: DatedCopyInput): string =>
  `${TIER_ACCESS_LEVEL[tierNow(at)]} price`;

/**
 * The spec's note on entry (§2 bonus box): 'After Nov 20 an invitation via ref is required to
 * enter' before the invitation date (the Early Bird end unless the studio sets another), then
 * 'An invitation via ref is required to enter'.
 */
export const invitationNoteAt = ({ now, calendar }: DatedCopyInput): string => {
  const from = invitationRequiredFrom(calendar);
  const when = now !== null && now >= from ? 'An' : `After ${shortDayLabel(from)} an`;
  return `${when} invitation via ref is required to enter`;
};

/**
 * The bonus box under the cards (§2): the Early Bird's extras while it runs, with the spec's note
 * on entry after its end; then what a ticket gives now (no extras are promised), with the note.
 */
export const bonusBoxAt = (
  at: DatedCopyInput,
): {
  title: string;
  items: readonly string[];
  /** The game's art drawn beside the list: the ticket's Gangsters, or the Early Bird's extras. */
  art: 'ticket' | 'extras';
} =>
  isEarlyBirdOver(at)
    ? {
        title: 'Your ticket',
        art: 'ticket',
        items: [
          'Access to training',
          '2 Gangsters',
          '+1 Gangster for each friend who buys a ticket',
          '5% of the $GNG your friends spend',
          invitationNoteAt(at),
        ],
      }
    : {
        title: 'Early Bird bonus',
        art: 'extras',
        items: [
          'Access to training',
          '4 extra starter weapons (+2 Guns, +2 Rifles)',
          'An extra pack',
          '999 invitation codes',
          invitationNoteAt(at),
        ],
      };
