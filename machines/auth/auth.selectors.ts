import { tierOfWire, type TicketTier } from '../../contract/calendar';
import type { SnapshotFrom } from 'xstate';
import type { AuthMachine } from './auth.machine';

export type AuthSnapshot = SnapshotFrom<AuthMachine>;

/** The shell checks only the jwt (§4 Auth). */
export const selectHasJwt = (s: AuthSnapshot): boolean => s.context.jwt !== null;
/** Signed in means jwt and user data both exist (§4 Auth). */
export const selectIsSignedIn = (s: AuthSnapshot): boolean =>
  s.context.jwt !== null && s.context.userData !== null;
/** user_access === 1 grants access and overrides the user_lvl > 1 reading (§4 Access flag). */
export const selectHasAccess = (s: AuthSnapshot): boolean => {
  const user = s.context.userData;
  if (!user || s.context.jwt === null) return false;
  return user.user_access === 1;
};
export const selectEmail = (s: AuthSnapshot): string => s.context.userData?.user_email ?? '';
export const selectInviteCode = (s: AuthSnapshot): string =>
  s.context.userData?.user_invite_code ?? '';
export const selectPaymentWallet = (s: AuthSnapshot): string =>
  s.context.userData?.user_payment_wallet ?? '';
export const selectPaymentWalletBalance = (s: AuthSnapshot): string =>
  s.context.userData?.user_payment_wallet_balance ?? '0';
export const selectWalletId = (s: AuthSnapshot): string =>
  s.context.userData?.user_payment_wallet_data.wallet_id ?? '';
/** Tickets bought by invitees. */
export const selectReferralConfirmed = (s: AuthSnapshot): number =>
  s.context.userData?.user_ref_confirmed ?? 0;
/** Users registered via the invite link. */
export const selectReferralRegistered = (s: AuthSnapshot): number =>
  s.context.userData?.user_ref_registered ?? 0;
export const selectReferralClicks = (s: AuthSnapshot): number =>
  s.context.userData?.user_data.referral.clicks ?? 0;
export const selectTelegramLink = (s: AuthSnapshot): string =>
  s.context.userData?.user_telegram_link ?? '';
export const selectIsRefreshing = (s: AuthSnapshot): boolean =>
  s.matches({ signedIn: 'refreshing' });

/** The tier of the player's paid ticket, when the server names it (null otherwise). */
export const selectTicketTier = (s: AuthSnapshot): TicketTier | null =>
  tierOfWire(s.context.userData?.user_ticket_tier);

/** The player's access came from friends' tickets (user data's user_access_via). */
export const selectAccessByFriends = (s: AuthSnapshot): boolean =>
  selectHasAccess(s) && s.context.userData?.user_access_via === 'invites';
