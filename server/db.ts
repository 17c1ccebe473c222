import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type Db = Database.Database;

/**
 * Schema migrations, applied in order once each; `PRAGMA user_version` remembers how far a data
 * folder got. Never edit a shipped step: append a new one.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    language TEXT NOT NULL,
    user_agent TEXT NOT NULL,
    utm_source TEXT,
    utm_campaign TEXT,
    utm_medium TEXT,
    user_id INTEGER REFERENCES users(id),
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL
  );
  CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    invite_code TEXT NOT NULL UNIQUE,
    inviter_id INTEGER REFERENCES users(id),
    user_lvl INTEGER NOT NULL DEFAULT 1,
    user_access INTEGER NOT NULL DEFAULT 0,
    payment_wallet_id TEXT NOT NULL UNIQUE,
    payment_wallet_address TEXT NOT NULL UNIQUE,
    payment_wallet_secret TEXT NOT NULL,
    payment_balance_lamports TEXT NOT NULL DEFAULT '0',
    ticket_paid_at INTEGER,
    telegram_link TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX users_inviter ON users(inviter_id);
  CREATE TABLE refresh_tokens (
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    family_id TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    rotated_at INTEGER,
    revoked_at INTEGER
  );
  CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id);
  CREATE TABLE one_time_codes (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    code_hash TEXT NOT NULL,
    code_invite TEXT,
    tries INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE TABLE invite_clicks (
    id INTEGER PRIMARY KEY,
    inviter_id INTEGER NOT NULL REFERENCES users(id),
    code TEXT NOT NULL,
    at INTEGER NOT NULL
  );
  CREATE INDEX invite_clicks_inviter ON invite_clicks(inviter_id);
  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,
    code TEXT NOT NULL,
    subject TEXT NOT NULL,
    at INTEGER NOT NULL
  );
  CREATE INDEX outbox_email ON outbox(email);
  `,
  `
  ALTER TABLE users ADD COLUMN ticket_paid_lamports TEXT;
  ALTER TABLE users ADD COLUMN access_via TEXT;
  CREATE TABLE invitation_codes (
    id INTEGER PRIMARY KEY,
    owner_id INTEGER NOT NULL REFERENCES users(id),
    code TEXT NOT NULL UNIQUE,
    status INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX invitation_codes_owner ON invitation_codes(owner_id);
  `,
  `
  ALTER TABLE one_time_codes ADD COLUMN strikes INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE one_time_codes ADD COLUMN strikes_since INTEGER;
  ALTER TABLE invite_clicks ADD COLUMN visitor TEXT;
  CREATE INDEX invite_clicks_visitor ON invite_clicks(code, visitor, at);
  `,
  `
  ALTER TABLE users ADD COLUMN ticket_tier TEXT;
  `,
  `
  CREATE TABLE sign_in_strikes (
    email TEXT NOT NULL,
    network TEXT NOT NULL,
    strikes INTEGER NOT NULL,
    since INTEGER NOT NULL,
    code_at INTEGER NOT NULL,
    code_tries INTEGER NOT NULL,
    PRIMARY KEY (email, network)
  );
  CREATE INDEX sign_in_strikes_since ON sign_in_strikes(since);
  `,
  // The treasury sweep's journal (server/ops/treasury.ts): each transfer out of a payment wallet,
  // written before it is sent. status: 'pending' (sent or about to be), 'confirmed' (landed),
  // 'expired' (its blockhash expired before it landed: it never will).
  `
  CREATE TABLE sweeps (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    wallet TEXT NOT NULL,
    destination TEXT NOT NULL,
    lamports TEXT NOT NULL,
    fee_lamports TEXT NOT NULL,
    blockhash TEXT NOT NULL,
    last_valid_block_height INTEGER NOT NULL,
    signature TEXT NOT NULL UNIQUE,
    wire TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    created_at INTEGER NOT NULL,
    resolved_at INTEGER
  );
  CREATE UNIQUE INDEX sweeps_one_pending ON sweeps(user_id) WHERE status = 'pending';
  `,
];

/** Opens (or creates) `dataDir/site.sqlite` in WAL mode and brings its schema up to date. */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'site.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  for (let step = current; step < MIGRATIONS.length; step += 1) {
    db.transaction(() => {
      db.exec(MIGRATIONS[step]!);
      db.pragma(`user_version = ${step + 1}`);
    })();
  }
}
