import { domainToASCII } from 'node:url';
import { randomBytes, randomInt } from 'node:crypto';
import type { UserData } from '../contract/api';
import type { Selectable } from 'kysely';
import { isUniqueViolation, type Runner, type Store } from './store/engine';
import type { UsersTable } from './store/schema';
import { sanitizeInviteCode } from '../contract/inviteCode';
import { lamportsToSol } from '../contract/lamports';
import { seal, unseal } from './secrets';
import { addressOfSecretKey, newSecretKey } from './chain/keys';

/** One account as the store holds it (server/store/schema.ts, UsersTable). */
export type UserRow = Selectable<UsersTable>;

type ReferralCounts = { clicks: number; registered: number; confirmed: number };

/** What one settlement changed (events are told after it commits). */
type Settlement = {
  codesIssued: number;
  /** The buyer's access was granted by this settlement (false if they had it through friends). */
  accessGranted: boolean;
  inviterId: number | null;
  /** This ticket was the inviter's FRIENDS_FOR_ACCESS-th friend's, and granted them access. */
  inviterGranted: boolean;
};

const INVITE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const INVITE_CODE_LENGTH = 8;

export function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i += 1)
    code += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
  return code;
}

/** Trimmed, lower-cased; one account per address whatever the case typed. */
/** One counted click per visitor and invite code within this window. */
export const CLICK_WINDOW_MS = 10 * 60_000;

export const normalizeEmail = (email: string): string =>
  email.normalize('NFC').trim().toLowerCase();

/** Characters an address cannot hold: list separators, quotes, brackets, a second @. */
const EMAIL_PART = String.raw`[^\s@,;:<>"'()\[\]\\]+`;
const EMAIL_SHAPE = new RegExp(`^${EMAIL_PART}@${EMAIL_PART}\\.${EMAIL_PART}$`, 'u');
/** The longest address accepted (RFC 5321's path limit). */
const MAX_EMAIL_LENGTH = 254;

/**
 * §5's e-mail rule (non-space text, an @, text, a dot, text), held to one address: no control or
 * invisible format characters (NUL, zero-width space: `a@b.co\u200b` is not a second account),
 * no list separators (`a@b.co,c@d.co`), quotes or brackets, at most 254 characters.
 */
export const isValidEmail = (email: string): boolean =>
  email.length <= MAX_EMAIL_LENGTH && EMAIL_SHAPE.test(email) && !/[\p{Cc}\p{Cf}]/u.test(email);

/**
 * Providers that deliver `name+tag@` to the mailbox of `name@` (sub-addressing), mapped to the
 * domain their accounts are kept under; Gmail also ignores dots in the name.
 */
const SUBADDRESSING_DOMAINS: Readonly<Record<string, string>> = {
  'gmail.com': 'gmail.com',
  'googlemail.com': 'gmail.com',
  'outlook.com': 'outlook.com',
  'hotmail.com': 'hotmail.com',
  'live.com': 'live.com',
  'icloud.com': 'icloud.com',
  'me.com': 'me.com',
  'mac.com': 'mac.com',
  'proton.me': 'proton.me',
  'protonmail.com': 'protonmail.com',
  'pm.me': 'pm.me',
  'fastmail.com': 'fastmail.com',
};
const DOTLESS_DOMAINS = new Set(['gmail.com']);

/**
 * The one form of a mailbox, for an address already normalized and valid (isValidEmail): the
 * domain in ASCII (an IDN in Unicode and in punycode are one domain), without a trailing dot;
 * at the providers of SUBADDRESSING_DOMAINS without the `+tag` (and Gmail's dots), since those
 * reach the same mailbox. Elsewhere `+tag` stays part of the address: a server may deliver it
 * to someone else. The code e-mail goes to this form. Null when the domain is not a valid name.
 */
export function canonicalEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  let local = email.slice(0, at);
  const domain = domainToASCII(email.slice(at + 1).replace(/\.+$/, '')).toLowerCase();
  if (domain === '') return null;
  const provider = SUBADDRESSING_DOMAINS[domain];
  if (provider) {
    local = local.replace(/\+.*$/s, '');
    if (DOTLESS_DOMAINS.has(provider)) local = local.replace(/\./g, '');
    if (local === '') return null;
  }
  const canonical = `${local}@${provider ?? domain}`;
  return isValidEmail(canonical) ? canonical : null;
}

