import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_MESSAGES, createCodes, MAX_CODE_TRIES } from '../../../server/codes';
import { codesForTier, INVITATION_CODES_PER_TICKET } from '../../../server/routes/payment';
import { createRefreshTokens } from '../../../server/tokens';
import { createUsers } from '../../../server/users';
import { openTestStore, testEngine } from '../../support/testStore';

/**
 * Each rule that checks and then writes, tried by requests arriving at once: on Postgres (a pool
 * of connections, statements of different requests interleaved at READ COMMITTED) and on SQLite.
 * Every rule must be decided by the database (a lock, a unique index, one statement), never by
 * the timing of one process. Each race runs ATTEMPTS times at once and prints its wrong outcomes.
 */
const ATTEMPTS = 50;
const FRIENDS_FOR_ACCESS = 2;
let opened: Awaited<ReturnType<typeof openTestStore>>;
const now = () => Date.parse('2026-01-02T00:00:00Z');

beforeAll(async () => {
  opened = await openTestStore();
});
afterAll(() => opened.close());

const stores = () => {
  const { store } = opened;
  const key = randomBytes(32);
  return {
    store,
    users: createUsers(store, key, now),
    codes: createCodes(store, key, now),
    tokens: createRefreshTokens(store, key, now, 3600),
  };
};
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const report = (name: string, wrong: number) =>
  console.log(`race: ${name}: ${ATTEMPTS} attempts, ${wrong} wrong (${testEngine()})`);

