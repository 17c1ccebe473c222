import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { UserData } from '../../../contract/api';
import { postApi, registerUser, startTestServer } from '../../support/api';
import { buyTicket } from '../../support/pages';
import { runOps } from '../../support/opsCli';
import { testEngine } from '../../support/testStore';

/**
 * `npm run backup` (server/ops/backup.ts) as a studio runs it: a separate process copies the data
 * folder of a running server that keeps writing; the copy, restored into an empty DATA_DIR, brings
 * back the same players: their jwt and refresh token still sign them in, a new sign-in by e-mail
 * code finds the same account, and the payment wallet's sealed key still opens.
 */
const work = mkdtempSync(join(tmpdir(), 'smw-backup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `npm run backup -- ARGS`, output and errors together. */
const runBackup = async (args: string[], dataDir: string) => {
  const run = await runOps('backup', args, { DATA_DIR: dataDir });
  return { code: run.code, out: run.out + run.err };
};

describe('npm run backup', () => {
  it('copies a live data folder and restores it into a fresh DATA_DIR: the same player signs in', async () => {
    const liveDir = join(work, 'live');
    const server = await startTestServer({ dataDir: liveDir });
    const buyer = await registerUser(server.url, 'buyer@backup.test');
    await buyTicket(server.url, buyer);
    const friend = await registerUser(
      server.url,
      'friend@backup.test',
      buyer.userData.user_invite_code,
    );

    // Sign-ups keep arriving while the backup runs.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        await registerUser(server.url, `during-${written}@backup.test`);
        written += 1;
      }
    })();
    const postgres = testEngine() === 'postgres';
    const file = join(work, 'copies', postgres ? 'site-backup.pgdump' : 'site-backup.sqlite');
    const backup = await runBackup([file], liveDir);
    writing = false;
    await writer;
    await server.close();
    console.log(`backup: ${backup.out.trim()} (${written} sign-ups during the copy)`);
    expect(backup.code).toBe(0);
    // Every secret the server needs, the refresh-token key included.
    expect(backup.out).toMatch(
      /^Backed up .* to .*site-backup\.(sqlite|pgdump): \d+ account\(s\), 4 secret\(s\)/,
    );

    // The copy opens every payment wallet: only its owner may read it.
    expect(statSync(file).mode & 0o077).toBe(0);

    // Restore never overwrites live data.
    const refused = await runBackup(['--restore', file], liveDir);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(
      postgres
        ? /already holds a store: restore into an empty database/
        : /site\.sqlite exists: restore into an empty DATA_DIR/,
    );

    const freshDir = join(work, 'fresh');
    const restored = await runBackup(['--restore', file], freshDir);
    expect(restored.code).toBe(0);
    expect(restored.out).toMatch(/^Restored \d+ account\(s\) and 4 secret\(s\) into /);
    // The secrets are inside the store: nothing else to copy by hand.
    if (!postgres) expect(readdirSync(freshDir).sort()).toEqual(['site.sqlite']);

    const again = await startTestServer({ dataDir: freshDir });
    try {
      // The jwt signed before the backup still opens the buyer's account (same signing secret).
      const data = await postApi(
        again.url,
        'user/data',
        { session: buyer.sessionToken },
        buyer.jwt,
      );
      expect(data.status).toBe(200);
      const userData = data.body.user_data as UserData;
      expect(userData).toMatchObject({
        user_email: 'buyer@backup.test',
        user_access: 1,
        user_access_via: 'ticket',
        user_invite_code: buyer.userData.user_invite_code,
        user_payment_wallet: buyer.userData.user_payment_wallet,
        user_ref_registered: 1,
      });
      // The refresh token rotates on the restored server.
      const refreshed = await postApi(again.url, 'auth/refresh', {
        refresh_token: friend.refreshToken,
      });
      expect(refreshed.status).toBe(200);
      // A new sign-in by e-mail code finds the same account, not a new one.
      const signedIn = await registerUser(again.url, 'friend@backup.test');
      expect(signedIn.userData.user_invite_code).toBe(friend.userData.user_invite_code);
      expect(signedIn.userData.user_payment_wallet).toBe(friend.userData.user_payment_wallet);
      // The payment wallet's sealed key opens with the restored key, and is that wallet's.
      const buyerRow = (await again.ctx.users.findByEmail('buyer@backup.test'))!;
      const key = Keypair.fromSecretKey(await again.ctx.users.paymentSecretKey(buyerRow.id));
      expect(key.publicKey.toBase58()).toBe(buyer.userData.user_payment_wallet);
      expect(existsSync(join(freshDir, 'site.sqlite.partial'))).toBe(false);
    } finally {
      await again.close();
    }
  }, 60_000);
});
