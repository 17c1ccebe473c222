import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db';
import { createUsers } from '../../../server/users';
import { codesForTier } from '../../../server/routes/payment';

/**
 * Settling a ticket (§4 Payment, §9): marking it paid, issuing the Early Bird's 999 codes and
 * granting access happen in one transaction; a start repairs what an older version, which wrote
 * them in three statements, left half-done.
 */
const FRIENDS_FOR_ACCESS = 2;
let dir = '';
let db: Db | undefined;

afterEach(() => {
  db?.close();
  db = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function open() {
  dir = mkdtempSync(join(tmpdir(), 'smw-settle-'));
  db = openDatabase(dir);
  return { db, users: createUsers(db, randomBytes(32), () => Date.parse('2026-01-02T00:00:00Z')) };
}
const row = (db: Db, id: number) =>
  db
    .prepare<
      [number],
      { user_access: number; access_via: string | null; ticket_paid_at: number | null }
    >('SELECT user_access, access_via, ticket_paid_at FROM users WHERE id = ?')
    .get(id)!;
const codes = (db: Db, id: number) =>
  db
    .prepare<[number], { n: number }>(
      'SELECT COUNT(*) AS n FROM invitation_codes WHERE owner_id = ?',
    )
    .get(id)!.n;

describe('ticket settlement', () => {
  it('pays, issues the codes and grants access at once, and only the first time', () => {
    const { db, users } = open();
    const inviter = users.create('boss@site.test', null);
    const friends = ['a@site.test', 'b@site.test'].map((e) => users.create(e, inviter.id));
    const first = users.settleTicket(
      friends[0]!.id,
      220_000_000n,
      'early_bird',
      999,
      FRIENDS_FOR_ACCESS,
    );
    expect(first).toEqual({
      codesIssued: 999,
      accessGranted: true,
      inviterId: inviter.id,
      inviterGranted: false,
    });
    expect(users.settleTicket(friends[0]!.id, 220_000_000n, 'early_bird', 999, 2)).toBeNull();
    expect(codes(db, friends[0]!.id)).toBe(999);
    const second = users.settleTicket(friends[1]!.id, 550_000_000n, 'after_launch', 0, 2);
    expect(second).toMatchObject({ codesIssued: 0, accessGranted: true, inviterGranted: true });
    expect(row(db, inviter.id)).toMatchObject({ user_access: 1, access_via: 'invites' });
    expect(codes(db, friends[1]!.id)).toBe(0);
  });

  it('a failure inside the settlement leaves nothing behind: not paid, no codes, no access', () => {
    const { db, users } = open();
    const user = users.create('crash@site.test', null);
    // The access grant fails after the ticket was marked paid and the codes were written.
    db.exec(`CREATE TRIGGER refuse BEFORE UPDATE OF user_access ON users
             BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    expect(() => users.settleTicket(user.id, 220_000_000n, 'early_bird', 999, 2)).toThrow(
      'refused',
    );
    expect(row(db, user.id)).toMatchObject({ user_access: 0, ticket_paid_at: null });
    expect(codes(db, user.id)).toBe(0);
    db.exec('DROP TRIGGER refuse');
    expect(users.settleTicket(user.id, 220_000_000n, 'early_bird', 999, 2)).toMatchObject({
      codesIssued: 999,
      accessGranted: true,
    });
  });

  it('repairs accounts an older version left paid without access or codes, once', () => {
    const { db, users } = open();
    const inviter = users.create('old-boss@site.test', null);
    const noAccess = users.create('old1@site.test', inviter.id);
    const noCodes = users.create('old2@site.test', inviter.id);
    const launchBuyer = users.create('old3@site.test', null);
    // What the three separate statements left after a crash: paid, the rest missing.
    const paid = db.prepare(
      'UPDATE users SET ticket_paid_at = 1, ticket_paid_lamports = ?, ticket_tier = ? WHERE id = ?',
    );
    paid.run('220000000', null, noAccess.id);
    paid.run('220000000', 'early_bird', noCodes.id);
    db.prepare("UPDATE users SET user_access = 1, access_via = 'ticket' WHERE id = ?").run(
      noCodes.id,
    );
    paid.run('550000000', 'after_launch', launchBuyer.id);

    expect(users.repairSettlements(codesForTier, FRIENDS_FOR_ACCESS)).toBe(4);
    expect(row(db, noAccess.id)).toMatchObject({ user_access: 1, access_via: 'ticket' });
    expect(codes(db, noAccess.id)).toBe(999);
    expect(codes(db, noCodes.id)).toBe(999);
    expect(row(db, launchBuyer.id)).toMatchObject({ user_access: 1, access_via: 'ticket' });
    expect(codes(db, launchBuyer.id)).toBe(0);
    // Two friends bought: the inviter's entry through friends.
    expect(row(db, inviter.id)).toMatchObject({ user_access: 1, access_via: 'invites' });
    expect(users.repairSettlements(codesForTier, FRIENDS_FOR_ACCESS)).toBe(0);
    expect(codes(db, noAccess.id)).toBe(999);
  });
});
