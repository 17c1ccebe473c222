import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Engine, Store } from './engine';

/**
 * The one migration history of both engines, applied in order once each by Kysely's migrator
 * (its table `kysely_migration`; on Postgres it holds an advisory lock, so instances starting
 * together migrate once). Never edit a shipped step: append a new one. `{ID}` is the engine's
 * integer key, `{MS}` a 64-bit integer (instants in ms, block heights).
 */
const STEPS: readonly { name: string; sql: string }[] = [
  {
    name: '0001_initial',
    sql: `
  CREATE TABLE users (
    id {ID},
    email TEXT NOT NULL UNIQUE,
    invite_code TEXT NOT NULL UNIQUE,
    inviter_id INTEGER REFERENCES users(id),
    user_lvl INTEGER NOT NULL DEFAULT 1,
    user_access INTEGER NOT NULL DEFAULT 0,
    payment_wallet_id TEXT NOT NULL UNIQUE,
    payment_wallet_address TEXT NOT NULL UNIQUE,
    payment_wallet_secret TEXT NOT NULL,
    payment_balance_lamports TEXT NOT NULL DEFAULT '0',
    ticket_paid_at {MS},
    telegram_link TEXT,
    created_at {MS} NOT NULL
  );
  CREATE TABLE sessions (
    id {ID},
    token_hash TEXT NOT NULL UNIQUE,
    language TEXT NOT NULL,
    user_agent TEXT NOT NULL,
    utm_source TEXT,
    utm_campaign TEXT,
    utm_medium TEXT,
    user_id INTEGER REFERENCES users(id),
    created_at {MS} NOT NULL,
    last_seen_at {MS} NOT NULL
  );
  CREATE INDEX users_inviter ON users(inviter_id);
  CREATE TABLE refresh_tokens (
    id {ID},
    token_hash TEXT NOT NULL UNIQUE,
    family_id TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    created_at {MS} NOT NULL,
    expires_at {MS} NOT NULL,
    rotated_at {MS},
    revoked_at {MS}
  );
  CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id);
  CREATE TABLE one_time_codes (
    id {ID},
    email TEXT NOT NULL UNIQUE,
    code_hash TEXT NOT NULL,
    code_invite TEXT,
    tries INTEGER NOT NULL DEFAULT 0,
    created_at {MS} NOT NULL,
    expires_at {MS} NOT NULL
  );
  CREATE TABLE invite_clicks (
    id {ID},
    inviter_id INTEGER NOT NULL REFERENCES users(id),
    code TEXT NOT NULL,
    at {MS} NOT NULL
  );
  CREATE INDEX invite_clicks_inviter ON invite_clicks(inviter_id);
  CREATE TABLE outbox (
    id {ID},
    email TEXT NOT NULL,
    code TEXT NOT NULL,
    subject TEXT NOT NULL,
    at {MS} NOT NULL
  );
  CREATE INDEX outbox_email ON outbox(email)`,
  },
  {
    name: '0002_ticket_amount_and_invitation_codes',
    sql: `
  ALTER TABLE users ADD COLUMN ticket_paid_lamports TEXT;
  ALTER TABLE users ADD COLUMN access_via TEXT;
  CREATE TABLE invitation_codes (
    id {ID},
    owner_id INTEGER NOT NULL REFERENCES users(id),
    code TEXT NOT NULL UNIQUE,
    status INTEGER NOT NULL DEFAULT 0,
    created_at {MS} NOT NULL
  );
  CREATE INDEX invitation_codes_owner ON invitation_codes(owner_id)`,
  },
  {
    name: '0003_code_strikes_and_click_visitors',
    sql: `
  ALTER TABLE one_time_codes ADD COLUMN strikes INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE one_time_codes ADD COLUMN strikes_since {MS};
  ALTER TABLE invite_clicks ADD COLUMN visitor TEXT;
  CREATE INDEX invite_clicks_visitor ON invite_clicks(code, visitor, at)`,
  },
  { name: '0004_ticket_tier', sql: `ALTER TABLE users ADD COLUMN ticket_tier TEXT` },
  {
    name: '0005_sign_in_strikes',
    sql: `
  CREATE TABLE sign_in_strikes (
    email TEXT NOT NULL,
    network TEXT NOT NULL,
    strikes INTEGER NOT NULL,
    since {MS} NOT NULL,
    code_at {MS} NOT NULL,
    code_tries INTEGER NOT NULL,
    PRIMARY KEY (email, network)
  );
  CREATE INDEX sign_in_strikes_since ON sign_in_strikes(since)`,
  },
  // The treasury sweep's journal (server/ops/treasury.ts): each transfer out of a payment wallet,
  // written before it is sent. status: 'pending' (sent or about to be), 'confirmed' (landed),
  // 'expired' (its blockhash expired before it landed: it never will).
  {
    name: '0006_sweeps',
    sql: `
  CREATE TABLE sweeps (
    id {ID},
    user_id INTEGER NOT NULL REFERENCES users(id),
    wallet TEXT NOT NULL,
    destination TEXT NOT NULL,
    lamports TEXT NOT NULL,
    fee_lamports TEXT NOT NULL,
    blockhash TEXT NOT NULL,
    last_valid_block_height {MS} NOT NULL,
    signature TEXT NOT NULL UNIQUE,
    wire TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    created_at {MS} NOT NULL,
    resolved_at {MS}
  );
  CREATE UNIQUE INDEX sweeps_one_pending ON sweeps(user_id) WHERE status = 'pending'`,
  },
  // The secrets every instance shares (created once, by whichever instance starts first), and
  // each holder's invitation codes numbered 1..N so a second issue of them cannot add rows.
  {
    name: '0007_shared_secrets_and_numbered_codes',
    sql: `
  CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at {MS} NOT NULL
  );
  ALTER TABLE invitation_codes ADD COLUMN seq INTEGER;
  UPDATE invitation_codes SET seq = (SELECT COUNT(*) FROM invitation_codes c
    WHERE c.owner_id = invitation_codes.owner_id AND c.id <= invitation_codes.id);
  CREATE UNIQUE INDEX invitation_codes_owner_seq ON invitation_codes(owner_id, seq)`,
  },
  // Several live sign-in codes per address (a request never takes back a code already mailed),
  // each with the network and visitor session that asked for it; the code e-mails sent per
  // minute, site-wide and per recipient domain. The one code of the older table that is still
  // pending is carried over.
  {
    name: '0008_sign_in_codes_and_mail_quota',
    sql: `
  CREATE TABLE sign_in_codes (
    id {ID},
    email TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    code_invite TEXT,
    session_hash TEXT,
    network TEXT NOT NULL,
    created_at {MS} NOT NULL,
    expires_at {MS} NOT NULL,
    used_at {MS}
  );
  CREATE INDEX sign_in_codes_email ON sign_in_codes(email, created_at);
  INSERT INTO sign_in_codes (email, code_hash, code_invite, network, created_at, expires_at)
    SELECT email, code_hash, code_invite, '', created_at, expires_at FROM one_time_codes
    WHERE code_hash <> '';
  CREATE TABLE mail_quota (
    bucket TEXT PRIMARY KEY,
    window_start {MS} NOT NULL,
    sent INTEGER NOT NULL
  )`,
  },
  // The per-IP request limits, counted once for every instance of a store (server/rateStore.ts).
  {
    name: '0009_rate_counters',
    sql: `
  CREATE TABLE rate_counters (
    bucket TEXT PRIMARY KEY,
    window_start {MS} NOT NULL,
    hits INTEGER NOT NULL
  )`,
  },
  // Sign-in sessions ended outside the server (a player's account deleted by `npm run player`):
  // every instance reads them within a second and closes those sessions' sockets.
  {
    name: '0010_ended_sessions',
    sql: `
  CREATE TABLE ended_sessions (
    id {ID},
    family_id TEXT NOT NULL,
    at {MS} NOT NULL
  )`,
  },
];

