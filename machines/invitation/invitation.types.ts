import type { AuthUserData } from '../auth/auth.types';

/**
 * The invitation service (contract/invitation.ts): the code of an invite link is checked before
 * the page keeps it, and a signed-in player without an inviter names one by a friend's code.
 * The browser parts are provided by src/app/provide/invitation.ts.
 */

/** invite/check: does the (cleaned) code belong to a player? */
export type CheckCodeInput = { code: string };

/** user/inviter: the friend's code as typed (the server cleans it); the player's data after. */
export type SetInviterInput = { code: string };
export type SetInviterOutput = AuthUserData;

export type InvitationContext = {
  /** What the player typed into the friend's code field (kept when it is refused). */
  typed: string;
  /** The refusal of the last code entered, or null. */
  notice: string | null;
  /** The code of the last link that is being checked or was checked. */
  linkCode: string | null;
  /**
   * What is said of a link whose code belongs to nobody (on the banner and in sign-in), or null:
   * the text itself, so the sign-in dialog reads it without this service's code.
   */
  unknownLinkNotice: string | null;
};

export type InvitationEvent =
  /** An invite link (/r/{code}, /ref/{code}) was opened: its cleaned, non-empty code. */
  | { type: 'invitation.linkOpened'; code: string }
  | { type: 'invitation.codeChanged'; code: string }
  | { type: 'invitation.submit' };
