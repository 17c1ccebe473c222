import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { UserData } from '../../../contract/api';
import { CLOSE_UNAUTHORIZED } from '../../../contract/realtime';
import type { RunningServer } from '../../../server/app';
import { ENDED_SESSIONS_POLL_MS } from '../../../server/store/endedSessions';
import { deletedEmail, NOT_ABOUT_A_PLAYER, type PlayerExport } from '../../../server/ops/player';
import { postApi, registerUser, startTestServer, type RegisteredUser } from '../../support/api';
import { runOps } from '../../support/opsCli';
import { buyTicket } from '../../support/pages';
import { peer } from '../../support/sockets';

/**
 * `npm run player -- export EMAIL` and `delete EMAIL` (server/ops/player.ts) as the studio runs
 * them, in their own process beside a running server, on this run's engine: a player who was
 * invited, bought a ticket and invited a friend gets every table's rows about them; after the
 * delete no personal data of theirs remains anywhere in the store, their jwt, refresh token and
 * open socket die at once, and their inviter's counts do not move.
 */
const work = mkdtempSync(join(tmpdir(), 'smw-player-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const EMAIL = 'Player@Rights.test';
const STORED_EMAIL = 'player@rights.test';
const USER_AGENT = 'Mozilla/5.0 (rights-test-browser)';
const UTM = {
  utm_source: 'newsletter-rights',
  utm_campaign: 'winter-rights',
  utm_medium: 'mail-rights',
};

const player = (dataDir: string, ...args: string[]) =>
  runOps('player', args, { DATA_DIR: dataDir });

/** Every table of the store, each row as JSON. */
async function everyRow(server: RunningServer): Promise<Record<string, string[]>> {
  const tables = await server.store.raw<{ name: string }>(
    server.store.db,
    server.store.engine === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
      : 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()',
  );
  const out: Record<string, string[]> = {};
  for (const { name } of tables)
    out[name] = (await server.store.raw(server.store.db, `SELECT * FROM ${name}`)).map((row) =>
      JSON.stringify(row),
    );
  return out;
}

const userData = async (server: RunningServer, user: RegisteredUser) => {
  const answer = await postApi(server.url, 'user/data', { session: user.sessionToken }, user.jwt);
  return { status: answer.status, data: answer.body.user_data as UserData | undefined };
};

describe('npm run player', () => {
  it('exports every row about a player, then deletes them: sessions and sockets end at once, the inviter counts the same', async () => {
    const dataDir = join(work, 'live');
    const server = await startTestServer({ dataDir });
    try {
      const inviter = await registerUser(server.url, 'inviter@rights.test');
      const me = await registerUser(server.url, EMAIL, inviter.userData.user_invite_code, {
        user_agent: USER_AGENT,
        ...UTM,
      });
      await buyTicket(server.url, me);
      const friend = await registerUser(
        server.url,
        'friend@rights.test',
        me.userData.user_invite_code,
      );
      // A click on the player's own invite link.
      await server.ctx.users.recordClick(me.userData.user_invite_code, 'a-visitor-hash');
      const socket = await peer(server, { jwt: me.jwt, session: me.sessionToken });
      expect(socket.frames.some((frame) => frame.type === 'welcome')).toBe(true);
      const inviterBefore = (await userData(server, inviter)).data!;
      expect(inviterBefore).toMatchObject({ user_ref_registered: 1, user_ref_confirmed: 1 });

      // export: every table that can hold a row about a player, with that player's rows.
      const file = join(work, 'copy.json');
      const exported = await player(dataDir, 'export', EMAIL, '--out', file);
      expect(exported.code, exported.err).toBe(0);
      expect(statSync(file).mode & 0o077).toBe(0);
      const text = readFileSync(file, 'utf8');
      const copy = JSON.parse(text) as PlayerExport;
      const tables = Object.keys(await everyRow(server));
      expect(Object.keys(copy.tables).sort()).toEqual(
        tables.filter((name) => !NOT_ABOUT_A_PLAYER.includes(name)).sort(),
      );
      expect(copy.email).toBe(STORED_EMAIL);
      expect(copy.tables.users).toEqual([
        expect.objectContaining({
          email: STORED_EMAIL,
          invite_code: me.userData.user_invite_code,
          inviter_invite_code: inviter.userData.user_invite_code,
          payment_wallet_address: me.userData.user_payment_wallet,
          access_via: 'ticket',
        }),
      ]);
      expect(copy.tables.sessions).toEqual([
        expect.objectContaining({ user_agent: USER_AGENT, ...UTM }),
      ]);
      expect(copy.tables.refresh_tokens!.length).toBeGreaterThanOrEqual(1);
      expect(copy.tables.sign_in_codes!.length).toBeGreaterThanOrEqual(1);
      expect(copy.tables.outbox!.length).toBeGreaterThanOrEqual(1);
      expect(copy.tables.invite_clicks).toEqual([
        expect.objectContaining({ code: me.userData.user_invite_code }),
      ]);
      // No secret leaves with it: no token, code, key or hash of them.
      for (const secret of [me.jwt, me.refreshToken, me.sessionToken])
        expect(text).not.toContain(secret);
      const columns = Object.values(copy.tables).flatMap((rows) => rows.flatMap(Object.keys));
      expect(columns.filter((column) => /hash|secret|^wire$/.test(column))).toEqual([]);

      // delete, with the player's socket open.
      const closed = socket.closed.then((code) => ({ code, at: Date.now() }));
      const deleted = await player(dataDir, 'delete', EMAIL);
      const exitedAt = Date.now();
      expect(deleted.code, deleted.err).toBe(0);
      expect(deleted.out).toMatch(/^Deleted player \d+ from .*: 1 sign-in session\(s\) ended/);
      const socketEnd = await Promise.race([
        closed,
        new Promise<'open'>((done) => setTimeout(() => done('open'), 5_000)),
      ]);
      expect(socketEnd, 'the socket is still open 5 s after the delete').not.toBe('open');
      const { code, at } = socketEnd as { code: number; at: number };
      // Closed as a sign-in that ended, within the instances' poll (1 s) of the command's end.
      expect(code).toBe(CLOSE_UNAUTHORIZED);
      expect(at - exitedAt).toBeLessThanOrEqual(ENDED_SESSIONS_POLL_MS + 500);

      // Their jwt and refresh token are refused.
      expect((await userData(server, me)).status).toBe(401);
      const refreshed = await postApi(server.url, 'auth/refresh', {
        refresh_token: me.refreshToken,
      });
      expect(refreshed.status).toBe(401);

      // No personal data remains in any table: e-mail, browser, UTM, invite code.
      const rows = await everyRow(server);
      const all = Object.values(rows).flat().join('\n');
      for (const personal of [
        STORED_EMAIL,
        me.userData.user_invite_code,
        USER_AGENT,
        ...Object.values(UTM),
      ])
        expect(all.toLowerCase(), personal).not.toContain(personal.toLowerCase());
      // The anonymous row keeps the ticket and the wallet (money records).
      const kept = await server.store.db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', deletedEmail(copy.user_id))
        .executeTakeFirstOrThrow();
      expect(kept).toMatchObject({
        payment_wallet_address: me.userData.user_payment_wallet,
        access_via: 'ticket',
        inviter_id: copy.tables.users![0]!.inviter_id,
      });
      expect(kept.ticket_paid_at).not.toBeNull();

      // The inviter's counts are what they were; the friend the player invited stays signed in.
      const inviterAfter = (await userData(server, inviter)).data!;
      expect({
        registered: inviterAfter.user_ref_registered,
        confirmed: inviterAfter.user_ref_confirmed,
        access: inviterAfter.user_access,
      }).toEqual({
        registered: inviterBefore.user_ref_registered,
        confirmed: inviterBefore.user_ref_confirmed,
        access: inviterBefore.user_access,
      });
      expect((await userData(server, friend)).status).toBe(200);

      // The address is free again: signing in with it makes a new, empty account.
      const again = await registerUser(server.url, EMAIL);
      expect(again.userData.user_invite_code).not.toBe(me.userData.user_invite_code);
      expect(again.userData.user_access).toBe(0);

      // A player the store does not hold: refused by name.
      const unknown = await player(dataDir, 'delete', 'nobody@rights.test');
      expect(unknown.code).toBe(1);
      expect(unknown.err).toMatch(/No player with the e-mail nobody@rights\.test/);
    } finally {
      await server.close();
    }
  }, 90_000);
});