/** How many schema steps this server knows (its schema version). */
export const SCHEMA_VERSION = STEPS.length;

const TYPES: Record<Engine, { ID: string; MS: string }> = {
  sqlite: { ID: 'INTEGER PRIMARY KEY', MS: 'INTEGER' },
  postgres: { ID: 'SERIAL PRIMARY KEY', MS: 'BIGINT' },
};

function statementsOf(step: string, engine: Engine): string[] {
  const types = TYPES[engine];
  return step
    .replace(/\{ID\}/g, types.ID)
    .replace(/\{MS\}/g, types.MS)
    .split(/;\s*\n/)
    .map((statement) => statement.trim())
    .filter(Boolean);
}

function provider(engine: Engine): MigrationProvider {
  return {
    getMigrations: async () =>
      Object.fromEntries(
        STEPS.map((step): [string, Migration] => [
          step.name,
          {
            // Postgres runs every step inside the migrator's one transaction; SQLite's DDL is
            // not transactional there, so each step is a transaction of its own.
            up: async (db: Kysely<unknown>) => {
              const run = async (runner: Kysely<unknown>) => {
                for (const statement of statementsOf(step.sql, engine))
                  await sql.raw(statement).execute(runner);
              };
              if (engine === 'sqlite') await db.transaction().execute(run);
              else await run(db);
            },
          },
        ]),
      ),
  };
}

