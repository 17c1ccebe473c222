/**
 * A player's data rights (the privacy page's "a copy of your data, its correction or its
 * deletion"), run by the studio on the player's request:
 *
 *   npm run -s player -- export EMAIL [--out FILE]   every row about the player, as JSON
 *   npm run -s player -- delete EMAIL                removes or anonymises the player's data
 *
 * Either engine (DATABASE_URL, else DATA_DIR's SQLite), beside a running server.
 *
 * What delete does (docs/operations.md, "A player's data"): the sign-in sessions end at once
 * (their refresh tokens are deleted, so every jwt of theirs is refused on its next request, and
 * every running instance closes their sockets within a second, server/store/endedSessions.ts);
 * the visitor sessions (language, browser, UTM), sign-in codes, attempt counts, development
 * outbox e-mails and the clicks on their invite link are deleted; the account row loses its
 * e-mail address, invite code and Telegram link. What money and fraud records need stays, tied
 * to that anonymous row: the ticket (when, how much, which tier, access), the payment wallet (its
 * address is on the chain and its sealed key sweeps what it holds), the invitation codes issued
 * with the ticket (friends may hold them), the sweeps, and who invited them (the inviter's
 * counts stay right).
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Runner, Store, StoreTx } from '../store/engine';
import { describeDatabaseUrl } from '../store/engine';
import { recordEndedSessions } from '../store/endedSessions';
import { openExistingStore, storeOptionsFromEnv } from '../store/index';
import type { Tables } from '../store/schema';
import { canonicalEmail, normalizeEmail } from '../users';

/** Tables that hold nothing about one player (secrets, counters by bucket, the migrator's). */
export const NOT_ABOUT_A_PLAYER: readonly string[] = [
  'server_secrets',
  'mail_quota',
  'rate_counters',
  'ended_sessions',
  'kysely_migration',
  'kysely_migration_lock',
];

/** Columns an export leaves out: secrets (hashes of tokens and codes, keys), not data about anyone. */
export const WITHHELD: Readonly<Partial<Record<keyof Tables, readonly string[]>>> = {
  users: ['payment_wallet_secret'],
  sessions: ['token_hash'],
  refresh_tokens: ['token_hash'],
  sign_in_codes: ['code_hash', 'network', 'session_hash'],
  one_time_codes: ['code_hash'],
  sign_in_strikes: ['network'],
  invite_clicks: ['visitor'],
  outbox: ['code'],
  sweeps: ['wire'],
};

type Row = Record<string, unknown>;
export type PlayerExport = {
  exported_at: string;
  email: string;
  user_id: number;
  /** Every table about the player, each a list of rows (secrets withheld, see `withheld`). */
  tables: Record<string, Row[]>;
  withheld: Record<string, readonly string[]>;
};

export type DeleteSummary = {
  userId: number;
  sessionsEnded: number;
  deleted: Record<string, number>;
};

/** The addresses a player's rows may be under: as typed (normalised) and as their mailbox. */
function addressesOf(raw: string): string[] {
  const typed = normalizeEmail(raw);
  return [...new Set([canonicalEmail(typed) ?? typed, typed])];
}

async function findPlayer(store: Store, raw: string) {
  const emails = addressesOf(raw);
  const user = await store.db
    .selectFrom('users')
    .selectAll()
    .where('email', 'in', emails)
    .executeTakeFirst();
  if (!user) throw new Error(`No player with the e-mail ${raw} in ${store.location}`);
  return { user, emails: [...new Set([user.email, ...emails])] };
}

const without = (rows: Row[], columns: readonly string[] = []): Row[] =>
  rows.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !columns.includes(k))));

/** The tables with rows about a player beside `users`: by the account's id, or by its address. */
const PLAYER_ROWS: readonly (readonly [keyof Tables, string, 'id' | 'email'])[] = [
  ['sessions', 'user_id', 'id'],
  ['refresh_tokens', 'user_id', 'id'],
  ['sign_in_codes', 'email', 'email'],
  ['one_time_codes', 'email', 'email'],
  ['sign_in_strikes', 'email', 'email'],
  ['invite_clicks', 'inviter_id', 'id'],
  ['invitation_codes', 'owner_id', 'id'],
  ['outbox', 'email', 'email'],
  ['sweeps', 'user_id', 'id'],
];
/** What a delete keeps of them: money records (docs/operations.md, "A player's data"). */
const KEPT: readonly (keyof Tables)[] = ['invitation_codes', 'sweeps'];

const keysOf = (key: 'id' | 'email', id: number, emails: readonly string[]): readonly unknown[] =>
  key === 'id' ? [id] : emails;

/** `VERB FROM table WHERE column IN (keys)` (names from PLAYER_ROWS only, never from input). */
const rowsOf = (
  store: Store,
  runner: Runner,
  verb: string,
  table: string,
  column: string,
  keys: readonly unknown[],
): Promise<Row[]> =>
  store.raw<Row>(
    runner,
    `${verb} FROM ${table} WHERE ${column} IN (${keys.map(() => '?').join(', ')})`,
    keys,
  );

