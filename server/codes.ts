import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { RESEND_SECONDS, SIGN_IN_CODE_LENGTH } from '../contract/spec';
import type { Store } from './store/engine';

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

export type CodeRequest = { ok: true; code: string } | { ok: false; retryAfterSeconds: number };
export type CodeCheck = { ok: true; codeInvite: string | null } | { ok: false; message: string };

export type Codes = {
  /** A new code for `email`, replacing any older one, unless the last was sent < 30 s ago. */
  request(email: string, codeInvite: string | null): Promise<CodeRequest>;
  /**
   * Takes back a code that never reached the player (the e-mail failed): it can no longer be
   * used, and it starts no cooldown, so the player may ask again at once.
   */
  withdraw(email: string): Promise<void>;
  /**
   * Single use: a correct code is consumed; a wrong one costs the caller's network (`ip`,
   * stored only as a keyed hash) one of its tries on this code and one of its strikes on this
   * e-mail.
   */
  verify(email: string, code: string, ip: string): Promise<CodeCheck>;
};

/**
 * One active code per e-mail; codes are stored as keyed hashes only. Each rule is decided by the
 * database: a request is one conditional upsert (two at once send one e-mail), and a check holds
 * the code's row locked while it reads and writes its counts (a code is used once, and no wrong
 * guess is lost).
 */
export function createCodes(store: Store, key: Buffer, now: () => number): Codes {
  const { db } = store;
  const hash = (email: string, code: string) =>
    createHmac('sha256', key).update(`${email}:${code}`).digest();
  const spent = { code_hash: '', expires_at: 0, created_at: 0, tries: 0 };

  return {
    async request(email, codeInvite) {
      const at = now();
      const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
      const row = {
        email,
        code_hash: hash(email, code).toString('hex'),
        code_invite: codeInvite,
        tries: 0,
        created_at: at,
        expires_at: at + CODE_TTL_MS,
      };
      const stored = await db
        .insertInto('one_time_codes')
        .values(row)
        .onConflict((oc) =>
          oc
            .column('email')
            .doUpdateSet({
              code_hash: row.code_hash,
              code_invite: row.code_invite,
              tries: 0,
              created_at: at,
              expires_at: row.expires_at,
            })
            .where('one_time_codes.created_at', '<=', at - RESEND_COOLDOWN_MS),
        )
        .returning('id')
        .executeTakeFirst();
      if (stored) return { ok: true, code };
      const previous = await db
        .selectFrom('one_time_codes')
        .select('created_at')
        .where('email', '=', email)
        .executeTakeFirst();
      const waitMs = RESEND_COOLDOWN_MS - (at - (previous?.created_at ?? at));
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },

    async withdraw(email) {
      await db.updateTable('one_time_codes').set(spent).where('email', '=', email).execute();
    },

    verify: (email, code, ip) =>
      db.transaction().execute(async (trx): Promise<CodeCheck> => {
        const at = now();
        const network = createHmac('sha256', key)
          .update(`network:${ip}`)
          .digest('hex')
          .slice(0, 32);
        const found = await trx
          .selectFrom('one_time_codes')
          .select('id')
          .where('email', '=', email)
          .executeTakeFirst();
        if (found) await store.lockRow(trx, 'one_time_codes', found.id);
        const stored = await trx
          .selectFrom('sign_in_strikes')
          .select(['strikes', 'since', 'code_at', 'code_tries'])
          .where('email', '=', email)
          .where('network', '=', network)
          .executeTakeFirst();
        // The network's count for this e-mail, its window restarted once the hour has passed.
        const strikes =
          stored && at - stored.since < EMAIL_STRIKE_WINDOW_MS
            ? stored
            : { strikes: 0, since: at, code_at: 0, code_tries: 0 };
        if (strikes.strikes >= MAX_EMAIL_STRIKES) {
          const minutes = Math.ceil((strikes.since + EMAIL_STRIKE_WINDOW_MS - at) / 60_000);
          return { ok: false, message: CODE_MESSAGES.tooManyForEmail(Math.max(1, minutes)) };
        }
        const row = found
          ? await trx
              .selectFrom('one_time_codes')
              .select(['code_hash', 'code_invite', 'created_at', 'expires_at'])
              .where('id', '=', found.id)
              .executeTakeFirst()
          : undefined;
        if (!row || row.code_hash === '') return { ok: false, message: CODE_MESSAGES.invalid };
        const consume = () =>
          trx.updateTable('one_time_codes').set(spent).where('email', '=', email).execute();
        if (at >= row.expires_at) {
          await consume();
          return { ok: false, message: CODE_MESSAGES.expired };
        }
        // A fresh code starts at 0 tries: the count belongs to the code it was made on.
        const tries = strikes.code_at === row.created_at ? strikes.code_tries : 0;
        if (tries >= MAX_CODE_TRIES) return { ok: false, message: CODE_MESSAGES.tooManyTries };
        const expected = Buffer.from(row.code_hash, 'hex');
        const given = hash(email, code);
        if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
          await trx
            .deleteFrom('sign_in_strikes')
            .where('since', '<=', at - EMAIL_STRIKE_WINDOW_MS)
            .execute();
          const counts = {
            strikes: strikes.strikes + 1,
            since: strikes.since,
            code_at: row.created_at,
            code_tries: tries + 1,
          };
          await trx
            .insertInto('sign_in_strikes')
            .values({ email, network, ...counts })
            .onConflict((oc) => oc.columns(['email', 'network']).doUpdateSet(counts))
            .execute();
          return { ok: false, message: CODE_MESSAGES.invalid };
        }
        await consume();
        return { ok: true, codeInvite: row.code_invite };
      }),
  };
}