class SchemaTooNewError extends Error {}

const MIGRATION_TABLE = 'kysely_migration';

/**
 * Brings the store's schema up to date. A SQLite data folder from before this history (its steps
 * counted by `PRAGMA user_version`) is taken over in place: the steps it has are recorded as
 * applied, every row kept. A database with a step this server does not know is refused, naming
 * both schema versions: an older server never runs on a newer schema.
 */
export async function migrateStore(store: Store): Promise<{ applied: string[]; version: number }> {
  const db = store.db as unknown as Kysely<unknown>;
  if (store.engine === 'sqlite') await adoptUserVersion(store);
  const applied = await appliedSteps(store);
  const known = new Set(STEPS.map((step) => step.name));
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length > 0 || applied.length > SCHEMA_VERSION)
    throw new SchemaTooNewError(
      `The database at ${store.location} has schema version ${applied.length} (its newest step ${unknown.at(-1) ?? applied.at(-1)}), newer than this server's schema version ${SCHEMA_VERSION}. Run the server version that made it, or a newer one (docs/operations.md, "Upgrading").`,
    );
  const migrator = new Migrator({ db, provider: provider(store.engine) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  if (store.engine === 'sqlite')
    await sql.raw(`PRAGMA user_version = ${SCHEMA_VERSION}`).execute(db);
  return {
    applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName),
    version: SCHEMA_VERSION,
  };
}

async function appliedSteps(store: Store): Promise<string[]> {
  const exists =
    store.engine === 'sqlite'
      ? await store.raw(store.db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [
          MIGRATION_TABLE,
        ])
      : await store.raw(
          store.db,
          'SELECT 1 FROM information_schema.tables WHERE table_name = ? AND table_schema = current_schema()',
          [MIGRATION_TABLE],
        );
  if (exists.length === 0) return [];
  const rows = await store.raw<{ name: string }>(
    store.db,
    `SELECT name FROM ${MIGRATION_TABLE} ORDER BY name`,
  );
  return rows.map((row) => row.name);
}

/** A data folder made before the migrator: its `user_version` steps become recorded ones. */
async function adoptUserVersion(store: Store): Promise<void> {
  const [row] = await store.raw<{ user_version: number }>(store.db, 'PRAGMA user_version');
  const version = Number(row?.user_version ?? 0);
  if (version === 0 || (await appliedSteps(store)).length > 0) return;
  if (version > SCHEMA_VERSION)
    throw new SchemaTooNewError(
      `The database at ${store.location} has schema version ${version}, newer than this server's schema version ${SCHEMA_VERSION}. Run the server version that made it, or a newer one (docs/operations.md, "Upgrading").`,
    );
  await store.db.transaction().execute(async (trx) => {
    await store.raw(
      trx,
      `CREATE TABLE IF NOT EXISTS ${MIGRATION_TABLE} (name varchar(255) NOT NULL PRIMARY KEY, timestamp varchar(255) NOT NULL)`,
    );
    const at = new Date().toISOString();
    for (const step of STEPS.slice(0, version))
      await store.raw(trx, `INSERT INTO ${MIGRATION_TABLE} (name, timestamp) VALUES (?, ?)`, [
        step.name,
        at,
      ]);
  });
}
