/**
 * The invitation rule (§2 bonus box: "invitation via ref is required to enter after Nov 20"):
 * from the calendar's invitation date (INVITATION_REQUIRED_FROM, the Early Bird end unless set),
 * a ticket is settled only for a player with an inviter. The server applies it; the site reads
 * the outcome in user data (`user_needs_invitation`).
 */
import type { LaunchCalendar } from './calendar';

/**
 * A player who registered before the invitation date keeps the entry they registered for: the
 * rule asks an invitation of those who sign up from that date on (docs/spec-readings.md).
 */
export const EARLIER_SIGN_UPS_ENTER_WITHOUT_INVITATION = true;

/** The first instant a ticket needs an invitation: the setting, else the Early Bird end. */
export const invitationRequiredFrom = (calendar: LaunchCalendar): number =>
  calendar.invitationFrom ?? calendar.earlyBirdEnd;

/** What the rule reads of a player. */
export type InvitationSubject = {
  readonly inviterId: number | null;
  /** When the account was created (ms since epoch). */
  readonly createdAt: number;
};

/** A ticket bought by `player` at `atMs` needs an invitation the player does not have. */
export function needsInvitation(
  calendar: LaunchCalendar,
  player: InvitationSubject,
  atMs: number,
): boolean {
  const from = invitationRequiredFrom(calendar);
  if (atMs < from || player.inviterId !== null) return false;
  return !(EARLIER_SIGN_UPS_ENTER_WITHOUT_INVITATION && player.createdAt < from);
}
