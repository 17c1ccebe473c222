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
   * What the open sign-in dialog says of a link whose code belongs to nobody, or null (with the
   * dialog closed the banner says it instead): the text itself, so the dialog reads it without
   * this service's code.
   */
  unknownLinkNotice: string | null;
  /** The sign-in service's dialog is open (told by the provided `signInDialog`). */
  signInOpen: boolean;
};

export type InvitationEvent =
  /** An invite link (/r/{code}, /ref/{code}, ?i=) was opened: its cleaned, non-empty code. */
  | { type: 'invitation.linkOpened'; code: string }
  /** The sign-in dialog opened or closed (told by the provided `signInDialog`). */
  | { type: 'signIn.dialogOpened' }
  | { type: 'signIn.dialogClosed' }
  | { type: 'invitation.codeChanged'; code: string }
  | { type: 'invitation.submit' };
