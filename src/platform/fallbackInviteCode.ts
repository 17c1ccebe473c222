/**
 * The random invite code (§5, §9) sent when no code from a link is stored. A module of its own,
 * loaded with the first code request: visitors who never sign in never download it.
 */
import type { KeyValueStorage } from './storage';
import { readInviteCode } from './inviteCode';

export const FALLBACK_INVITE_CODE_LENGTH = 8;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

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

/** One fallback per storage for the page's life: every send of this page repeats it. */
const fallbacks = new WeakMap<KeyValueStorage, string>();

/**
 * The code sent with auth/email/init: the stored one (from a link), or this page's fallback,
 * generated at its first use and kept in memory only.
 */
export function ensureInviteCode(
  storage: KeyValueStorage,
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
