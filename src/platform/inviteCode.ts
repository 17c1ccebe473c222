/**
 * Invite codes (§2 routes /r/{code} and /ref/{code}, the home page's `?i=`, §5, §9): a code from a
 * link is sanitised and stored under the `codeInvite` key; when none exists, a random fallback is
 * sent instead. The fallback lives for the page only and is never stored, so `codeInvite` holds
 * nothing but codes that came from a link (the ones the sign-in modal shows).
 */
import { storage as browserStorage, type KeyValueStorage } from './storage';

export const INVITE_CODE_MAX = 30;
export const FALLBACK_INVITE_CODE_LENGTH = 8;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** §5: every character other than letters and digits is removed, the rest cut to 30. */
export function sanitizeInviteCode(raw: string): string {
  return raw.replace(/[^A-Za-z0-9]/g, '').slice(0, INVITE_CODE_MAX);
}

/** Random integers in [0, 2^32) from the platform's CSPRNG. */
function cryptoWords(count: number): Uint32Array {
  return crypto.getRandomValues(new Uint32Array(count));
}

/** §5: a random 8-character code of letters and digits. */
export function fallbackInviteCode(
  words: (count: number) => ArrayLike<number> = cryptoWords,
): string {
  const values = words(FALLBACK_INVITE_CODE_LENGTH);
  let code = '';
  for (let i = 0; i < FALLBACK_INVITE_CODE_LENGTH; i += 1) {
    code += ALPHABET[(values[i] ?? 0) % ALPHABET.length];
  }
  return code;
}

/**
 * Stores the sanitised code when it is non-empty; returns the stored code, or null when the
 * raw value held no letters or digits (then nothing is stored).
 */
export function storeInviteCode(
  raw: string | null | undefined,
  storage: KeyValueStorage = browserStorage,
): string | null {
  const code = sanitizeInviteCode(raw ?? '');
  if (!code) return null;
  storage.set('codeInvite', code);
  return code;
}

export function readInviteCode(storage: KeyValueStorage = browserStorage): string | null {
  const stored = storage.get('codeInvite');
  const code = stored ? sanitizeInviteCode(stored) : '';
  return code || null;
}

/** One fallback per storage for the page's life: every send of this page repeats it. */
const fallbacks = new WeakMap<KeyValueStorage, string>();

/**
 * The code sent with auth/email/init: the stored one (from a link), or this page's fallback,
 * generated at its first use and kept in memory only.
 */
export function ensureInviteCode(
  storage: KeyValueStorage = browserStorage,
  words?: (count: number) => ArrayLike<number>,
): string {
  const stored = readInviteCode(storage);
  if (stored) return stored;
  let code = fallbacks.get(storage);
  if (!code) {
    code = fallbackInviteCode(words);
    fallbacks.set(storage, code);
  }
  return code;
}

/** The home page's `?i=` query param (a full `location.search` string). */
export function storeInviteCodeFromSearch(
  search: string,
  storage: KeyValueStorage = browserStorage,
): string | null {
  return storeInviteCode(new URLSearchParams(search).get('i'), storage);
}
