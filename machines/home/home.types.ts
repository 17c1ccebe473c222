/** Invite code as the user/invite/codes call answers it (§3: code_status 0 means unused). */
export type InviteCodeItem = { code_text: string; code_status: number };

/** What the provided share actor did: the Web Share sheet, or nothing (no Web Share API). */
export type ShareOutcome = 'shared' | 'unsupported';
/** Output of the share actor: the outcome and the link it was asked to share. */
export type ShareResult = { outcome: ShareOutcome; url: string };
export type ShareInput = { url: string; title: string; text: string };

/** The way in a visitor chose on the landing's option cards (§2): a ticket, or 2 friends. */
export type OfferChoice = 'ticket' | 'invite';

export type HomeEvent =
  /**
   * A visitor chose an option card on the landing: choosing `Invite 2 friends` means the
   * signed-in home opens on the Invite tab, where the invite link is.
   */
  | { type: 'home.offerChosen'; offer: OfferChoice }
  /** The signed-in home is on the screen (after sign-in, or a signed-in page load). */
  | { type: 'home.shown' }
  /** Intents of the signed-in home page's tabs. */
  | { type: 'home.showTicket' }
  | { type: 'home.showInvite' }
  /** Intents of the Invite tab: copy the invite link, or share it (copy where sharing is absent). */
  | { type: 'invite.copyLink'; url: string }
  | { type: 'invite.share'; url: string }
  /** The player's data changed on the server (e.g. codes issued): the code list is read again. */
  | { type: 'home.userChanged' };

/** Text handed to the share sheet next to the invite link. */
export const SHARE_TITLE = 'Solana Mafia Wars';
export const SHARE_TEXT = 'Join my crew in Solana Mafia Wars: training opens December 20.';
