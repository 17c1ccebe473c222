import { GANGSTERS_PER_FRIEND, GANGSTERS_WITH_ENTRY } from '../../contract/spec';
import { selectReferralConfirmed, type AuthSnapshot } from './auth.selectors';

// The player's gang, read from the auth service's user data: a module of its own, since only the
// signed-in home's chunk needs it, never the landing page.

/** Gangsters earned by invited friends who bought a ticket: +1 each (§9), whatever the entry. */
export const selectGangstersFromFriends = (s: AuthSnapshot): number =>
  selectReferralConfirmed(s) * GANGSTERS_PER_FRIEND;

/**
 * The player's gang in Gangsters (§9): 2 with entry (their own ticket, or 2 friends' tickets),
 * plus 1 for each friend who bought. Held once the player has access (selectHasAccess); until
 * then it is what entry will give, friends' Gangsters included.
 */
export const selectGangsterCount = (s: AuthSnapshot): number =>
  GANGSTERS_WITH_ENTRY + selectGangstersFromFriends(s);
