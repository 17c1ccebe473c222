import { HttpError } from './http';

/**
 * A store or a data folder that cannot take writes (a full disk, a read-only one) is an outage
 * of the service, not a fault of the request: the answer is 503 with a message a player can act
 * on (try again later) and `Retry-After`, never a bare 500. What was written before stays
 * (SQLite and Postgres roll the refused transaction back whole); reads go on being answered.
 */
export const STORAGE_UNAVAILABLE_MESSAGE =
  'The service is temporarily unavailable. Please try again in a few minutes.';
const STORAGE_RETRY_AFTER_SECONDS = 60;

/**
 * SQLite's "database or disk is full", its read-only and I/O errors, Postgres's disk_full
 * (53100), out of memory (53200), read-only transaction (25006), and the file system's ENOSPC,
 * EDQUOT and EROFS.
 */
export function isStorageUnavailable(error: unknown): boolean {
  if (!(error instanceof Error) || !('code' in error)) return false;
  const code = String(error.code);
  return (
    /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN)/.test(code) ||
    ['53100', '53200', '25006', 'ENOSPC', 'EDQUOT', 'EROFS'].includes(code)
  );
}

export const storageUnavailable = (): HttpError =>
  new HttpError(503, STORAGE_UNAVAILABLE_MESSAGE, {
    'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS),
  });
