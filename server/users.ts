import { domainToASCII } from 'node:url';
import { randomBytes, randomInt } from 'node:crypto';
import type { UserData } from '../contract/api';
import type { Db } from './db';
import { lamportsToSol } from '../contract/money';
import { seal, unseal } from './secrets';
import { addressOfSecretKey, newSecretKey } from './chain/keys';

export type UserRow = {
  id: number;
  email: string;
  invite_code: string;
  inviter_id: number | null;
  user_lvl: number;
  user_access: number;
  payment_wallet_id: string;
  payment_wallet_address: string;
  payment_wallet_secret: string;
  payment_balance_lamports: string;
  ticket_paid_at: number | null;
  /** Lamports the chain showed in the payment wallet when the ticket was confirmed. */
  ticket_paid_lamports: string | null;
  /** Why the user has access: 'ticket' (own payment) or 'invites' (friends' tickets). */
  access_via: string | null;
  /** The calendar tier of the paid ticket (TIER_WIRE); NULL for tickets settled before tiers. */
  ticket_tier: string | null;
  /**
   * Set by the server while a Telegram link is pending for this account (sign-in step 3); the
   * local server has no Telegram bot, so it stays NULL and `user_telegram_link` is left out.
   */
  telegram_link: string | null;
  created_at: number;
};

export type ReferralCounts = { clicks: number; registered: number; confirmed: number };

/** What one settlement changed (events are told after it commits). */
export type Settlement = {
  codesIssued: number;
  /** The buyer's access was granted by this settlement (false if they had it through friends). */
  accessGranted: boolean;
  inviterId: number | null;
  /** This ticket was the inviter's FRIENDS_FOR_ACCESS-th friend's, and granted them access. */
  inviterGranted: boolean;
};

const INVITE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const INVITE_CODE_LENGTH = 8;

export function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i += 1)
    code += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
  return code;
}

