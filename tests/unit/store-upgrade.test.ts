import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserData } from '../../contract/api';
import { SCHEMA_VERSION } from '../../server/store/migrations';
import type { RunningServer } from '../../server/app';
import { postApi, query, startTestServer } from '../support/api';

/**
 * A data folder made by the release before the shared store (schema steps counted by SQLite's
 * `PRAGMA user_version`, 6 of them; secrets in files beside the database), kept as it was written
 * in tests/fixtures/data-folder-schema-6 on 2025-11-01 (an Early Bird sale: a buyer with a
 * friend who bought, a friend who did not, a player without an inviter, a pending code). This
 * server takes it over in place: every row kept, every token and sealed key still working.
 */
const FIXTURE = resolve(import.meta.dirname, '../fixtures/data-folder-schema-6');
const WRITTEN_AT = Date.parse('2025-11-01T12:05:00Z');
type Player = {
  refreshToken: string;
  jwt: string;
  invite_code: string;
  wallet: string;
  email: string;
};
const players = JSON.parse(readFileSync(join(FIXTURE, 'players.json'), 'utf8')) as Record<
  'boss' | 'friendA' | 'friendB' | 'solo',
  Player
>;

let dir = '';
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const copyOfFixture = () => {
  dir = mkdtempSync(join(tmpdir(), 'smw-upgrade-'));
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
};
const counts = async (s: RunningServer) => {
  const tables = [
    'users',
    'sessions',
    'refresh_tokens',
    'one_time_codes',
    'invitation_codes',
    'outbox',
  ];
  const out: Record<string, number> = {};
  for (const table of tables)
    out[table] = Number(
      (await query<{ n: number }>(s, `SELECT COUNT(*) AS n FROM ${table}`))[0]!.n,
    );
  return out;
};

describe('upgrading a data folder of the previous release', () => {
  it('keeps every row, and its tokens, sessions and sealed wallet keys keep working', async () => {
    server = await startTestServer({ dataDir: copyOfFixture(), now: () => WRITTEN_AT });
    expect(await counts(server)).toEqual({
      users: 4,
      sessions: 4,
      refresh_tokens: 5,
      one_time_codes: 5,
      invitation_codes: 2 * 999,
      outbox: 5,
    });
    const applied = await query<{ name: string }>(
      server,
      'SELECT name FROM kysely_migration ORDER BY name',
    );
    expect(applied).toHaveLength(SCHEMA_VERSION);
    expect(await query(server, 'PRAGMA user_version')).toEqual([{ user_version: SCHEMA_VERSION }]);

    // The jwt signed before the upgrade still opens the account (the jwt secret was taken over).
    const data = await postApi(server.url, 'user/data', {}, players.boss.jwt);
    expect(data.status).toBe(200);
    expect(data.body.user_data as UserData).toMatchObject({
      user_email: 'boss@upgrade.test',
      user_access: 1,
      user_access_via: 'ticket',
      user_ticket_tier: 'early_bird',
      user_invite_code: players.boss.invite_code,
      user_payment_wallet: players.boss.wallet,
      user_ref_registered: 2,
      user_ref_confirmed: 1,
    });
    // Its refresh token rotates, and its successor again (the refresh key was taken over).
    const first = await postApi(server.url, 'auth/refresh', {
      refresh_token: players.friendA.refreshToken,
    });
    expect(first.status).toBe(200);
    const second = await postApi(server.url, 'auth/refresh', {
      refresh_token: String(first.body.refresh_token),
    });
    expect(second.status).toBe(200);
    // The sealed payment wallet keys open with the wallet key taken over.
    for (const player of Object.values(players)) {
      const row = (await server.ctx.users.findByEmail(player.email))!;
      const key = Keypair.fromSecretKey(await server.ctx.users.paymentSecretKey(row.id));
      expect(key.publicKey.toBase58()).toBe(player.wallet);
    }
    // The codes each Early Bird buyer holds are numbered 1..999 (a second issue adds none).
    const numbered = await query<{ owner_id: number; low: number; high: number; n: number }>(
      server,
      'SELECT owner_id, MIN(seq) AS low, MAX(seq) AS high, COUNT(DISTINCT seq) AS n FROM invitation_codes GROUP BY owner_id ORDER BY owner_id',
    );
    expect(numbered.map((r) => [Number(r.low), Number(r.high), Number(r.n)])).toEqual([
      [1, 999, 999],
      [1, 999, 999],
    ]);
  });

  it('an upgraded folder starts again as it is, and a server older than its schema refuses it', async () => {
    const dataDir = copyOfFixture();
    server = await startTestServer({ dataDir, now: () => WRITTEN_AT });
    await server.close();
    server = await startTestServer({ dataDir, now: () => WRITTEN_AT });
    // A later release wrote a step this server does not know.
    await query(
      server,
      "INSERT INTO kysely_migration (name, timestamp) VALUES ('9999_a_later_release', '2026-12-01T00:00:00.000Z')",
    );
    await server.close();
    server = undefined;
    const refused = startTestServer({ dataDir, now: () => WRITTEN_AT });
    await expect(refused).rejects.toThrow(
      `has schema version ${SCHEMA_VERSION + 1} (its newest step 9999_a_later_release), newer than this server's schema version ${SCHEMA_VERSION}`,
    );
  });
});
