import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postApi } from '../../support/api';
import { queryStore } from '../../support/testStore';
import { register, rpc, serverProcess, type ProcessUser } from '../../support/serverProcess';

/**
 * Settlement under SIGKILL (§4 Payment, §9): the real server as a child process, killed 20 times
 * while players' tickets are paid and their balance checks settle them (ticket marked paid, the
 * Early Bird's 999 invitation codes, access). After every start, read from the SQLite file on
 * disk: no ticket is paid without access or without its codes, no one holds codes twice, and the
 * server had nothing to repair (the settlement is one transaction, so a kill leaves all or none).
 */
const RESTARTS = 20;
const DAY = 86_400_000;
const PRICE_SOL = '0.01';
const PRICE_LAMPORTS = 10_000_000;
const EARLY_BIRD_CODES = 999;
const PLAYERS_PER_ROUND = 12;

const dataDir = mkdtempSync(join(tmpdir(), 'smw-settle-'));
const server = serverProcess('settle');

beforeAll(() => server.build(), 60_000);

afterAll(() => {
  server.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

// The Early Bird runs for the whole test: every ticket carries the 999 codes.
const startServer = () =>
  server.start({
    DATA_DIR: dataDir,
    SERVER_MODE: 'development',
    EARLY_BIRD_END: new Date(Date.now() + 30 * DAY).toISOString(),
    LAUNCH_AT: new Date(Date.now() + 60 * DAY).toISOString(),
    PRICE_EARLY_BIRD_SOL: PRICE_SOL,
  });

type Ledger = { paid: number; paidWithoutAccess: number; grantedTwice: number; strayCodes: number };

/** What the store says, read beside the running server. */
async function readLedger(): Promise<Ledger> {
  const one = async (sql: string) =>
    Number((await queryStore<{ n: number }>(dataDir, sql))[0]?.n ?? 0);
  return {
    paid: await one('SELECT COUNT(*) AS n FROM users WHERE ticket_paid_at IS NOT NULL'),
    paidWithoutAccess: await one(
      `SELECT COUNT(*) AS n FROM users u WHERE u.ticket_paid_at IS NOT NULL AND (u.user_access <> 1
           OR (SELECT COUNT(*) FROM invitation_codes c WHERE c.owner_id = u.id) <> ${EARLY_BIRD_CODES})`,
    ),
    grantedTwice: await one(
      `SELECT COUNT(*) AS n FROM (SELECT owner_id FROM invitation_codes GROUP BY owner_id
           HAVING COUNT(*) > ${EARLY_BIRD_CODES}) AS t`,
    ),
    strayCodes: await one(
      `SELECT COUNT(*) AS n FROM users u WHERE u.ticket_paid_at IS NULL
           AND EXISTS (SELECT 1 FROM invitation_codes c WHERE c.owner_id = u.id)`,
    ),
  };
}

describe('ticket settlement under SIGKILL', () => {
  it(`settles every paid ticket whole across ${RESTARTS} kills`, async () => {
    let url = await startServer();
    const players: ProcessUser[] = [];
    let kills = 0;
    let cutAtKill = 0;
    const settle = (player: ProcessUser) =>
      postApi(url, 'user/wallet/balance', { data: { wallet_id: player.walletId } }, player.jwt);

    for (let round = 1; round <= RESTARTS; round += 1) {
      const fresh: ProcessUser[] = [];
      for (let i = 0; i < PLAYERS_PER_ROUND; i += 1)
        fresh.push(await register(url, `settle${round}-${i}@site.test`));
      players.push(...fresh);
      // Each new player's payment wallet receives the price (confirmed by the chain), then all
      // their balance checks (each settles a ticket) go out at once and the server is killed a
      // varying few milliseconds later, while it is settling them.
      for (const player of fresh) await rpc(url, 'requestAirdrop', [player.wallet, PRICE_LAMPORTS]);
      const checks = fresh.map((player) =>
        settle(player).then(
          () => 'answered',
          () => 'cut',
        ),
      );
      await new Promise((done) => setTimeout(done, 2 + ((round * 7) % 31)));
      await server.kill();
      kills += 1;
      const outcomes = await Promise.all(checks);
      cutAtKill += outcomes.filter((o) => o === 'cut').length;

      const before = server.output().length;
      url = await startServer();
      expect(server.output().slice(before), 'a start finds nothing half-settled').not.toMatch(
        /Settlement repair/,
      );
      const ledger = await readLedger();
      expect(ledger.paidWithoutAccess, `round ${round}: paid without access or codes`).toBe(0);
      expect(ledger.grantedTwice, `round ${round}: codes issued twice`).toBe(0);
      expect(ledger.strayCodes, `round ${round}: codes without a paid ticket`).toBe(0);
    }

    // Every player whose payment the chain holds gets access on the next check, exactly once.
    for (const player of players) {
      const answer = await settle(player);
      const chain = BigInt(String(answer.body.balance_lamports));
      expect(answer.body.access_granted).toBe(chain >= BigInt(PRICE_LAMPORTS));
    }
    const ledger = await readLedger();
    expect(ledger).toMatchObject({ paidWithoutAccess: 0, grantedTwice: 0, strayCodes: 0 });
    expect(ledger.paid, 'most tickets were paid').toBeGreaterThan(players.length / 2);
    await server.kill();
    console.log(
      `settle: ${ledger.paid} payments, ${ledger.paidWithoutAccess} paid without access, ${ledger.grantedTwice} granted twice (${kills} kills, ${cutAtKill} checks cut by a kill, ${players.length} players)`,
    );
  }, 180_000);
});
