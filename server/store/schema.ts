import type { Generated } from 'kysely';

/**
 * The tables of the server's store, as both engines hold them (server/store/migrations.ts).
 * Instants are milliseconds since the epoch (BIGINT on Postgres, read back as numbers); lamports
 * are decimal strings (they can pass 2^53).
 */
export type Tables = {
  users: UsersTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  one_time_codes: OneTimeCodesTable;
  sign_in_strikes: SignInStrikesTable;
  invite_clicks: InviteClicksTable;
  invitation_codes: InvitationCodesTable;
  outbox: OutboxTable;
  sweeps: SweepsTable;
  server_secrets: ServerSecretsTable;
  sign_in_codes: SignInCodesTable;
  mail_quota: MailQuotaTable;
  rate_counters: RateCountersTable;
  ended_sessions: EndedSessionsTable;
};

/** A sign-in session (refresh-token family) ended by an operations command. */
type EndedSessionsTable = {
  id: Generated<number>;
  family_id: string;
  at: number;
};

type RateCountersTable = {
  bucket: string;
  window_start: number;
  hits: number;
};

type SignInCodesTable = {
  id: Generated<number>;
  email: string;
  code_hash: string;
  code_invite: string | null;
  /** The visitor session that asked for the code (a hash of its token), when it sent one. */
  session_hash: string | null;
  /** The network that asked (a keyed hash of its /24 or /64). */
  network: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
};

type MailQuotaTable = {
  bucket: string;
  window_start: number;
  sent: number;
};

export type UsersTable = {
  id: Generated<number>;
  email: string;
  invite_code: string;
  inviter_id: number | null;
  user_lvl: Generated<number>;
  user_access: Generated<number>;
  payment_wallet_id: string;
  payment_wallet_address: string;
  payment_wallet_secret: string;
  payment_balance_lamports: Generated<string>;
  ticket_paid_at: number | null;
  /** Lamports the chain showed in the payment wallet when the ticket was confirmed. */
  ticket_paid_lamports: string | null;
  /** Why the user has access: 'ticket' (own payment) or 'invites' (friends' tickets). */
  access_via: string | null;
  /** The calendar tier of the paid ticket (TIER_WIRE); NULL for tickets settled before tiers. */
  ticket_tier: string | null;
  /**
   * Set by the server while a Telegram link is pending for this account (sign-in step 3); the
   * local server has no Telegram bot, so it stays NULL and `user_telegram_link` is left out.
   */
  telegram_link: string | null;
  created_at: number;
};

type SessionsTable = {
  id: Generated<number>;
  token_hash: string;
  language: string;
  user_agent: string;
  utm_source: string | null;
  utm_campaign: string | null;
  utm_medium: string | null;
  user_id: number | null;
  created_at: number;
  last_seen_at: number;
};

type RefreshTokensTable = {
  id: Generated<number>;
  token_hash: string;
  family_id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
};

type OneTimeCodesTable = {
  id: Generated<number>;
  email: string;
  code_hash: string;
  code_invite: string | null;
  tries: Generated<number>;
  created_at: number;
  expires_at: number;
  strikes: Generated<number>;
  strikes_since: number | null;
};

type SignInStrikesTable = {
  email: string;
  network: string;
  strikes: number;
  since: number;
  code_at: number;
  code_tries: number;
};

type InviteClicksTable = {
  id: Generated<number>;
  inviter_id: number;
  code: string;
  at: number;
  visitor: string | null;
};

type InvitationCodesTable = {
  id: Generated<number>;
  owner_id: number;
  code: string;
  status: Generated<number>;
  created_at: number;
  /** 1..N per owner: the unique (owner_id, seq) makes issuing a holder's codes happen once. */
  seq: number | null;
};

type OutboxTable = {
  id: Generated<number>;
  email: string;
  code: string;
  subject: string;
  at: number;
};

type SweepsTable = {
  id: Generated<number>;
  user_id: number;
  wallet: string;
  destination: string;
  lamports: string;
  fee_lamports: string;
  blockhash: string;
  last_valid_block_height: number;
  signature: string;
  wire: string;
  status: Generated<string>;
  created_at: number;
  resolved_at: number | null;
};

type ServerSecretsTable = {
  name: string;
  value: string;
  created_at: number;
};
