/**
 * Backups of the server's store while the server runs.
 *
 *   npm run backup -- FILE             copies the store into FILE
 *   npm run backup -- --restore FILE   restores FILE into an empty store
 *
 * SQLite (DATA_DIR): SQLite's online backup (better-sqlite3's `db.backup`), a consistent snapshot
 * of the live WAL database taken page by page without stopping the server. Postgres
 * (DATABASE_URL): `pg_dump --format=custom`, one consistent snapshot, restored by `pg_restore`
 * into an empty database. Either way the server's secrets (the JWT signing key, the key that
 * seals the payment wallets' keys, the code key and the refresh-token key) live in the store's
 * `server_secrets` table, so one file brings back every account, its sign-in tokens and its
 * payment wallet. Keep it as safely as the database itself.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { describeDatabaseUrl, openStore, SQLITE_FILE } from '../store/engine';
import { openExistingStore } from '../store/index';
import { SECRET_NAMES } from '../store/secrets';

export const DATABASE_FILE = SQLITE_FILE;

export type BackupSummary = { file: string; bytes: number; users: number; secrets: number };
export type BackupTarget = { dataDir: string; databaseUrl?: string | undefined };

/** Accounts and secrets a store holds (what a summary line names). */
async function countsOf(target: BackupTarget): Promise<{ users: number; secrets: number }> {
  const store = await openExistingStore({ ...target, readonly: !target.databaseUrl });
  try {
    const [users] = await store.raw<{ n: number }>(store.db, 'SELECT COUNT(*) AS n FROM users');
    const secrets = await store.raw<{ name: string }>(store.db, 'SELECT name FROM server_secrets');
    return {
      users: Number(users?.n ?? 0),
      secrets: secrets.filter((row) => (SECRET_NAMES as readonly string[]).includes(row.name))
        .length,
    };
  } finally {
    await store.close();
  }
}

/** Copies the store of `target` into `file` (replaced atomically when it exists). */
export async function backupStore(target: BackupTarget, file: string): Promise<BackupSummary> {
  const out = resolve(file);
  mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  rmSync(partial, { force: true });
  if (target.databaseUrl) {
    // Refuses a database this server cannot read before anything is written.
    await openExistingStore(target).then((store) => store.close());
    pgTool('pg_dump', ['--format=custom', '--no-owner', `--file=${partial}`, target.databaseUrl]);
    chmodSync(partial, 0o600);
    renameSync(partial, out);
    const counts = await countsOf(target);
    return { file: out, bytes: readFileSync(out).byteLength, ...counts };
  }
  // Brought to this version's schema first, so the copy holds every secret in its table.
  await openExistingStore(target).then((store) => store.close());
  const source = join(target.dataDir, DATABASE_FILE);
  const live = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await live.backup(partial);
  } finally {
    live.close();
  }
  // It holds the keys to every payment wallet: readable by its owner only.
  chmodSync(partial, 0o600);
  const copy = new Database(partial);
  try {
    // The copy keeps its own journal mode: one self-contained file, no -wal beside it.
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  renameSync(partial, out);
  return { file: out, bytes: readFileSync(out).byteLength, ...sqliteCounts(out) };
}

/** Accounts and secrets of a SQLite file (a copy, or a backup from before the secrets table). */
function sqliteCounts(file: string): { users: number; secrets: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const has = (table: string) =>
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !==
      undefined;
    const count = (query: string) => Number(db.prepare(query).pluck().get() ?? 0);
    const names = `(${SECRET_NAMES.map((name) => `'${name}'`).join(', ')})`;
    return {
      users: has('users') ? count('SELECT COUNT(*) FROM users') : 0,
      secrets:
        (has('server_secrets')
          ? count(`SELECT COUNT(*) FROM server_secrets WHERE name IN ${names}`)
          : 0) +
        (has('backup_secrets')
          ? count(`SELECT COUNT(*) FROM backup_secrets WHERE name IN ${names}`)
          : 0),
    };
  } finally {
    db.close();
  }
}

/**
 * Restores a backup into an empty store (a restore never overwrites live data): on SQLite the
 * copy becomes `DATA_DIR/site.sqlite`; on Postgres `pg_restore` fills the empty database. A
 * backup made before the store held its secrets (a `backup_secrets` table) brings them back as
 * the data folder's files, which the server takes into its store when it starts.
 */