/** The user store. Payment code uses the balance, access and ticket helpers. */
export type Users = {
  findById(id: number): Promise<UserRow | undefined>;
  findByEmail(email: string): Promise<UserRow | undefined>;
  /** Invite codes are stored upper-case; lookups ignore case. */
  findByInviteCode(code: string): Promise<UserRow | undefined>;
  findByWalletId(walletId: string): Promise<UserRow | undefined>;
  findByWalletAddress(address: string): Promise<UserRow | undefined>;
  /**
   * The account of `email`, created with its own invite code and payment wallet (an ed25519
   * Solana keypair) when there is none; `created` tells which. Two first sign-ins of one address
   * at once make one account (the e-mail's unique index decides).
   */
  findOrCreate(
    email: string,
    inviterId: number | null,
  ): Promise<{ user: UserRow; created: boolean }>;
  referrals(userId: number): Promise<ReferralCounts>;
  /** The contract's user_data shape (userDataSchema). */
  toUserData(user: UserRow): Promise<UserData>;
  /** The payment wallet's 64-byte secret key (for sweeping funds from the local chain). */
  paymentSecretKey(userId: number): Promise<Uint8Array>;
  /** Caches the chain balance of the payment wallet (shown as user_payment_wallet_balance). */
  setPaymentBalance(userId: number, lamports: bigint): Promise<void>;
  /**
   * Settles a paid ticket in one transaction, idempotent by the user's ticket: marks it paid
   * (with the lamports the chain showed and its tier), issues `codes` invitation codes (the
   * Early Bird's extra; none when the player already holds some), grants access, and grants
   * the inviter access when this makes `friendsForAccess` friends with tickets. A crash at
   * any point leaves all of it or none of it. Null when the ticket was already settled.
   */
  settleTicket(
    userId: number,
    lamports: bigint,
    tier: string,
    codes: number,
    friendsForAccess: number,
  ): Promise<Settlement | null>;
  /**
   * Finishes settlements an older version left half-done (it wrote them in three steps): a
   * ticket paid without access, a ticket without the codes its tier gives, an inviter whose
   * friends bought enough tickets but who has no access. Returns how many accounts it repaired.
   */
  repairSettlements(
    codesFor: (tier: string | null) => number,
    friendsForAccess: number,
  ): Promise<number>;
  /** The invitation codes `userId` holds, oldest first (status 0: not used yet). */
  invitationCodes(userId: number): Promise<{ code_text: string; code_status: number }[]>;
  setTelegramLink(userId: number, link: string | null): Promise<void>;
  /**
   * Names `inviterId` as the inviter of `userId` when the player has none yet; true when it was
   * set by this call (a second call, or one racing it, changes nothing).
   */
  setInviter(userId: number, inviterId: number): Promise<boolean>;
  /**
   * Counts a visit through an invite link; returns the owner's id, or null for unknown codes
   * and for a repeat visit: one click per visitor (a keyed hash of the address) per code per
   * CLICK_WINDOW_MS, so reloading a link does not inflate the count.
   */
  recordClick(rawCode: string, visitor: string): Promise<number | null>;
};

/**
 * Every rule that checks and then writes holds a lock for its decision (store.lockRow: the
 * buyer's and the inviter's rows while a ticket settles, the owner's row while a click is
 * counted) or is one statement guarded by a unique index (an account per e-mail, a holder's
 * codes numbered 1..N), so two requests at once on Postgres decide as one after the other.
 */