describe(`races decided by the database (${testEngine()})`, () => {
  it('inviter access: two friends settling at once both count, the inviter gets access', async () => {
    const { users } = stores();
    const outcomes = await Promise.all(
      range(ATTEMPTS).map(async (i) => {
        const inviter = (await users.findOrCreate(`boss-${i}@race.test`, null)).user;
        const friends = await Promise.all(
          [0, 1].map(
            async (f) => (await users.findOrCreate(`friend-${i}-${f}@race.test`, inviter.id)).user,
          ),
        );
        const settled = await Promise.all(
          friends.map((friend) =>
            users.settleTicket(friend.id, 220_000_000n, 'early_bird', 0, FRIENDS_FOR_ACCESS),
          ),
        );
        const after = await users.findById(inviter.id);
        const grantedOnce = settled.filter((s) => s?.inviterGranted).length === 1;
        return after?.user_access === 1 && after.access_via === 'invites' && grantedOnce;
      }),
    );
    const wrong = outcomes.filter((ok) => !ok).length;
    report('inviter access', wrong);
    expect(wrong).toBe(0);
  });

  it('refresh successor: one token refreshed twice at once gives one successor, both answered', async () => {
    const { users, tokens, store } = stores();
    const outcomes = await Promise.all(
      range(ATTEMPTS).map(async (i) => {
        const user = (await users.findOrCreate(`refresh-${i}@race.test`, null)).user;
        const { refreshToken, familyId } = await tokens.issue(user.id);
        const [a, b] = await Promise.all([
          tokens.rotate(refreshToken),
          tokens.rotate(refreshToken),
        ]);
        const family = await store.raw<{ n: number }>(
          store.db,
          'SELECT COUNT(*) AS n FROM refresh_tokens WHERE family_id = ?',
          [familyId],
        );
        return (
          a?.ok === true &&
          b?.ok === true &&
          a.refreshToken === b.refreshToken &&
          Number(family[0]?.n) === 2
        );
      }),
    );
    const wrong = outcomes.filter((ok) => !ok).length;
    report('refresh successor', wrong);
    expect(wrong).toBe(0);
  });

  it('code mails: two code requests at once send one e-mail (the second waits its 30 s)', async () => {
    const { codes } = stores();
    const outcomes = await Promise.all(
      range(ATTEMPTS).map(async (i) => {
        const email = `mail-${i}@race.test`;
        const answers = await Promise.all([
          codes.request(email, null, '10.0.0.1'),
          codes.request(email, null, '10.0.0.1'),
        ]);
        return answers.filter((a) => a.ok).length === 1;
      }),
    );
    const wrong = outcomes.filter((ok) => !ok).length;
    report('code mails', wrong);
    expect(wrong).toBe(0);
  });

  it('code reuse: the right code sent twice at once signs in once; wrong guesses at once all count', async () => {
    const { codes } = stores();
    const outcomes = await Promise.all(
      range(ATTEMPTS).map(async (i) => {
        const email = `reuse-${i}@race.test`;
        const sent = await codes.request(email, null, '10.0.0.1');
        if (!sent.ok) return false;
        const twice = await Promise.all([
          codes.verify(email, sent.code, '10.0.0.1'),
          codes.verify(email, sent.code, '10.0.0.2'),
        ]);
        const usedOnce = twice.filter((c) => c.ok).length === 1;
        // A second e-mail: MAX_CODE_TRIES wrong guesses at once from one network, then the
        // right code from that network is refused (no guess was lost).
        const other = `guess-${i}@race.test`;
        const code = await codes.request(other, null, '10.0.0.1');
        if (!code.ok) return false;
        const wrongCode = code.code === '000000' ? '000001' : '000000';
        await Promise.all(
          range(MAX_CODE_TRIES).map(() => codes.verify(other, wrongCode, '10.1.0.1')),
        );
        const after = await codes.verify(other, code.code, '10.1.0.1');
        return usedOnce && !after.ok && after.message === CODE_MESSAGES.tooManyTries;
      }),
    );
    const wrong = outcomes.filter((ok) => !ok).length;
    report('code reuse', wrong);
    expect(wrong).toBe(0);
  });

  it('duplicate rows: first sign-ins, invite clicks and a holder’s codes at once make one of each', async () => {
    const { users, store } = stores();
    const count = async (text: string, ...params: unknown[]) =>
      Number((await store.raw<{ n: number }>(store.db, text, params))[0]?.n ?? 0);
    const outcomes = await Promise.all(
      range(ATTEMPTS).map(async (i) => {
        const email = `twice-${i}@race.test`;
        const made = await Promise.all([
          users.findOrCreate(email, null),
          users.findOrCreate(email, null),
        ]);
        const oneAccount =
          made[0].user.id === made[1].user.id &&
          made.filter((m) => m.created).length === 1 &&
          (await count('SELECT COUNT(*) AS n FROM users WHERE email = ?', email)) === 1;
        const owner = made[0].user;
        const visitor = `visitor-${i}`;
        const clicks = await Promise.all([
          users.recordClick(owner.invite_code, visitor),
          users.recordClick(owner.invite_code, visitor),
        ]);
        const oneClick =
          clicks.filter((c) => c !== null).length === 1 &&
          (await count(
            'SELECT COUNT(*) AS n FROM invite_clicks WHERE inviter_id = ?',
            owner.id,
          )) === 1;
        // A ticket an older version left without its codes, repaired by two starts at once.
        await store.raw(
          store.db,
          "UPDATE users SET ticket_paid_at = 1, ticket_paid_lamports = '220000000', ticket_tier = 'early_bird' WHERE id = ?",
          [owner.id],
        );
        await Promise.all([
          users.repairSettlements(codesForTier, FRIENDS_FOR_ACCESS),
          users.repairSettlements(codesForTier, FRIENDS_FOR_ACCESS),
        ]);
        const codesHeld = await count(
          'SELECT COUNT(*) AS n FROM invitation_codes WHERE owner_id = ?',
          owner.id,
        );
        return oneAccount && oneClick && codesHeld === INVITATION_CODES_PER_TICKET;
      }),
    );
    const wrong = outcomes.filter((ok) => !ok).length;
    report('duplicate rows', wrong);
    expect(wrong).toBe(0);
  }, 120_000);
});
