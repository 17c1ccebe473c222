/**
 * What the auth machine holds and needs provided. The user data mirrors the contract's
 * `userDataSchema` (contract/api.ts); a type check in
 * src/app/services.ts keeps the two in step.
 */
import type { ServiceInput } from '../shared/stored';

export type AuthUserData = {
  user_email: string;
  user_lvl: number;
  user_access: number;
  user_invite_code: string;
  user_payment_wallet: string;
  user_payment_wallet_balance: string;
  user_payment_wallet_data: { wallet_id: string };
  user_ref_registered: number;
  user_ref_confirmed: number;
  user_data: { referral: { clicks: number; registered: number; confirmed: number } };
  user_access_via?: string;
  user_telegram_link?: string;
  /** The calendar tier of the paid ticket (`early_bird`, `before_launch`, `after_launch`). */
  user_ticket_tier?: string;
  /** A ticket of this player needs an invitation they do not have (contract/invitation.ts). */
  user_needs_invitation?: boolean;
  /** Development mode only: the local server's house invite code. */
  user_house_invite_code?: string;
};

export type AuthTokens = { jwt: string; refreshToken: string };

/** Tokens read from browser storage at boot (keys `jwt`, `refreshToken`). */
export type AuthInput = ServiceInput;

export type AuthContext = {
  jwt: string | null;
  refreshToken: string | null;
  userData: AuthUserData | null;
  /**
   * The signed-in session's identity: the jwt it began with (restored or signed in), null when
   * signed out. A refresh keeps it; sign-in and logout change it. A caller waiting for a refreshed
   * jwt compares epochs, so
   * an answer that belongs to an earlier session is never used for a request of the new one.
   */
  epoch: string | null;
  /** Why the last logout happened when it was a token failure (§8 texts); null otherwise. */
  logoutReason: string | null;
};

export type AuthEvent =
  /** Sent by the sign-in flow after the e-mail code is verified. */
  | { type: 'auth.signedIn'; jwt: string; refreshToken: string; userData: AuthUserData }
  /** User data fetched by the session bootstrap (user/data) or refreshed later. */
  | { type: 'auth.userLoaded'; userData: AuthUserData }
  /** The payment flow learned that the ticket was issued (access_granted). */
  | { type: 'auth.accessGranted' }
  | { type: 'auth.logout' }
  /** Another tab logged out (a `storage` event removed the jwt). */
  | { type: 'auth.loggedOutElsewhere' }
  /** Another tab signed in (a `storage` event stored a jwt while this tab is signed out). */
  | { type: 'auth.signedInElsewhere'; jwt: string; refreshToken: string }
  /** A protected call got a 401 with `jwt`: ask for one refresh (ignored while one runs). */
  | { type: 'auth.refresh'; jwt: string };

/** Input and output of the provided refresh actor (POST auth/refresh through the plain path). */
export type RefreshInput = { refreshToken: string };
export type RefreshOutput = AuthTokens;
