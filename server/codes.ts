import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { RESEND_SECONDS, SIGN_IN_CODE_LENGTH } from '../contract/spec';
import type { Store } from './store/engine';
import { sha256 } from './secrets';

/** Reliability guide, "One-time codes": 6 CSPRNG digits, 10 minutes, single use, 30 s. */
export const CODE_TTL_MS = 10 * 60_000;
export const RESEND_COOLDOWN_MS = RESEND_SECONDS * 1000;
/**
 * Codes a stranger cannot take away: a request never takes back a code already mailed (an
 * address holds up to MAX_LIVE_CODES live codes, each until it expires or one is used), and the
 * 30 s between requests counts per address and network (a code used or taken back ends its
 * wait), so a stranger asking for the player's address spends none of the player's own requests.
 */
const MAX_LIVE_CODES = 5;
/**
 * Guessing is throttled, never a lockout a stranger can cause. A network is an IPv4 /24 or an
 * IPv6 /64 (a keyed hash of it, never stored plainly). Wrong codes count per network and
 * address: MAX_CODE_TRIES against the newest code (then a new code is needed; a fresh code starts
 * at 0) and MAX_EMAIL_STRIKES within EMAIL_STRIKE_WINDOW_MS (then that network's attempts for
 * the address are refused unread until the window has passed). All networks together get
 * MAX_ADDRESS_TRIES against the newest code: past it, guesses are refused unread until a fresh
 * code is mailed (which the owner asks for from their own network; it starts its own budget).
 */
export const MAX_CODE_TRIES = 5;
export const MAX_EMAIL_STRIKES = 10;
export const EMAIL_STRIKE_WINDOW_MS = 60 * 60_000;
export const MAX_ADDRESS_TRIES = 20;

export const CODE_MESSAGES = {
  invalid: 'Invalid code',
  expired: 'Code expired. Please request a new code.',
  tooManyTries: 'Too many attempts. Please request a new code.',
  tooManyForAddress: 'Too many attempts for this e-mail. Please request a new code.',
  tooManyForEmail: (minutes: number) =>
    `Too many attempts for this e-mail from your network. Please try again in ${minutes} min.`,
  cooldown: (seconds: number) => `Please wait ${seconds} s before requesting a new code.`,
  enough: (minutes: number) =>
    `Several codes were sent to this address in the last minutes: please use the newest one in your inbox, or ask again in ${minutes} min.`,
} as const;

type CodeRequest =
  | { ok: true; code: string; codeId: number }
  | { ok: false; retryAfterSeconds: number; message: string };
type CodeCheck = { ok: true; codeInvite: string | null } | { ok: false; message: string };

export type Codes = {
  /**
   * A new code for `email` (the earlier ones stay valid), unless this network asked for this
   * address less than 30 s ago or the address already holds MAX_LIVE_CODES live codes.
   * `session` is the visitor session's token when the request carried one.
   */
  request(
    email: string,
    codeInvite: string | null,
    ip: string,
    session?: string,
  ): Promise<CodeRequest>;
  /**
   * Takes back a code that never reached the player (the e-mail failed): it can no longer be
   * used, and it starts no cooldown, so the player may ask again at once.
   */
  withdraw(codeId: number): Promise<void>;
  /**
   * Single use: a correct code (any live one of the address) is consumed; a wrong one costs the
   * caller's network one try. The invite code that comes with it is the one the verifying
   * session asked with (§5: the code stored on the player's device), whoever else asked since.
   */
  verify(email: string, code: string, ip: string, session?: string): Promise<CodeCheck>;
};

/**
 * The network of an address: IPv4 /24, IPv6 /64 (an IPv4-mapped IPv6 address is IPv4). A host
 * cannot spread its guesses over the addresses of its own network.
 */
export function networkOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const v4 = mapped ? mapped[1]! : ip;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Sign-in codes, stored as keyed hashes only. Every decision about one address is taken under
 * the store's lock of that address (store.lockKey), so requests and checks arriving at once on
 * any instance decide one after the other: two requests send one e-mail, a code is used once,
 * and no wrong guess is lost.
 */