/** §5: keep letters and digits only, cut to 30 characters. Empty means no code. */
export function sanitizeInviteCode(raw: string): string {
  return raw.replace(/[^A-Za-z0-9]/g, '').slice(0, 30);
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
export const MAX_EMAIL_LENGTH = 254;

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
export type Users = ReturnType<typeof createUsers>;

export function createUsers(db: Db, walletKey: Buffer, now: () => number) {
  const byId = db.prepare<[number], UserRow>('SELECT * FROM users WHERE id = ?');
  const byEmail = db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?');
  const byInvite = db.prepare<[string], UserRow>('SELECT * FROM users WHERE invite_code = ?');
  const byWalletId = db.prepare<[string], UserRow>(
    'SELECT * FROM users WHERE payment_wallet_id = ?',
  );
  const byWalletAddress = db.prepare<[string], UserRow>(
    'SELECT * FROM users WHERE payment_wallet_address = ?',
  );
  const insert = db.prepare(
    `INSERT INTO users (email, invite_code, inviter_id, payment_wallet_id, payment_wallet_address,
       payment_wallet_secret, created_at)
     VALUES (@email, @invite_code, @inviter_id, @payment_wallet_id, @payment_wallet_address,
       @payment_wallet_secret, @created_at)`,
  );
  const countClicks = db.prepare<[number], { n: number }>(
    'SELECT COUNT(*) AS n FROM invite_clicks WHERE inviter_id = ?',
  );
  const countRegistered = db.prepare<[number], { n: number }>(
    'SELECT COUNT(*) AS n FROM users WHERE inviter_id = ?',
  );
  const countConfirmed = db.prepare<[number], { n: number }>(
    'SELECT COUNT(*) AS n FROM users WHERE inviter_id = ? AND ticket_paid_at IS NOT NULL',
  );
  const insertClick = db.prepare(
    'INSERT INTO invite_clicks (inviter_id, code, at, visitor) VALUES (?, ?, ?, ?)',
  );
  const recentClick = db.prepare<[string, string, number], { id: number }>(
    'SELECT id FROM invite_clicks WHERE code = ? AND visitor = ? AND at > ? LIMIT 1',
  );

  const markPaid = db.prepare(
    `UPDATE users SET ticket_paid_at = ?, ticket_paid_lamports = ?, ticket_tier = ?
     WHERE id = ? AND ticket_paid_at IS NULL`,
  );
  const grant = db.prepare(
    'UPDATE users SET user_access = 1, access_via = ? WHERE id = ? AND user_access <> 1',
  );
  const heldCodes = db.prepare<[number], { n: number }>(
    'SELECT COUNT(*) AS n FROM invitation_codes WHERE owner_id = ?',
  );
  const insertCode = db.prepare(
    'INSERT OR IGNORE INTO invitation_codes (owner_id, code, created_at) VALUES (?, ?, ?)',
  );
  /** `count` single-use codes for `userId`, once: a holder of codes gets none more. */
  const issueCodes = (userId: number, count: number): number => {
    if (count <= 0 || (heldCodes.get(userId)?.n ?? 0) > 0) return 0;
    const at = now();
    let issued = 0;
    while (issued < count) issued += insertCode.run(userId, newInviteCode(), at).changes;
    return issued;
  };

  const referrals = (userId: number): ReferralCounts => ({
    clicks: countClicks.get(userId)?.n ?? 0,
    registered: countRegistered.get(userId)?.n ?? 0,
    confirmed: countConfirmed.get(userId)?.n ?? 0,
  });

  return {
    findById: (id: number): UserRow | undefined => byId.get(id),
    findByEmail: (email: string): UserRow | undefined => byEmail.get(normalizeEmail(email)),
    /** Invite codes are stored upper-case; lookups ignore case. */
    findByInviteCode: (code: string): UserRow | undefined => byInvite.get(code.toUpperCase()),
    findByWalletId: (walletId: string): UserRow | undefined => byWalletId.get(walletId),
    findByWalletAddress: (address: string): UserRow | undefined => byWalletAddress.get(address),

    /** A new account with its own invite code and payment wallet (an ed25519 Solana keypair). */
    create(email: string, inviterId: number | null): UserRow {
      const secretKey = newSecretKey();
      for (let attempt = 0; ; attempt += 1) {
        try {
          const info = insert.run({
            email: normalizeEmail(email),
            invite_code: newInviteCode(),
            inviter_id: inviterId,
            payment_wallet_id: randomBytes(12).toString('hex'),
            payment_wallet_address: addressOfSecretKey(secretKey),
            payment_wallet_secret: seal(walletKey, secretKey),
            created_at: now(),
          });
          return byId.get(Number(info.lastInsertRowid))!;
        } catch (error) {
          const clash =
            error instanceof Error &&
            /UNIQUE constraint failed: users\.invite_code/.test(error.message);
          if (!clash || attempt > 20) throw error;
        }
      }
    },

    referrals,

    /** The contract's user_data shape (userDataSchema). */
    toUserData(user: UserRow): UserData {
      const counts = referrals(user.id);
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

    /** The payment wallet's 64-byte secret key (for sweeping funds from the local chain). */
    paymentSecretKey(userId: number): Uint8Array {
      const user = byId.get(userId);
      if (!user) throw new Error(`No user ${userId}`);
      return unseal(walletKey, user.payment_wallet_secret);
    },

    /** Caches the chain balance of the payment wallet (shown as user_payment_wallet_balance). */
    setPaymentBalance(userId: number, lamports: bigint): void {
      db.prepare('UPDATE users SET payment_balance_lamports = ? WHERE id = ?').run(
        lamports.toString(),
        userId,
      );
    },

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
    ): Settlement | null {
      return db
        .transaction((): Settlement | null => {
          const paid = markPaid.run(now(), lamports.toString(), tier, userId);
          if (paid.changes === 0) return null;
          const codesIssued = issueCodes(userId, codes);
          const accessGranted = grant.run('ticket', userId).changes > 0;
          const inviterId = byId.get(userId)?.inviter_id ?? null;
          const inviterGranted =
            inviterId !== null &&
            (countConfirmed.get(inviterId)?.n ?? 0) >= friendsForAccess &&
            grant.run('invites', inviterId).changes > 0;
          return { codesIssued, accessGranted, inviterId, inviterGranted };
        })
        .immediate();
    },

    /**
     * Finishes settlements an older version left half-done (it wrote them in three steps): a
     * ticket paid without access, a ticket without the codes its tier gives, an inviter whose
     * friends bought enough tickets but who has no access. Returns how many accounts it repaired.
     */
    repairSettlements(codesFor: (tier: string | null) => number, friendsForAccess: number): number {
      return db
        .transaction(() => {
          const repaired = new Set<number>();
          const paid = db
            .prepare<
              [],
              { id: number; ticket_tier: string | null; user_access: number; held: number }
            >(
              `SELECT u.id, u.ticket_tier, u.user_access,
               (SELECT COUNT(*) FROM invitation_codes c WHERE c.owner_id = u.id) AS held
             FROM users u WHERE u.ticket_paid_at IS NOT NULL`,
            )
            .all();
          for (const row of paid) {
            if (row.user_access !== 1 && grant.run('ticket', row.id).changes > 0)
              repaired.add(row.id);
            if (row.held === 0 && issueCodes(row.id, codesFor(row.ticket_tier)) > 0)
              repaired.add(row.id);
          }
          const inviters = db
            .prepare<[number], { id: number }>(
              `SELECT u.id FROM users u WHERE u.user_access <> 1 AND
               (SELECT COUNT(*) FROM users f WHERE f.inviter_id = u.id
                  AND f.ticket_paid_at IS NOT NULL) >= ?`,
            )
            .all(friendsForAccess);
          for (const { id } of inviters) if (grant.run('invites', id).changes > 0) repaired.add(id);
          return repaired.size;
        })
        .immediate();
    },

    /** The invitation codes `userId` holds, oldest first (status 0: not used yet). */
    invitationCodes(userId: number): { code_text: string; code_status: number }[] {
      return db
        .prepare<[number], { code_text: string; code_status: number }>(
          'SELECT code AS code_text, status AS code_status FROM invitation_codes WHERE owner_id = ? ORDER BY id',
        )
        .all(userId);
    },

    setTelegramLink(userId: number, link: string | null): void {
      db.prepare('UPDATE users SET telegram_link = ? WHERE id = ?').run(link, userId);
    },

    /** Counts a visit through an invite link; returns the owner's id, or null for unknown codes. */
    /**
     * Counts a visit through an invite link; returns the owner's id, or null for unknown codes
     * and for a repeat visit: one click per visitor (a keyed hash of the address) per code per
     * CLICK_WINDOW_MS, so reloading a link does not inflate the count.
     */
    recordClick(rawCode: string, visitor: string): number | null {
      const code = sanitizeInviteCode(rawCode);
      if (!code) return null;
      const owner = byInvite.get(code.toUpperCase());
      if (!owner) return null;
      const at = now();
      if (recentClick.get(code.toUpperCase(), visitor, at - CLICK_WINDOW_MS)) return null;
      insertClick.run(owner.id, code.toUpperCase(), at, visitor);
      return owner.id;
    },
  };
}
