/**
 * Backups of a data folder while the server runs.
 *
 *   npm run backup -- FILE             copies DATA_DIR into FILE (one SQLite file)
 *   npm run backup -- --restore FILE   restores FILE into an empty DATA_DIR
 *
 * The copy is SQLite's online backup (better-sqlite3's `db.backup`): a consistent snapshot of the
 * live WAL database, taken page by page without stopping the server. The server's secrets (the
 * JWT signing key, the key that seals the payment wallets' keys, the code key) are stored inside
 * the same file (table `backup_secrets`), so one file brings back every account, its sign-in
 * tokens and its payment wallet. Keep it as safely as DATA_DIR itself.
 */
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

/** The files of a data folder besides the database (server/secrets.ts loadSecret names). */
export const SECRET_FILES = ['jwt-secret', 'wallet-key', 'code-key'] as const;
export const DATABASE_FILE = 'site.sqlite';

export type BackupSummary = { file: string; bytes: number; users: number; secrets: number };

/** Copies `dataDir`'s database and secrets into `file` (replaced atomically when it exists). */
export async function backupDataDir(dataDir: string, file: string): Promise<BackupSummary> {
  const source = join(dataDir, DATABASE_FILE);
  if (!existsSync(source)) throw new Error(`No database at ${source} (is DATA_DIR right?)`);
  const target = resolve(file);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const live = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await live.backup(partial);
  } finally {
    live.close();
  }
  // It holds the keys to every payment wallet: readable by its owner only.
  chmodSync(partial, 0o600);
  const copy = new Database(partial);
  let users = 0;
  let secrets = 0;
  try {
    // The copy keeps its own journal mode: one self-contained file, no -wal beside it.
    copy.pragma('journal_mode = DELETE');
    copy.exec('CREATE TABLE backup_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)');
    const put = copy.prepare('INSERT INTO backup_secrets (name, value) VALUES (?, ?)');
    for (const name of SECRET_FILES) {
      const path = join(dataDir, name);
      if (!existsSync(path)) continue;
      put.run(name, readFileSync(path, 'utf8').trim());
      secrets += 1;
    }
    users = copy.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM users').get()?.n ?? 0;
  } finally {
    copy.close();
  }
  renameSync(partial, target);
  const bytes = readFileSync(target).byteLength;
  return { file: target, bytes, users, secrets };
}

/**
 * Restores a backup into `dataDir`, which must hold no database yet (a restore never overwrites
 * live data): the database without its `backup_secrets` table, and each secret as its file.
 */
export function restoreDataDir(file: string, dataDir: string): BackupSummary {
  const source = resolve(file);
  if (!existsSync(source)) throw new Error(`No backup at ${source}`);
  const target = join(dataDir, DATABASE_FILE);
  if (existsSync(target))
    throw new Error(`${target} exists: restore into an empty DATA_DIR (stop the server, move it)`);
  mkdirSync(dataDir, { recursive: true });
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const backup = new Database(source, { readonly: true, fileMustExist: true });
  let secretRows: { name: string; value: string }[];
  try {
    secretRows = backup
      .prepare<[], { name: string; value: string }>('SELECT name, value FROM backup_secrets')
      .all();
  } catch {
    backup.close();
    throw new Error(`${source} is not a backup of this server (no backup_secrets table)`);
  }
  backup.close();
  writeFileSync(partial, readFileSync(source), { mode: 0o600 });
  const db = new Database(partial);
  let users = 0;
  try {
    db.exec('DROP TABLE backup_secrets');
    db.exec('VACUUM');
    users = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM users').get()?.n ?? 0;
  } finally {
    db.close();
  }
  for (const { name, value } of secretRows) {
    if (!(SECRET_FILES as readonly string[]).includes(name)) continue;
    writeFileSync(join(dataDir, name), value, { mode: 0o600 });
  }
  renameSync(partial, target);
  return {
    file: target,
    bytes: readFileSync(target).byteLength,
    users,
    secrets: secretRows.length,
  };
}

async function main(args: string[]): Promise<void> {
  const dataDir = resolve(process.env.DATA_DIR || '.data');
  const restore = args[0] === '--restore';
  const file = restore ? args[1] : args[0];
  if (!file || file.startsWith('--')) {
    console.error('Usage: npm run backup -- FILE | npm run backup -- --restore FILE (DATA_DIR)');
    process.exit(2);
  }
  if (restore) {
    const done = restoreDataDir(file, dataDir);
    console.log(
      `Restored ${done.users} account(s) and ${done.secrets} secret(s) into ${dataDir} from ${resolve(file)}`,
    );
    return;
  }
  const started = Date.now();
  const done = await backupDataDir(dataDir, file);
  console.log(
    `Backed up ${dataDir} to ${done.file}: ${done.users} account(s), ${done.secrets} secret(s), ${(done.bytes / 1024).toFixed(0)} KiB in ${Date.now() - started} ms`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  await main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`backup: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