export async function restoreStore(file: string, target: BackupTarget): Promise<BackupSummary> {
  const source = resolve(file);
  if (!existsSync(source)) throw new Error(`No backup at ${source}`);
  if (target.databaseUrl) {
    const store = openStore(target);
    try {
      const tables = await store.raw<{ n: number }>(
        store.db,
        "SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'users'",
      );
      if (Number(tables[0]?.n ?? 0) > 0)
        throw new Error(
          `${describeDatabaseUrl(target.databaseUrl)} already holds a store: restore into an empty database`,
        );
    } finally {
      await store.close();
    }
    pgTool('pg_restore', ['--no-owner', `--dbname=${target.databaseUrl}`, source]);
    const counts = await countsOf(target);
    return {
      file: describeDatabaseUrl(target.databaseUrl),
      bytes: readFileSync(source).byteLength,
      ...counts,
    };
  }
  const out = join(target.dataDir, DATABASE_FILE);
  if (existsSync(out))
    throw new Error(`${out} exists: restore into an empty DATA_DIR (stop the server, move it)`);
  mkdirSync(target.dataDir, { recursive: true, mode: 0o700 });
  const partial = `${out}.partial`;
  rmSync(partial, { force: true });
  const backup = new Database(source, { readonly: true, fileMustExist: true });
  let legacy: { name: string; value: string }[] = [];
  let isStore = false;
  try {
    isStore =
      backup
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'users'")
        .get() !== undefined;
    const hasLegacy =
      backup
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'backup_secrets'")
        .get() !== undefined;
    if (hasLegacy)
      legacy = backup
        .prepare<[], { name: string; value: string }>('SELECT name, value FROM backup_secrets')
        .all();
  } finally {
    backup.close();
  }
  if (!isStore) throw new Error(`${source} is not a backup of this server (no users table)`);
  const counts = sqliteCounts(source);
  writeFileSync(partial, readFileSync(source), { mode: 0o600 });
  if (legacy.length > 0) {
    const db = new Database(partial);
    try {
      db.exec('DROP TABLE backup_secrets');
      db.exec('VACUUM');
    } finally {
      db.close();
    }
    for (const { name, value } of legacy) {
      if (!(SECRET_NAMES as readonly string[]).includes(name)) continue;
      writeFileSync(join(target.dataDir, name), value, { mode: 0o600 });
    }
  }
  renameSync(partial, out);
  return { file: out, bytes: readFileSync(out).byteLength, ...counts };
}

/** Runs a PostgreSQL client tool (pg_dump, pg_restore) found on PATH or beside `initdb`. */
function pgTool(tool: string, args: string[]): void {
  const found = spawnSync(tool, args, { encoding: 'utf8' });
  if (found.error && 'code' in found.error && found.error.code === 'ENOENT')
    throw new Error(
      `${tool} not found: install PostgreSQL's client tools (Debian: apt-get install postgresql-client)`,
    );
  if (found.status !== 0)
    throw new Error(`${tool} failed: ${(found.stderr || found.stdout || '').trim()}`);
}

async function main(args: string[]): Promise<void> {
  const target: BackupTarget = {
    dataDir: resolve(process.env.DATA_DIR || '.data'),
    databaseUrl: process.env.DATABASE_URL || undefined,
  };
  const where = target.databaseUrl ? describeDatabaseUrl(target.databaseUrl) : target.dataDir;
  const restore = args[0] === '--restore';
  const file = restore ? args[1] : args[0];
  if (!file || file.startsWith('--')) {
    console.error(
      'Usage: npm run backup -- FILE | npm run backup -- --restore FILE (DATA_DIR or DATABASE_URL)',
    );
    process.exit(2);
  }
  if (restore) {
    const done = await restoreStore(file, target);
    console.log(
      `Restored ${done.users} account(s) and ${done.secrets} secret(s) into ${where} from ${resolve(file)}`,
    );
    return;
  }
  const started = Date.now();
  const done = await backupStore(target, file);
  console.log(
    `Backed up ${where} to ${done.file}: ${done.users} account(s), ${done.secrets} secret(s), ${(done.bytes / 1024).toFixed(0)} KiB in ${Date.now() - started} ms`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  await main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`backup: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
