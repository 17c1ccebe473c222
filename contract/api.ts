/**
 * The API contract of the site, imported by the browser client (src/api/client.ts) and by the
 * local reference server (server/), so the two cannot drift. Paths are relative to the API base
 * (default `/api/`). Every request body is JSON `{ session?, data? }` (the client adds `session`).
 */
import { isProtectedPath } from './paths';
import {
  array,
  bool,
  literal,
  num,
  object,
  optional,
  str,
  type Infer,
  type Schema,
} from './schema';

export { API_VERSION } from './spec';
export { MESSAGES } from './messages';
const okStatus = literal('ok');

export const userDataSchema = object({
  user_email: str(320),
  user_lvl: num(),
  user_access: num(),
  user_invite_code: str(64),
  user_payment_wallet: str(64),
  user_payment_wallet_balance: str(40),
  user_payment_wallet_data: object({ wallet_id: str(64) }),
  user_ref_registered: num(),
  user_ref_confirmed: num(),
  user_data: object({
    referral: object({ clicks: num(), registered: num(), confirmed: num() }),
  }),
  /**
   * Why the user has access, when they do (an addition to the spec's shape; optional, so an API
   * host without it still validates): `ticket` (own payment) or `invites` (friends' tickets).
   */
  user_access_via: optional(str(16)),
  /**
   * Set by the server while a Telegram link is pending for this account, or in the verify answer
   * when the studio configures a community link (TELEGRAM_URL): sign-in step 3.
   */
  user_telegram_link: optional(str(300)),
  /** The calendar tier of the paid ticket (`early_bird`, `before_launch`, `after_launch`). */
  user_ticket_tier: optional(str(16)),
  /**
   * True while a ticket of this player would be refused for want of an invitation (the rule of
   * contract/invitation.ts): the page asks for a friend's invite code before payment.
   */
  user_needs_invitation: optional(bool()),
  /** Development mode only: the local server's house invite code, for a newcomer's first try. */
  user_house_invite_code: optional(str(64)),
});
export type UserData = Infer<typeof userDataSchema>;

const publicDataSchema = object({
  /** Ticket price in SOL as a decimal string, e.g. "0.22". */
  price: optional(str(32)),
  ticket_price: optional(str(32)),
  old_price: optional(str(32)),
  /** The ticket price in lamports as a decimal integer string. */
  ticket_price_lamports: optional(str(32)),
  /**
   * The launch calendar (additions to the spec's shape; the site keeps the spec's dates when they
   * are absent): the training start and the end of the Early Bird, ISO 8601 instants.
   */
  launch_at: optional(str(40)),
  early_bird_end: optional(str(40)),
  /** From when a ticket needs an invitation (ISO 8601; the Early Bird end unless set). */
  invitation_from: optional(str(40)),
});
export type PublicData = Infer<typeof publicDataSchema>;

const inviteCodeSchema = object({ code_text: str(64), code_status: num() });

type Call<Req, Res> = {
  readonly path: string;
  /** Needs `Authorization: Bearer <jwt>`. */
  readonly protected: boolean;
  readonly request: Schema<Req>;
  readonly response: Schema<Res>;
};
const call = /* @__NO_SIDE_EFFECTS__ */ <Req, Res>(
  path: string,
  request: Schema<Req>,
  response: Schema<Res>,
): Call<Req, Res> => ({ path, protected: isProtectedPath(path), request, response });

const empty = object({});

