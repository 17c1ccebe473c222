import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { RESEND_SECONDS, SIGN_IN_CODE_LENGTH } from '../contract/spec';
import type { Db } from './db';

/** Reliability guide, "One-time codes": 6 CSPRNG digits, 10 minutes, single use, 5 tries, 30 s. */
export const CODE_LENGTH = SIGN_IN_CODE_LENGTH;
export const CODE_TTL_MS = 10 * 60_000;
export const RESEND_COOLDOWN_MS = RESEND_SECONDS * 1000;
export const MAX_CODE_TRIES = 5;
/**
 * Wrong codes one e-mail may collect across all its codes (a resend does not reset them) within
 * EMAIL_STRIKE_WINDOW_MS; then its codes are refused until the window has passed.
 */
export const MAX_EMAIL_STRIKES = 10;
export const EMAIL_STRIKE_WINDOW_MS = 60 * 60_000;

export const CODE_MESSAGES = {
  invalid: 'Invalid code',
  expired: 'Code expired. Please request a new code.',
  tooManyTries: 'Too many attempts. Please request a new code.',
  tooManyForEmail: 'Too many attempts for this e-mail. Please try again in an hour.',
  cooldown: (seconds: number) => `Please wait ${seconds} s before requesting a new code.`,
} as const;

type CodeRow = {
  email: string;
  code_hash: string;
  code_invite: string | null;
  tries: number;
  strikes: number;
  strikes_since: number | null;
  created_at: number;
  expires_at: number;
};

export type CodeRequest = { ok: true; code: string } | { ok: false; retryAfterSeconds: number };
export type CodeCheck = { ok: true; codeInvite: string | null } | { ok: false; message: string };

/** One active code per e-mail; codes are stored as keyed hashes only. */
export function createCodes(db: Db, key: Buffer, now: () => number) {
  const hash = (email: string, code: string) =>
    createHmac('sha256', key).update(`${email}:${code}`).digest();
  const find = db.prepare<[string], CodeRow>('SELECT * FROM one_time_codes WHERE email = ?');
  const upsert = db.prepare(
    `INSERT INTO one_time_codes (email, code_hash, code_invite, tries, created_at, expires_at)
     VALUES (@email, @code_hash, @code_invite, 0, @created_at, @expires_at)
     ON CONFLICT(email) DO UPDATE SET code_hash = excluded.code_hash,
       code_invite = excluded.code_invite, tries = 0, created_at = excluded.created_at,
       expires_at = excluded.expires_at,
       strikes = CASE WHEN strikes_since > @window_start THEN strikes ELSE 0 END,
       strikes_since = CASE WHEN strikes_since > @window_start THEN strikes_since ELSE NULL END`,
  );
  // A used or expired code keeps its row while the e-mail has strikes in the window.
  const remove = db.prepare(
    `UPDATE one_time_codes SET code_hash = '', expires_at = 0, created_at = 0, tries = 0 WHERE email = ?`,
  );
  const addTry = db.prepare(
    `UPDATE one_time_codes SET tries = tries + 1, strikes = strikes + 1,
       strikes_since = COALESCE(strikes_since, ?) WHERE email = ?`,
  );

  return {
    /** A new code for `email`, replacing any older one, unless the last was sent < 30 s ago. */
    request(email: string, codeInvite: string | null): CodeRequest {
      const at = now();
      const previous = find.get(email);
      if (previous && at - previous.created_at < RESEND_COOLDOWN_MS) {
        const waitMs = RESEND_COOLDOWN_MS - (at - previous.created_at);
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
      }
      const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
      upsert.run({
        email,
        code_hash: hash(email, code).toString('hex'),
        code_invite: codeInvite,
        created_at: at,
        expires_at: at + CODE_TTL_MS,
        window_start: at - EMAIL_STRIKE_WINDOW_MS,
      });
      return { ok: true, code };
    },

    /**
     * Takes back a code that never reached the player (the e-mail failed): it can no longer be
     * used, and it starts no cooldown, so the player may ask again at once.
     */
    withdraw(email: string): void {
      remove.run(email);
    },

    /** Single use: a correct code is consumed; a wrong one costs one of 5 tries. */
    verify(email: string, code: string): CodeCheck {
      const row = find.get(email);
      if (!row || row.code_hash === '') return { ok: false, message: CODE_MESSAGES.invalid };
      const at = now();
      if (
        row.strikes >= MAX_EMAIL_STRIKES &&
        row.strikes_since !== null &&
        at - row.strikes_since < EMAIL_STRIKE_WINDOW_MS
      )
        return { ok: false, message: CODE_MESSAGES.tooManyForEmail };
      if (at >= row.expires_at) {
        remove.run(email);
        return { ok: false, message: CODE_MESSAGES.expired };
      }
      if (row.tries >= MAX_CODE_TRIES) return { ok: false, message: CODE_MESSAGES.tooManyTries };
      const expected = Buffer.from(row.code_hash, 'hex');
      const given = hash(email, code);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        addTry.run(at, email);
        return { ok: false, message: CODE_MESSAGES.invalid };
      }
      remove.run(email);
      return { ok: true, codeInvite: row.code_invite };
    },
  };
}
export type Codes = ReturnType<typeof createCodes>;