export function createUsers(store: Store, walletKey: Buffer, now: () => number): Users {
  const { db } = store;
  const one = (
    runner: Runner,
    column: 'id' | 'email' | 'invite_code' | 'payment_wallet_id' | 'payment_wallet_address',
    value: string | number,
  ) =>
    runner.selectFrom('users').selectAll().where(column, '=', value).executeTakeFirst() as Promise<
      UserRow | undefined
    >;
  const count = async (query: Promise<{ n: number | string | bigint } | undefined>) =>
    Number((await query)?.n ?? 0);
  const confirmedFriends = (runner: Runner, inviterId: number) =>
    count(
      runner
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('inviter_id', '=', inviterId)
        .where('ticket_paid_at', 'is not', null)
        .executeTakeFirst(),
    );
  const grant = async (runner: Runner, userId: number, via: string): Promise<boolean> => {
    const result = await runner
      .updateTable('users')
      .set({ user_access: 1, access_via: via })
      .where('id', '=', userId)
      .where('user_access', '<>', 1)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  };
  /**
   * `count` single-use codes for `userId`, numbered 1..count: a holder of codes gets none more,
   * and a second issue at once adds nothing (the unique (owner_id, seq) refuses it).
   */
  const issueCodes = async (runner: Runner, userId: number, total: number): Promise<number> => {
    if (total <= 0) return 0;
    const held = await count(
      runner
        .selectFrom('invitation_codes')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('owner_id', '=', userId)
        .executeTakeFirst(),
    );
    if (held > 0) return 0;
    const at = now();
    let issued = 0;
    for (let seq = 1; seq <= total;) {
      const batch = [];
      for (let i = 0; i < 200 && seq <= total; i += 1, seq += 1)
        batch.push({ owner_id: userId, code: newInviteCode(), created_at: at, seq });
      const result = await runner
        .insertInto('invitation_codes')
        .values(batch)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      issued += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    // A random code that met an existing one was skipped: its numbers are filled again.
    for (let attempt = 0; issued < total && attempt < 20; attempt += 1) {
      const taken = new Set(
        (
          await runner
            .selectFrom('invitation_codes')
            .select('seq')
            .where('owner_id', '=', userId)
            .execute()
        ).map((row) => row.seq),
      );
      for (let seq = 1; seq <= total; seq += 1) {
        if (taken.has(seq)) continue;
        const result = await runner
          .insertInto('invitation_codes')
          .values({ owner_id: userId, code: newInviteCode(), created_at: at, seq })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        issued += Number(result.numInsertedOrUpdatedRows ?? 0n);
      }
    }
    return issued;
  };

  const referrals = async (userId: number): Promise<ReferralCounts> => ({
    clicks: await count(
      db
        .selectFrom('invite_clicks')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('inviter_id', '=', userId)
        .executeTakeFirst(),
    ),
    registered: await count(
      db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('inviter_id', '=', userId)
        .executeTakeFirst(),
    ),
    confirmed: await confirmedFriends(db, userId),
  });

  return {
    findById: (id) => one(db, 'id', id),
    findByEmail: (email) => one(db, 'email', normalizeEmail(email)),
    findByInviteCode: (code) => one(db, 'invite_code', code.toUpperCase()),
    findByWalletId: (walletId) => one(db, 'payment_wallet_id', walletId),
    findByWalletAddress: (address) => one(db, 'payment_wallet_address', address),

    async findOrCreate(rawEmail, inviterId) {
      const email = normalizeEmail(rawEmail);
      const existing = await one(db, 'email', email);
      if (existing) return { user: existing, created: false };
      const secretKey = newSecretKey();
      for (let attempt = 0; ; attempt += 1) {
        try {
          const inserted = await db
            .insertInto('users')
            .values({
              email,
              invite_code: newInviteCode(),
              inviter_id: inviterId,
              payment_wallet_id: randomBytes(12).toString('hex'),
              payment_wallet_address: addressOfSecretKey(secretKey),
              payment_wallet_secret: seal(walletKey, secretKey),
              created_at: now(),
            })
            .onConflict((oc) => oc.column('email').doNothing())
            .returningAll()
            .executeTakeFirst();
          if (inserted) return { user: inserted as UserRow, created: true };
          const winner = await one(db, 'email', email);
          if (winner) return { user: winner, created: false };
        } catch (error) {
          // Another unique column met a value already taken (a random invite code): try again.
          if (!isUniqueViolation(error) || attempt > 20) throw error;
        }
      }
    },

    referrals,

    async toUserData(user) {
      const counts = await referrals(user.id);
      const data: UserData = {
        user_email: user.email,
        user_lvl: user.user_lvl,
        user_access: user.user_access,
        user_invite_code: user.invite_code,
        user_payment_wallet: user.payment_wallet_address,
        user_payment_wallet_balance: lamportsToSol(BigInt(user.payment_balance_lamports)),
        user_payment_wallet_data: { wallet_id: user.payment_wallet_id },
        user_ref_registered: counts.registered,
        user_ref_confirmed: counts.confirmed,
        user_data: { referral: counts },
      };
      if (user.user_access === 1 && user.access_via) data.user_access_via = user.access_via;
      if (user.telegram_link) data.user_telegram_link = user.telegram_link;
      if (user.ticket_tier) data.user_ticket_tier = user.ticket_tier;
      return data;
    },

    async paymentSecretKey(userId) {
      const user = await one(db, 'id', userId);
      if (!user) throw new Error(`No user ${userId}`);
      return unseal(walletKey, user.payment_wallet_secret);
    },

    async setPaymentBalance(userId, lamports) {
      await db
        .updateTable('users')
        .set({ payment_balance_lamports: lamports.toString() })
        .where('id', '=', userId)
        .execute();
    },

    settleTicket: (userId, lamports, tier, codes, friendsForAccess) =>
      db.transaction().execute(async (trx): Promise<Settlement | null> => {
        const buyer = await one(trx, 'id', userId);
        if (!buyer) return null;
        const inviterId = buyer.inviter_id;
        // The inviter's row first, then the buyer's: two friends settling at once count each
        // other's tickets in turn, and every settlement takes its locks in the same order.
        if (inviterId !== null) await store.lockRow(trx, 'users', inviterId);
        await store.lockRow(trx, 'users', userId);
        const paid = await trx
          .updateTable('users')
          .set({
            ticket_paid_at: now(),
            ticket_paid_lamports: lamports.toString(),
            ticket_tier: tier,
          })
          .where('id', '=', userId)
          .where('ticket_paid_at', 'is', null)
          .executeTakeFirst();
        if (paid.numUpdatedRows === 0n) return null;
        const codesIssued = await issueCodes(trx, userId, codes);
        const accessGranted = await grant(trx, userId, 'ticket');
        const inviterGranted =
          inviterId !== null &&
          (await confirmedFriends(trx, inviterId)) >= friendsForAccess &&
          (await grant(trx, inviterId, 'invites'));
        return { codesIssued, accessGranted, inviterId, inviterGranted };
      }),

    repairSettlements: (codesFor, friendsForAccess) =>
      db.transaction().execute(async (trx) => {
        // Instances starting together repair in turn: the second finds nothing left to do.
        await store.lockKey(trx, 'settlement-repair');
        const repaired = new Set<number>();
        const paid = await store.raw<{
          id: number;
          ticket_tier: string | null;
          user_access: number;
          held: number | string;
        }>(
          trx,
          `SELECT u.id, u.ticket_tier, u.user_access,
             (SELECT COUNT(*) FROM invitation_codes c WHERE c.owner_id = u.id) AS held
           FROM users u WHERE u.ticket_paid_at IS NOT NULL`,
        );
        for (const row of paid) {
          await store.lockRow(trx, 'users', row.id);
          if (row.user_access !== 1 && (await grant(trx, row.id, 'ticket'))) repaired.add(row.id);
          if (
            Number(row.held) === 0 &&
            (await issueCodes(trx, row.id, codesFor(row.ticket_tier))) > 0
          )
            repaired.add(row.id);
        }
        const inviters = await store.raw<{ id: number }>(
          trx,
          `SELECT u.id FROM users u WHERE u.user_access <> 1 AND
             (SELECT COUNT(*) FROM users f WHERE f.inviter_id = u.id
                AND f.ticket_paid_at IS NOT NULL) >= ?`,
          [friendsForAccess],
        );
        for (const { id } of inviters) if (await grant(trx, id, 'invites')) repaired.add(id);
        return repaired.size;
      }),

    invitationCodes: (userId) =>
      db
        .selectFrom('invitation_codes')
        .select(['code as code_text', 'status as code_status'])
        .where('owner_id', '=', userId)
        .orderBy('id')
        .execute(),

    async setInviter(userId, inviterId) {
      const result = await db
        .updateTable('users')
        .set({ inviter_id: inviterId })
        .where('id', '=', userId)
        .where('inviter_id', 'is', null)
        .where('id', '<>', inviterId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async setTelegramLink(userId, link) {
      await db.updateTable('users').set({ telegram_link: link }).where('id', '=', userId).execute();
    },

    async recordClick(rawCode, visitor) {
      const code = sanitizeInviteCode(rawCode).toUpperCase();
      if (!code) return null;
      const owner = await one(db, 'invite_code', code);
      if (!owner) return null;
      return db.transaction().execute(async (trx) => {
        // One visitor's clicks on one code are counted in turn (the owner's row is held).
        await store.lockRow(trx, 'users', owner.id);
        const at = now();
        const recent = await trx
          .selectFrom('invite_clicks')
          .select('id')
          .where('code', '=', code)
          .where('visitor', '=', visitor)
          .where('at', '>', at - CLICK_WINDOW_MS)
          .limit(1)
          .executeTakeFirst();
        if (recent) return null;
        await trx
          .insertInto('invite_clicks')
          .values({ inviter_id: owner.id, code, at, visitor })
          .execute();
        return owner.id;
      });
    },
  };
}