export const CALLS = {
  sessInit: call(
    'sess/init',
    object({}),
    object({
      status: okStatus,
      version: str(32),
      data: object({ public_data: publicDataSchema }),
    }),
  ),
  sessLoad: call(
    'sess/load',
    object({ session: str(200), data: optional(object({})) }),
    object({ status: okStatus, message: optional(str(500)) }),
  ),
  sessCreate: call(
    'sess/create',
    object({
      data: object({
        language: str(64),
        user_agent: str(512),
        utm_source: optional(str(200)),
        utm_campaign: optional(str(200)),
        utm_medium: optional(str(200)),
      }),
    }),
    object({ status: okStatus, sessionToken: str(200) }),
  ),
  userData: call('user/data', empty, object({ result: literal(true), user_data: userDataSchema })),
  authRefresh: call(
    'auth/refresh',
    object({ refresh_token: str(512) }),
    object({ result: literal(true), jwt: str(2048), refresh_token: str(512) }),
  ),
  authEmailInit: call(
    'auth/email/init',
    object({
      data: object({
        email: str(320),
        code_invite: optional(str(30)),
        resend: optional(bool()),
      }),
    }),
    object({ result: literal(true), sign_code: optional(str(6)) }),
  ),
  authEmailVerify: call(
    'auth/email/verify',
    object({ data: object({ email: str(320), code: str(6) }) }),
    object({
      result: literal(true),
      user_data: userDataSchema,
      jwt: str(2048),
      refresh_token: str(512),
    }),
  ),
  inviteCodes: call(
    'user/invite/codes',
    empty,
    object({ status: okStatus, codes: array(inviteCodeSchema, 1000) }),
  ),
  blockhash: call(
    'user/tools/solana/blockhash',
    object({ data: object({ wallet_type: str(32) }) }),
    object({
      status: okStatus,
      data: object({ blockhash: str(64), lastValidBlockHeight: optional(num()) }),
    }),
  ),
  walletBalance: call(
    'user/wallet/balance',
    object({ data: object({ wallet_id: str(64) }) }),
    object({
      status: okStatus,
      access_granted: bool(),
      /** Balance of the payment wallet in SOL (decimal string) and lamports (integer string). */
      balance: optional(str(40)),
      balance_lamports: optional(str(40)),
      /**
       * Why the user has access, when they do: `ticket` (their own payment; `paid_lamports` is
       * what the chain showed received when it was confirmed) or `invites` (friends' tickets).
       */
      access_via: optional(str(16)),
      paid_lamports: optional(str(40)),
      /** The calendar tier the paid ticket was bought in (`early_bird`, …): the receipt's level. */
      ticket_tier: optional(str(16)),
    }),
  ),
  /**
   * One click on an invite link, told by a page a static host served (the API on another
   * origin never saw the page's request; served by this server, the page's own request counts
   * and no call is made). Counted as a served page is: once per visitor per window; the answer
   * is the same whether the code exists or not.
   */
  inviteClick: call(
    'invite/click',
    object({ data: object({ code: str(64) }) }),
    object({ result: literal(true) }),
  ),
  /**
   * Whether an invite code belongs to a player (the page asks before it keeps a code from a link).
   * The code is cleaned as §5 says before the look-up.
   */
  inviteCheck: call(
    'invite/check',
    object({ data: object({ code: str(64) }) }),
    object({ result: literal(true), known: bool() }),
  ),
  /**
   * A signed-in player without an inviter names one by the friend's invite code (cleaned as §5
   * says). Refused with a message for an unknown code, the player's own, or an inviter already
   * set; the answer is the player's user data with the inviter in place.
   */
  inviterSet: call(
    'user/inviter',
    object({ data: object({ code: str(64) }) }),
    object({ result: literal(true), user_data: userDataSchema }),
  ),
  /**
   * Ends the session on the server: the refresh token's family is revoked. Answers ok for an
   * unknown or already revoked token too (the page clears its storage whatever the answer).
   */
  authLogout: call(
    'auth/logout',
    object({ refresh_token: str(512) }),
    object({ result: literal(true) }),
  ),
} as const;

export type CallName = keyof typeof CALLS;
export type RequestOf<N extends CallName> = Infer<(typeof CALLS)[N]['request']>;
export type ResponseOf<N extends CallName> = Infer<(typeof CALLS)[N]['response']>;

/** Error bodies: every 4xx/5xx answer is `{ message }` (plus `status: 'error'`, `result: false`). */
export const errorBodySchema = object({ message: str(2000) });

/** Local server extras (development mode only): the e-mail outbox tests and newcomers read. */
export const DEV_OUTBOX_PATH = 'dev/outbox';
export const outboxSchema = object({
  messages: array(object({ email: str(), code: str(), subject: str(), at: str() })),
});

/**
 * Local server extra (development mode, local chain only): the development wallet, a keypair
 * funded on the local chain that the local-mode build injects as Phantom/Solflare so a newcomer
 * can pay end to end. Worth nothing anywhere else; absent in production.
 */
export const DEV_WALLET_PATH = 'dev/wallet';
export const devWalletSchema = object({
  public_key: str(64),
  /** The 64-byte secret key, base64. */
  secret_key: str(128),
  /** The local chain's JSON-RPC path on the same origin. */
  rpc_path: str(64),
});