export function createCodes(store: Store, key: Buffer, now: () => number): Codes {
  const { db } = store;
  const hash = (email: string, code: string) =>
    createHmac('sha256', key).update(`${email}:${code}`).digest();
  const networkHash = (ip: string) =>
    createHmac('sha256', key)
      .update(`network:${networkOf(ip)}`)
      .digest('hex')
      .slice(0, 32);
  const lock = `sign-in:`;

  return {
    request: (email, codeInvite, ip, session) =>
      db.transaction().execute(async (trx): Promise<CodeRequest> => {
        await store.lockKey(trx, lock + email);
        const at = now();
        const network = networkHash(ip);
        const last = await trx
          .selectFrom('sign_in_codes')
          .select('created_at')
          .where('email', '=', email)
          .where('network', '=', network)
          .where('used_at', 'is', null)
          .where('created_at', '>', at - RESEND_COOLDOWN_MS)
          .orderBy('created_at', 'desc')
          .executeTakeFirst();
        if (last) {
          const seconds = Math.max(
            1,
            Math.ceil((RESEND_COOLDOWN_MS - (at - last.created_at)) / 1000),
          );
          return {
            ok: false,
            retryAfterSeconds: seconds,
            message: CODE_MESSAGES.cooldown(seconds),
          };
        }
        const live = await trx
          .selectFrom('sign_in_codes')
          .select('expires_at')
          .where('email', '=', email)
          .where('used_at', 'is', null)
          .where('expires_at', '>', at)
          .orderBy('expires_at', 'asc')
          .execute();
        if (live.length >= MAX_LIVE_CODES) {
          const seconds = Math.max(1, Math.ceil((live[0]!.expires_at - at) / 1000));
          return {
            ok: false,
            retryAfterSeconds: seconds,
            message: CODE_MESSAGES.enough(Math.ceil(seconds / 60)),
          };
        }
        // The address's rows a day past their expiry are forgotten (found by its index).
        await trx
          .deleteFrom('sign_in_codes')
          .where('email', '=', email)
          .where('expires_at', '<', at - 86_400_000)
          .execute();
        const code = String(randomInt(0, 10 ** SIGN_IN_CODE_LENGTH)).padStart(
          SIGN_IN_CODE_LENGTH,
          '0',
        );
        const row = await trx
          .insertInto('sign_in_codes')
          .values({
            email,
            code_hash: hash(email, code).toString('hex'),
            code_invite: codeInvite,
            session_hash: session ? sha256(session) : null,
            network,
            created_at: at,
            expires_at: at + CODE_TTL_MS,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { ok: true, code, codeId: row.id };
      }),

    async withdraw(codeId) {
      // Used: no code, and no cooldown for the network that asked (only unused codes count).
      await db
        .updateTable('sign_in_codes')
        .set({ used_at: now() })
        .where('id', '=', codeId)
        .execute();
    },

    verify: (email, code, ip, session) =>
      db.transaction().execute(async (trx): Promise<CodeCheck> => {
        await store.lockKey(trx, lock + email);
        const at = now();
        const network = networkHash(ip);
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
        const codes = await trx
          .selectFrom('sign_in_codes')
          .select(['id', 'code_hash', 'code_invite', 'created_at', 'expires_at'])
          .where('email', '=', email)
          .where('used_at', 'is', null)
          .orderBy('created_at', 'desc')
          .execute();
        const live = codes.filter((c) => c.expires_at > at);
        if (live.length === 0)
          return {
            ok: false,
            message: codes.length > 0 ? CODE_MESSAGES.expired : CODE_MESSAGES.invalid,
          };
        const newest = live[0]!;
        // A fresh code starts at 0 tries: the counts belong to the newest code.
        const tries = strikes.code_at === newest.created_at ? strikes.code_tries : 0;
        if (tries >= MAX_CODE_TRIES) return { ok: false, message: CODE_MESSAGES.tooManyTries };
        const everywhere = await trx
          .selectFrom('sign_in_strikes')
          .select((eb) => eb.fn.sum<number | string | null>('code_tries').as('n'))
          .where('email', '=', email)
          .where('code_at', '=', newest.created_at)
          .where('since', '>', at - EMAIL_STRIKE_WINDOW_MS)
          .executeTakeFirst();
        if (Number(everywhere?.n ?? 0) >= MAX_ADDRESS_TRIES)
          return { ok: false, message: CODE_MESSAGES.tooManyForAddress };
        const given = hash(email, code);
        const match = live.find((c) => {
          const expected = Buffer.from(c.code_hash, 'hex');
          return expected.length === given.length && timingSafeEqual(expected, given);
        });
        if (!match) {
          await trx
            .deleteFrom('sign_in_strikes')
            .where('since', '<=', at - EMAIL_STRIKE_WINDOW_MS)
            .execute();
          const counts = {
            strikes: strikes.strikes + 1,
            since: strikes.since,
            code_at: newest.created_at,
            code_tries: tries + 1,
          };
          await trx
            .insertInto('sign_in_strikes')
            .values({ email, network, ...counts })
            .onConflict((oc) => oc.columns(['email', 'network']).doUpdateSet(counts))
            .execute();
          return { ok: false, message: CODE_MESSAGES.invalid };
        }
        await trx
          .updateTable('sign_in_codes')
          .set({ used_at: at })
          .where('id', '=', match.id)
          .execute();
        // The invite the player's own session asked with decides, whoever asked since.
        const own = session
          ? await trx
              .selectFrom('sign_in_codes')
              .select('code_invite')
              .where('email', '=', email)
              .where('session_hash', '=', sha256(session))
              .orderBy('created_at', 'asc')
              .executeTakeFirst()
          : undefined;
        return { ok: true, codeInvite: own ? own.code_invite : match.code_invite };
      }),
  };
}
