import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import type { Tables } from './schema';

export type Engine = 'sqlite' | 'postgres';
type StoreDb = Kysely<Tables>;
export type StoreTx = Transaction<Tables>;
/** A query runner: the store itself or a transaction of it. */
export type Runner = StoreDb | StoreTx;
/** Tables whose rows a transaction may lock by id. */
type LockableTable = 'users' | 'refresh_tokens' | 'one_time_codes';

/**
 * The server's database: one typed query builder over either engine. Nothing outside
 * server/store/ knows which engine runs; what differs (row locks, the file checkpoint, the
 * engine's name) is asked of the store.
 */
export type Store = {
  readonly db: StoreDb;
  readonly engine: Engine;
  /** Where the data lives, for messages: the SQLite file, or the database's URL without its password. */
  readonly location: string;
  /** `sqlite 3.x.y` or `postgres 15.x`. */
  version(): Promise<string>;
  /**
   * Locks one row until the transaction ends, so a check-then-write on it is decided in turn
   * (Postgres `SELECT … FOR UPDATE`). SQLite needs nothing: the store has one connection and a
   * transaction holds it whole.
   */
  lockRow(trx: StoreTx, table: LockableTable, id: number): Promise<void>;
  /**
   * Serialises the transactions that name the same key until each ends (a rule about rows that
   * may not exist yet, e.g. an address's sign-in codes): a Postgres advisory transaction lock;
   * SQLite's one connection already runs one transaction at a time.
   */
  lockKey(trx: StoreTx, key: string): Promise<void>;
  /** A raw statement with `?` placeholders (the operations commands' reports). */
  raw<R>(runner: Runner, text: string, params?: readonly unknown[]): Promise<R[]>;
  /** Flushes what the engine keeps beside the database (SQLite's WAL) before a stop. */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
};

export type StoreOptions = {
  /** The data folder of the embedded SQLite store (`site.sqlite`). */
  dataDir: string;
  /** `postgres://…`: the shared Postgres instead of the data folder's SQLite. */
  databaseUrl?: string | undefined;
  /** Postgres connections per instance (default 10). */
  poolSize?: number;
  /** SQLite: open the file read-only (reports beside a running server). */
  readonly?: boolean;
};

export const SQLITE_FILE = 'site.sqlite';

/** A SQLite file of the process's own (the local chain's journal): the same driver as the store. */
export type SqliteFile = Database.Database;
export const openSqliteFile = (file: string): SqliteFile => new Database(file);

/** Opens the store (no migration: server/store/migrations.ts does that). */
export function openStore(options: StoreOptions): Store {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize)
    : openSqlite(options);
}

/** `postgres://user:…@host:port/db` for messages: never the password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    // The URL class would percent-encode a mark in the password's place: put it in afterwards.
    if (parsed.password) parsed.password = 'PASSWORD';
    return parsed.toString().replace(':PASSWORD@', ':…@');
  } catch {
    return 'a database URL that is not a URL';
  }
}

function openSqlite(options: StoreOptions): Store {
  // It holds every player's e-mail and the sealed keys of their payment wallets: the folder and
  // the file are the owner's only (SQLite gives its -wal and -shm files the file's mode).
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const file = join(options.dataDir, SQLITE_FILE);
  if (!options.readonly) ownerOnly(file);
  const handle = new Database(
    file,
    options.readonly ? { readonly: true, fileMustExist: true } : {},
  );
  if (!options.readonly) {
    handle.pragma('journal_mode = WAL');
    handle.pragma('foreign_keys = ON');
  }
  handle.pragma('busy_timeout = 5000');
  const db = new Kysely<Tables>({ dialect: new RollbackSafeSqliteDialect(handle) });
  return {
    db,
    engine: 'sqlite',
    location: file,
    version: async () =>
      `sqlite ${String(handle.prepare('SELECT sqlite_version() AS v').pluck().get())}`,
    lockRow: async () => {},
    lockKey: async () => {},
    raw: async <R>(runner: Runner, text: string, params: readonly unknown[] = []) =>
      (await runner.executeQuery<R>(CompiledQuery.raw(text, [...params]))).rows,
    checkpoint: async () => {
      if (!options.readonly) handle.pragma('wal_checkpoint(TRUNCATE)');
    },
    close: () => db.destroy(),
  };
}

/** Creates `file` empty with mode 0600 when missing; takes group and others' access from one that exists. */
function ownerOnly(file: string): void {
  if (!existsSync(file)) {
    closeSync(openSync(file, 'a', 0o600));
    return;
  }
  const { mode, uid } = statSync(file);
  if (mode & 0o077 && uid === process.getuid?.()) chmodSync(file, mode & 0o700);
}

