import { closeSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from './store/engine';

/**
 * What the privacy page promises: technical logs kept about 90 days, then deleted. JSON request
 * lines go to stdout by default (the platform keeps and expires them); with LOG_DIR the server
 * writes them itself, one file per UTC day (`requests-YYYY-MM-DD.log`, owner-only), and deletes
 * the files older than LOG_RETENTION_DAYS. The development outbox (code e-mails kept in the
 * store) and the sign-in codes' rows follow the same rule.
 */
export const LOG_RETENTION_DAYS = 90;
export const DAY_MS = 86_400_000;
/** A retention pass runs at start, at each new day of the log and at least this often. */
export const RETENTION_PASS_MS = 3_600_000;

const LOG_FILE = /^requests-(\d{4}-\d{2}-\d{2})\.log$/;
const dayOf = (at: number): string => new Date(at).toISOString().slice(0, 10);
/** The file of the UTC day of `at`. */
const logFileName = (at: number): string => `requests-${dayOf(at)}.log`;

export type DailyLog = { write(line: string): void; close(): void };

/**
 * Appends lines to today's file in `dir` (UTC days of `now`); the first line of a new day opens
 * that day's file and calls `onNewDay`.
 */
export function createDailyLog(dir: string, now: () => number, onNewDay: () => void): DailyLog {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let day = '';
  let fd: number | undefined;
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  return {
    write(line) {
      const at = now();
      const today = dayOf(at);
      if (today !== day || fd === undefined) {
        close();
        day = today;
        fd = openSync(join(dir, logFileName(at)), 'a', 0o600);
        onNewDay();
      }
      writeSync(fd, line.endsWith('\n') ? line : `${line}\n`);
    },
    close,
  };
}

/**
 * Deletes the daily files of `dir` older than `days`: the file of day D goes once today is more
 * than `days` days after D (with 90, January 1's file stays through April 1 and is deleted on
 * April 2). Other files are left alone. Returns the names deleted.
 */
export function pruneLogFiles(dir: string, now: number, days: number): string[] {
  const today = Date.parse(`${dayOf(now)}T00:00:00Z`);
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const day = LOG_FILE.exec(name)?.[1];
    if (!day || today - Date.parse(`${day}T00:00:00Z`) <= days * DAY_MS) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/**
 * Deletes the code e-mails the store keeps (the development outbox) and the sign-in codes that
 * expired more than `days` ago: a row of instant t goes once now is past t + days.
 */
export async function pruneStoredMail(store: Store, now: number, days: number): Promise<void> {
  const cutoff = now - days * DAY_MS;
  await store.db.deleteFrom('outbox').where('at', '<', cutoff).execute();
  await store.db.deleteFrom('sign_in_codes').where('expires_at', '<', cutoff).execute();
}
