import type { ActorRef, Snapshot } from 'xstate';
import type { AuthUserData } from '../auth/auth.types';

/** public_data of sess/init: decimal strings (prices in SOL, lamports as an integer string). */
export type PublicData = {
  price?: string;
  ticket_price?: string;
  old_price?: string;
  ticket_price_lamports?: string;
  /** The launch calendar's dates (ISO instants), when the server sets them. */
  launch_at?: string;
  early_bird_end?: string;
  /** From when a ticket needs an invitation (ISO instant; the Early Bird end when absent). */
  invitation_from?: string;
};

/** Session-start data of §3, sent with sess/create. */
export type SessionStartData = {
  language: string;
  user_agent: string;
  utm_source?: string;
  utm_campaign?: string;
  utm_medium?: string;
};

export type SessionInput = {
  /** The session token found in browser storage at boot (key `sessionToken`). */
  sessionToken?: string | null;
  /** Whether a jwt was stored at boot: then user/data is fetched. */
  hasJwt: boolean;
  startData: SessionStartData;
  /**
   * Who hears `session.loaded` / `session.failed`: the app machine passes itself. Without one
   * (the session run alone) they go to the session itself, which takes neither.
   */
  parent?: ActorRef<Snapshot<unknown>, SessionParentEvent>;
};

export type SessionContext = {
  sessionToken: string | null;
  hasJwt: boolean;
  startData: SessionStartData;
  version: string | null;
  publicData: PublicData;
  /** Set when no stored session existed and a new one was created (§4 Session). */
  cookieConsentNeeded: boolean;
  /** The application error text when the bootstrap failed. */
  errorText: string | null;
  /** SessionInput's parent. */
  parent: ActorRef<Snapshot<unknown>, SessionParentEvent> | undefined;
};

/** Provided actor contracts (src/main.tsx implements them with the api client). */
export type SessInitOutput = { version: string; data: { public_data: PublicData } };
export type SessLoadInput = { session: string };
export type SessCreateInput = { data: SessionStartData };
export type SessCreateOutput = { sessionToken: string };
export type UserDataOutput = { user_data: AuthUserData };

/** Facts the session tells its parent (the app machine). */
export type SessionParentEvent =
  | { type: 'session.loaded'; publicData: PublicData }
  | { type: 'session.failed'; code: string; text: string };
