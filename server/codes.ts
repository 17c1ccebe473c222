import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { RESEND_SECONDS, SIGN_IN_CODE_LENGTH } from '../contract/spec';
import type { Db } from './db';

/** Reliability guide, "One-time codes": 6 CSPRNG digits, 10 minutes, single use, 5 tries, 30 s. */
export const CODE_LENGTH = SIGN_IN_CODE_LENGTH;
export const CODE_TTL_MS = 10 * 60_000;
export const RESEND_COOLDOWN_MS = RESEND_SECONDS * 1000;
/**
 * Guessing is throttled per network (a keyed hash of the IP), never locked per address, so a
 * stranger cannot keep a player out: wrong codes count per code and network (MAX_CODE_TRIES,
 * then that code is refused from that network and a fresh one starts at 0) and per e-mail and
 * network (MAX_EMAIL_STRIKES within EMAIL_STRIKE_WINDOW_MS, then that network's attempts for the
 * e-mail are refused unread until the window has passed; a resend changes nothing). Another
 * network, the player's own, signs in as usual.
 */
export const MAX_CODE_TRIES = 5;
export const MAX_EMAIL_STRIKES = 10;
export const EMAIL_STRIKE_WINDOW_MS = 60 * 60_000;

export const CODE_MESSAGES = {
  invalid: 'Invalid code',
  expired: 'Code expired. Please request a new code.',
  tooManyTries: 'Too many attempts. Please request a new code.',
  tooManyForEmail: (minutes: number) =>
    `Too many attempts for this e-mail from your network. Please try again in ${minutes} min.`,
  cooldown: (seconds: number) => `Please wait ${seconds} s before requesting a new code.`,
} as const;

type CodeRow = {
  email: string;
  code_hash: string;
  code_invite: string | null;
  created_at: number;
  expires_at: number;
};

type StrikeRow = { strikes: number; since: number; code_at: number; code_tries: number };

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
       expires_at = excluded.expires_at`,
  );
  const remove = db.prepare(
    `UPDATE one_time_codes SET code_hash = '', expires_at = 0, created_at = 0, tries = 0 WHERE email = ?`,
  );
  const findStrikes = db.prepare<[string, string], StrikeRow>(
    'SELECT strikes, since, code_at, code_tries FROM sign_in_strikes WHERE email = ? AND network = ?',
  );
  const saveStrikes = db.prepare(
    `INSERT INTO sign_in_strikes (email, network, strikes, since, code_at, code_tries)
     VALUES (@email, @network, @strikes, @since, @code_at, @code_tries)
     ON CONFLICT(email, network) DO UPDATE SET strikes = excluded.strikes, since = excluded.since,
       code_at = excluded.code_at, code_tries = excluded.code_tries`,
  );
  const forgetOld = db.prepare('DELETE FROM sign_in_strikes WHERE since <= ?');
  /** The network's count for this e-mail, its window restarted once the hour has passed. */
  const strikesOf = (email: string, network: string, at: number): StrikeRow => {
    const row = findStrikes.get(email, network);
    return row && at - row.since < EMAIL_STRIKE_WINDOW_MS
      ? row
      : { strikes: 0, since: at, code_at: 0, code_tries: 0 };
  };

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

    /**
     * Single use: a correct code is consumed; a wrong one costs the caller's network (`ip`,
     * stored only as a keyed hash) one of its tries on this code and one of its strikes on this
     * e-mail.
     */
    verify(email: string, code: string, ip: string): CodeCheck {
      const at = now();
      const network = createHmac('sha256', key).update(`network:${ip}`).digest('hex').slice(0, 32);
      const strikes = strikesOf(email, network, at);
      if (strikes.strikes >= MAX_EMAIL_STRIKES) {
        const minutes = Math.ceil((strikes.since + EMAIL_STRIKE_WINDOW_MS - at) / 60_000);
        return { ok: false, message: CODE_MESSAGES.tooManyForEmail(Math.max(1, minutes)) };
      }
      const row = find.get(email);
      if (!row || row.code_hash === '') return { ok: false, message: CODE_MESSAGES.invalid };
      if (at >= row.expires_at) {
        remove.run(email);
        return { ok: false, message: CODE_MESSAGES.expired };
      }
      // A fresh code starts at 0 tries: the count belongs to the code it was made on.
      const tries = strikes.code_at === row.created_at ? strikes.code_tries : 0;
      if (tries >= MAX_CODE_TRIES) return { ok: false, message: CODE_MESSAGES.tooManyTries };
      const expected = Buffer.from(row.code_hash, 'hex');
      const given = hash(email, code);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        forgetOld.run(at - EMAIL_STRIKE_WINDOW_MS);
        saveStrikes.run({
          email,
          network,
          strikes: strikes.strikes + 1,
          since: strikes.since,
          code_at: row.created_at,
          code_tries: tries + 1,
        });
        return { ok: false, message: CODE_MESSAGES.invalid };
      }
      remove.run(email);
      return { ok: true, codeInvite: row.code_invite };
    },
  };
}
export type Codes = ReturnType<typeof createCodes>;
