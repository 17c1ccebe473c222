import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../server/store/engine';
import { createUsers } from '../../../server/users';
import { codesForTier } from '../../../server/routes/payment';
import { openTestStore } from '../../support/testStore';

/**
 * Settling a ticket (§4 Payment, §9): marking it paid, issuing the Early Bird's 999 codes and
 * granting access happen in one transaction; a start repairs what an older version, which wrote
 * them in three statements, left half-done.
 */
const FRIENDS_FOR_ACCESS = 2;
let opened: Awaited<ReturnType<typeof openTestStore>> | undefined;

afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

async function open() {
  opened = await openTestStore();
  const { store } = opened;
  const users = createUsers(store, randomBytes(32), () => Date.parse('2026-01-02T00:00:00Z'));
  const create = async (email: string, inviterId: number | null) =>
    (await users.findOrCreate(email, inviterId)).user;
  return { store, users, create };
}
const row = async (store: Store, id: number) =>
  (
    await store.raw<{
      user_access: number;
      access_via: string | null;
      ticket_paid_at: number | null;
    }>(store.db, 'SELECT user_access, access_via, ticket_paid_at FROM users WHERE id = ?', [id])
  )[0]!;
const codes = async (store: Store, id: number) =>
  Number(
    (
      await store.raw<{ n: number }>(
        store.db,
        'SELECT COUNT(*) AS n FROM invitation_codes WHERE owner_id = ?',
        [id],
      )
    )[0]!.n,
  );

/** A trigger that refuses any change of user_access (to fail a settlement half-way). */
async function refuseAccessChanges(store: Store): Promise<() => Promise<void>> {
  if (store.engine === 'sqlite') {
    await store.raw(
      store.db,
      `CREATE TRIGGER refuse BEFORE UPDATE OF user_access ON users
       BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    );
    return async () => void (await store.raw(store.db, 'DROP TRIGGER refuse'));
  }
  await store.raw(
    store.db,
    `CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS
     $$ BEGIN RAISE EXCEPTION 'refused'; END $$`,
  );
  await store.raw(
    store.db,
    'CREATE TRIGGER refuse BEFORE UPDATE OF user_access ON users FOR EACH ROW EXECUTE FUNCTION refuse()',
  );
  return async () => {
    await store.raw(store.db, 'DROP TRIGGER refuse ON users');
    await store.raw(store.db, 'DROP FUNCTION refuse()');
  };
}

describe('ticket settlement', () => {
  it('pays, issues the codes and grants access at once, and only the first time', async () => {
    const { store, users, create } = await open();
    const inviter = await create('boss@site.test', null);
    const friends = [
      await create('a@site.test', inviter.id),
      await create('b@site.test', inviter.id),
    ];
    const first = await users.settleTicket(
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
    expect(await users.settleTicket(friends[0]!.id, 220_000_000n, 'early_bird', 999, 2)).toBeNull();
    expect(await codes(store, friends[0]!.id)).toBe(999);
    const second = await users.settleTicket(friends[1]!.id, 550_000_000n, 'after_launch', 0, 2);
    expect(second).toMatchObject({ codesIssued: 0, accessGranted: true, inviterGranted: true });
    expect(await row(store, inviter.id)).toMatchObject({ user_access: 1, access_via: 'invites' });
    expect(await codes(store, friends[1]!.id)).toBe(0);
  });

  it('a failure inside the settlement leaves nothing behind: not paid, no codes, no access', async () => {
    const { store, users, create } = await open();
    const user = await create('crash@site.test', null);
    // The access grant fails after the ticket was marked paid and the codes were written.
    const allow = await refuseAccessChanges(store);
    await expect(users.settleTicket(user.id, 220_000_000n, 'early_bird', 999, 2)).rejects.toThrow(
      'refused',
    );
    expect(await row(store, user.id)).toMatchObject({ user_access: 0, ticket_paid_at: null });
    expect(await codes(store, user.id)).toBe(0);
    await allow();
    expect(await users.settleTicket(user.id, 220_000_000n, 'early_bird', 999, 2)).toMatchObject({
      codesIssued: 999,
      accessGranted: true,
    });
  });

  it('repairs accounts an older version left paid without access or codes, once', async () => {
    const { store, users, create } = await open();
    const inviter = await create('old-boss@site.test', null);
    const noAccess = await create('old1@site.test', inviter.id);
    const noCodes = await create('old2@site.test', inviter.id);
    const launchBuyer = await create('old3@site.test', null);
    // What the three separate statements left after a crash: paid, the rest missing.
    const paid = (lamports: string, tier: string | null, id: number) =>
      store.raw(
        store.db,
        'UPDATE users SET ticket_paid_at = 1, ticket_paid_lamports = ?, ticket_tier = ? WHERE id = ?',
        [lamports, tier, id],
      );
    await paid('220000000', null, noAccess.id);
    await paid('220000000', 'early_bird', noCodes.id);
    await store.raw(
      store.db,
      "UPDATE users SET user_access = 1, access_via = 'ticket' WHERE id = ?",
      [noCodes.id],
    );
    await paid('550000000', 'after_launch', launchBuyer.id);

    expect(await users.repairSettlements(codesForTier, FRIENDS_FOR_ACCESS)).toBe(4);
    expect(await row(store, noAccess.id)).toMatchObject({ user_access: 1, access_via: 'ticket' });
    expect(await codes(store, noAccess.id)).toBe(999);
    expect(await codes(store, noCodes.id)).toBe(999);
    expect(await row(store, launchBuyer.id)).toMatchObject({
      user_access: 1,
      access_via: 'ticket',
    });
    expect(await codes(store, launchBuyer.id)).toBe(0);
    // Two friends bought: the inviter's entry through friends.
    expect(await row(store, inviter.id)).toMatchObject({ user_access: 1, access_via: 'invites' });
    expect(await users.repairSettlements(codesForTier, FRIENDS_FOR_ACCESS)).toBe(0);
    expect(await codes(store, noAccess.id)).toBe(999);
  });
});
