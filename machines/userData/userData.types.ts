import type { UserEventKind } from '../../contract/realtime';
import type { AuthUserData } from '../auth/auth.types';

/**
 * How often the signed-in home asks for user/data again while the realtime socket is down and
 * the page is visible (the spec names no interval; one constant, see the README's readings).
 * Inside the 10 s a player expects a friend's ticket to show when the socket cannot tell them.
 */
export const USER_DATA_POLL_MS = 8_000;

export type UserDataContext = {
  /** The realtime socket is connected: changes arrive as events, no polling. */
  live: boolean;
  /** The page is visible (told by src/app): a hidden page does not poll. */
  visible: boolean;
  /** A change arrived while user/data was on its way: ask once more when it answers. */
  again: boolean;
  /** The socket was lost while signed in: changes may have been missed, ask when it is back. */
  dropped: boolean;
};

export type UserDataEvent =
  /** The server changed this user's data (a `notifications` room message with data.event). */
  | { type: 'userData.changed'; kind: UserEventKind }
  /** The realtime socket is connected / not connected (sent by the realtime machine). */
  | { type: 'userData.live' }
  | { type: 'userData.notLive' }
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