/** How long a new Postgres connection may take. */
const PG_CONNECT_TIMEOUT_MS = 8_000;

/**
 * SQLite rolls a transaction back by itself when a write fails for want of space (SQLITE_FULL,
 * some I/O errors); Kysely's own ROLLBACK then fails with "cannot rollback - no transaction is
 * active" and that error would replace the one that says what happened (the disk is full). The
 * ROLLBACK is skipped when no transaction is open any more.
 */
class RollbackSafeSqliteDialect extends SqliteDialect {
  constructor(private readonly handle: Database.Database) {
    super({ database: handle });
  }
  override createDriver(): Driver {
    const handle = this.handle;
    return new (class extends SqliteDriver {
      /**
       * Every transaction takes the write lock when it begins (BEGIN IMMEDIATE). A deferred one that
       * reads and then writes fails at once with "database is locked" when another process (`npm
       * run backup`, `npm run player`) wrote in between: SQLite cannot wait for it there, so the
       * busy timeout never applies. Taken up front, the lock is waited for like any other write.
       */
      override async beginTransaction(connection: DatabaseConnection): Promise<void> {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      }
      override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
        if (handle.inTransaction) await super.rollbackTransaction(connection);
      }
    })({ database: handle });
  }
}

/** Postgres's BIGINT (instants in ms, counts) read as numbers: every one of ours fits 2^53. */
const BIGINT_OID = 20;
const PG_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === BIGINT_OID
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/** A Postgres connection that gives up connecting after PG_CONNECT_TIMEOUT_MS. */
class TimedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super({
      ...(typeof config === 'string' ? { connectionString: config } : config),
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    });
  }
}

function openPostgres(url: string, poolSize = 10): Store {
  // A database that does not answer fails a connection in 8 s instead of holding a start (or a
  // request) until the operating system gives up on it. The limit is the connection's own: set
  // on the pool it would also fail a request waiting its turn for a busy pool's connection.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: PG_TYPES,
    Client: TimedClient,
  });
  // A connection the server of the database drops is replaced; the error must not end the process.
  pool.on('error', () => {});
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    engine: 'postgres',
    location: describeDatabaseUrl(url),
    version: async () => {
      const { rows } = await sql<{ v: string }>`SHOW server_version`.execute(db);
      return `postgres ${rows[0]?.v.split(' ')[0] ?? 'unknown'}`;
    },
    lockRow: async (trx, table, id) => {
      await sql`SELECT id FROM ${sql.table(table)} WHERE id = ${id} FOR UPDATE`.execute(trx);
    },
    lockKey: async (trx, key) => {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
    },
    raw: async <R>(runner: Runner, text: string, params: readonly unknown[] = []) => {
      let n = 0;
      const numbered = text.replace(/\?/g, () => `$${(n += 1)}`);
      return (await runner.executeQuery<R>(CompiledQuery.raw(numbered, [...params]))).rows;
    },
    checkpoint: async () => {},
    close: () => db.destroy(),
  };
}

/** A unique constraint refused the write (either engine). */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error) || !('code' in error)) return false;
  const code = String(error.code);
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
