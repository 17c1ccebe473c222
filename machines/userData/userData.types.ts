import type { UserEventKind } from '../../contract/realtime';
import type { AuthUserData } from '../auth/auth.types';

/**
 * How often the signed-in home asks for user/data again while the realtime socket is down and
 * the page is visible (the spec names no interval; one constant, see the README's readings).
 * Inside the 10 s a player expects a friend's ticket to show when the socket cannot tell them.
 */
export const USER_DATA_POLL_MS = 8_000;

/**
 * The server tells one change in several frames at once (a friend's ticket that is the second:
 * `invite.confirmed`, then `access.granted`; a player's own ticket: the balance, the codes and
 * the access): the changes heard within this time of the first are read with one user/data.
 */
export const CHANGE_BURST_MS = 150;

export type UserDataContext = {
  /** The realtime socket is connected: changes arrive as events, no polling. */
  live: boolean;
  /** The page is visible (told by src/app): a hidden page does not poll. */
  visible: boolean;
  /** A change arrived after user/data was asked: ask once more when it answers. */
  again: boolean;
  /**
   * Changes may have been missed while signed in (the socket not yet up, or lost): ask when it is
   * up.
   */
  missed: boolean;
};

/**
 * What the realtime connection tells its owner, the user-data service (its parent): a change the
 * server made to this user's data (a `notifications` room message with data.event), and whether
 * the socket is connected.
 */
export type RealtimeFact =
  | { type: 'userData.changed'; kind: UserEventKind }
  | { type: 'userData.live' }
  | { type: 'userData.notLive' };

export type UserDataEvent =
  | RealtimeFact
  /** The page became visible / hidden. */
  | { type: 'userData.visible' }
  | { type: 'userData.hidden' }
  /**
   * The auth service holds a jwt / lost it. `needsData`: the jwt came without user data (another
   * tab signed in), so user/data is asked at once.
   */
  | { type: 'userData.signedIn'; needsData?: boolean }
  | { type: 'userData.signedOut' }
  /** Raised by the chart: the poll interval passed, or the socket came back after a loss. */
  | { type: 'userData.poll' };

export type FetchedUserData = AuthUserData;
