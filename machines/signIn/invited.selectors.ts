import type { SignInSnapshot } from './signIn.selectors';

// The landing page's cue for an invited visitor reads these: a module of its own, so the landing's
// first JS does not carry the sign-in modal's selectors.

/**
 * The visitor arrived through a friend's invite link (/r/{code}, /ref/{code}, `?i=`): a code from
 * a link is held (a random fallback never is), so sign-in will name that friend as the inviter.
 */
export const selectWasInvited = (s: SignInSnapshot): boolean => Boolean(s.context.inviteCode);
/** The invite code of the friend's link, upper-cased as the sign-in modal shows it; '' if none. */
export const selectInvitedCode = (s: SignInSnapshot): string =>
  s.context.inviteCode ? s.context.inviteCode.toUpperCase() : '';