/** Every row about the player `email`, secrets withheld. */
export async function exportPlayer(
  store: Store,
  email: string,
  now: number,
): Promise<PlayerExport> {
  const { user, emails } = await findPlayer(store, email);
  const db = store.db;
  const id = user.id;
  const raw: Record<string, Row[]> = { users: [user] };
  for (const [table, column, key] of PLAYER_ROWS)
    raw[table] = await rowsOf(store, store.db, 'SELECT *', table, column, keysOf(key, id, emails));
  const tables: Record<string, Row[]> = {};
  for (const [name, rows] of Object.entries(raw))
    tables[name] = without(rows, WITHHELD[name as keyof Tables]);
  // Who invited them, by that player's invite code (their id means nothing to the player).
  const inviter =
    user.inviter_id === null
      ? undefined
      : await db
          .selectFrom('users')
          .select('invite_code')
          .where('id', '=', user.inviter_id)
          .executeTakeFirst();
  tables.users = tables.users!.map((row) => ({
    ...row,
    inviter_invite_code: inviter?.invite_code ?? null,
  }));
  return {
    exported_at: new Date(now).toISOString(),
    email: user.email,
    user_id: id,
    tables,
    withheld: Object.fromEntries(Object.entries(WITHHELD)),
  };
}

/** The e-mail address a deleted account keeps (unique, in a domain no mail can reach). */
export const deletedEmail = (userId: number): string => `deleted-${userId}@deleted.invalid`;

/**
 * Removes or anonymises the player `email` (see the file's head): one transaction, then the
 * ended sessions are there for every running instance to close their sockets.
 */
export async function deletePlayer(
  store: Store,
  email: string,
  now: number,
): Promise<DeleteSummary> {
  const { user, emails } = await findPlayer(store, email);
  const id = user.id;
  return store.db.transaction().execute(async (trx: StoreTx) => {
    await store.lockRow(trx, 'users', id);
    const families = (
      await trx
        .selectFrom('refresh_tokens')
        .select('family_id')
        .distinct()
        .where('user_id', '=', id)
        .execute()
    ).map((row) => row.family_id);
    const deleted: Record<string, number> = {};
    for (const [table, column, key] of PLAYER_ROWS) {
      if (KEPT.includes(table)) continue;
      const keys = keysOf(key, id, emails);
      const [found] = await rowsOf(store, trx, 'SELECT COUNT(*) AS n', table, column, keys);
      await rowsOf(store, trx, 'DELETE', table, column, keys);
      deleted[table] = Number(found?.n ?? 0);
    }
    // Friends' sign-in codes that name the player's invite code (it ceases to exist).
    for (const table of ['sign_in_codes', 'one_time_codes'] as const)
      await trx
        .updateTable(table)
        .set({ code_invite: null })
        .where('code_invite', '=', user.invite_code)
        .execute();
    await trx
      .updateTable('users')
      .set({
        email: deletedEmail(id),
        // Not a code a link can carry (links' codes are letters and digits only).
        invite_code: `DELETED-${id}`,
        telegram_link: null,
      })
      .where('id', '=', id)
      .execute();
    await recordEndedSessions(trx, families, now);
    return { userId: id, sessionsEnded: families.length, deleted };
  });
}

async function main(args: string[]): Promise<void> {
  const [command, email, ...rest] = args;
  if ((command !== 'export' && command !== 'delete') || !email || email.startsWith('--')) {
    console.error(
      'Usage: npm run -s player -- export EMAIL [--out FILE] | npm run -s player -- delete EMAIL (DATA_DIR or DATABASE_URL)',
    );
    process.exit(2);
  }
  const options = storeOptionsFromEnv(process.env, resolve(process.env.DATA_DIR || '.data'));
  const where = options.databaseUrl ? describeDatabaseUrl(options.databaseUrl) : options.dataDir;
  const store = await openExistingStore(options);
  try {
    if (command === 'export') {
      const copy = await exportPlayer(store, email, Date.now());
      const text = `${JSON.stringify(copy, null, 2)}\n`;
      const outAt = rest.indexOf('--out');
      const out = outAt >= 0 ? rest[outAt + 1] : undefined;
      if (outAt >= 0 && !out) throw new Error('--out needs a file name');
      if (out) {
        writeFileSync(out, text, { mode: 0o600 });
        chmodSync(out, 0o600);
        console.error(`Exported player ${copy.user_id} from ${where} to ${resolve(out)}`);
      } else process.stdout.write(text);
      return;
    }
    const done = await deletePlayer(store, email, Date.now());
    const counts = Object.entries(done.deleted)
      .map(([table, n]) => `${table} ${n}`)
      .join(', ');
    console.log(
      `Deleted player ${done.userId} from ${where}: ${done.sessionsEnded} sign-in session(s) ended; rows deleted: ${counts}; the account row kept anonymous for the ticket and payment records`,
    );
  } finally {
    await store.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  await main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`player: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
