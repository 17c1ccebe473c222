import type { AuthSnapshot } from './auth.selectors';

// What the invitation rule says of the signed-in player: a module of its own, read only by the
// signed-in home's chunk.

/** A ticket of this player would be refused for want of an inviter (contract/invitation.ts). */
export const selectNeedsInvitation = (s: AuthSnapshot): boolean =>
  s.context.userData?.user_needs_invitation === true && s.context.userData.user_access !== 1;
/** Development mode: the local server's house invite code ('' elsewhere). */
export const selectHouseInviteCode = (s: AuthSnapshot): string =>
  s.context.userData?.user_house_invite_code ?? '';
