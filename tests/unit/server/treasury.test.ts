import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../server/app';
import type { SaleReport } from '../../../server/ops/report';
import { registerUser, startTestServer, type RegisteredUser } from '../../support/api';
import { buyTicket } from '../../support/pages';
import { runOps, type CliRun } from '../../support/opsCli';
import { balanceOf, rpc } from '../../support/serverProcess';
import { queryStore } from '../../support/testStore';
import { freePort } from '../../support/freePort';

/**
 * `npm run treasury -- sweep` (server/ops/treasury.ts) on the local chain of a running server,
 * reached over its /rpc: players pay through the API, the command runs in its own process.
 */
const PRICE_LAMPORTS = 10_000_000n; // TICKET_PRICE_SOL 0.01
const FEE = 5_000n;
const dataDir = mkdtempSync(join(tmpdir(), 'smw-treasury-'));
let server: RunningServer;
let rpcUrl: string;

beforeAll(async () => {
  server = await startTestServer({ dataDir, ticketPriceSol: '0.01' });
  rpcUrl = `${server.url}/rpc`;
}, 30_000);
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const treasuryCli = (args: string[], onStdout?: Parameters<typeof runOps>[3]): Promise<CliRun> =>
  runOps('treasury', ['sweep', ...args, '--rpc', rpcUrl], { DATA_DIR: dataDir }, onStdout);

async function payingPlayers(tag: string, count: number): Promise<RegisteredUser[]> {
  const players: RegisteredUser[] = [];
  for (let i = 0; i < count; i += 1) {
    const player = await registerUser(server.url, `${tag}-${i}@treasury.test`);
    await buyTicket(server.url, player);
    players.push(player);
  }
  return players;
}
const walletOf = (player: RegisteredUser) => player.userData.user_payment_wallet;

/** The journal's rows for these players' wallets, by status. */
async function journalOf(players: RegisteredUser[]): Promise<Map<string, string[]>> {
  const byWallet = new Map<string, string[]>();
  const rows = await queryStore<{ wallet: string; status: string }>(
    dataDir,
    'SELECT wallet, status FROM sweeps',
  );
  for (const player of players)
    byWallet.set(
      walletOf(player),
      rows.filter((r) => r.wallet === walletOf(player)).map((r) => r.status),
    );
  return byWallet;
}

describe('npm run treasury -- sweep', () => {
  it('dry run lists the 10 paid wallets, --execute moves their SOL once, a second run nothing', async () => {
    const players = await payingPlayers('paid', 10);
    // A wallet holding SOL whose ticket is not settled (half the price) is never touched.
    const unsettled = await registerUser(server.url, 'unsettled@treasury.test');
    await rpc(server.url, 'requestAirdrop', [walletOf(unsettled), Number(PRICE_LAMPORTS / 2n)]);
    const treasury = Keypair.generate().publicKey.toBase58();

    const dry = await treasuryCli(['--to', treasury]);
    console.log(dry.out);
    expect(dry.err).toBe('');
    expect(dry.code).toBe(0);
    for (const player of players)
      expect(dry.out).toMatch(new RegExp(`${walletOf(player)} .* 0\\.01 +0\\.009995 +would move`));
    expect(dry.out).not.toContain(walletOf(unsettled));
    expect(dry.out).toContain(
      'Would sweep (dry run; --execute sends): 10 wallet(s), 0.09995 SOL (fee 0.000005 SOL each)',
    );
    expect(await balanceOf(server.url, treasury)).toBe(0n);
    for (const player of players)
      expect(await balanceOf(server.url, walletOf(player))).toBe(PRICE_LAMPORTS);

    const run = await treasuryCli(['--to', treasury, '--execute']);
    console.log(run.out);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain('Swept: 10 wallet(s), 0.09995 SOL');
    expect(await balanceOf(server.url, treasury)).toBe(10n * (PRICE_LAMPORTS - FEE));
    for (const player of players) expect(await balanceOf(server.url, walletOf(player))).toBe(0n);
    expect(await balanceOf(server.url, walletOf(unsettled))).toBe(PRICE_LAMPORTS / 2n);
    for (const statuses of (await journalOf(players)).values())
      expect(statuses).toEqual(['confirmed']);

    const again = await treasuryCli(['--to', treasury, '--execute']);
    expect(again.code).toBe(0);
    expect(again.out).toContain('No settled payment wallet holds more than the fee.');
    expect(again.out).toContain('Swept: 0 wallet(s), 0 SOL');
    expect(await balanceOf(server.url, treasury)).toBe(10n * (PRICE_LAMPORTS - FEE));

    // The tickets' records stay: still paid, still with access; the report counts the sweep.
    const report = JSON.parse(
      (await runOps('report', ['--json'], { DATA_DIR: dataDir })).out,
    ) as SaleReport;
    expect(report.totals).toMatchObject({
      tickets: 10,
      received_sol: '0.1',
      swept_sol: '0.09995',
      sweep_fees_sol: '0.00005',
      waiting_sol: '0',
    });
  }, 120_000);

  it('killed mid-sweep and run again, every wallet is swept exactly once', async () => {
    const players = await payingPlayers('killed', 10);
    const treasury = Keypair.generate().publicKey.toBase58();
    let killed = 0;
    let inFlight = 0;
    let last: CliRun | undefined;
    // Each run is killed (SIGKILL) as it sends its second transfer, until one finishes.
    for (let round = 0; round < 12; round += 1) {
      last = await treasuryCli(['--to', treasury, '--execute'], (out, child) => {
        if ((out.match(/^sending /gm) ?? []).length >= 2) child.kill('SIGKILL');
      });
      // A transfer a killed run left pending: this run resolved it by its signature's status.
      inFlight += (last.out.match(/^journal /gm) ?? []).length;
      if (last.signal === 'SIGKILL') killed += 1;
      else break;
    }
    console.log(last!.out);
    expect(killed).toBeGreaterThanOrEqual(3);
    expect(inFlight).toBeGreaterThanOrEqual(1);
    expect(last!.code).toBe(0);
    const journal = await journalOf(players);
    const outcomes = [...journal.values()].flat();
    console.log(
      `treasury: ${killed} runs killed mid-sweep, ${inFlight} transfers in flight at a kill resolved by signature; journal ${outcomes.filter((s) => s === 'confirmed').length} confirmed, ${outcomes.filter((s) => s === 'expired').length} expired, ${outcomes.filter((s) => s === 'pending').length} pending`,
    );
    for (const statuses of journal.values())
      expect(statuses.filter((s) => s === 'confirmed')).toHaveLength(1);
    expect(outcomes).not.toContain('pending');
    expect(await balanceOf(server.url, treasury)).toBe(10n * (PRICE_LAMPORTS - FEE));
    for (const player of players) expect(await balanceOf(server.url, walletOf(player))).toBe(0n);
  }, 180_000);

  it('a node that cannot be reached is named with its URL and the cause; nothing is swept', async () => {
    const players = await payingPlayers('unreachable', 1);
    const treasury = Keypair.generate().publicKey.toBase58();
    const closed = `http://127.0.0.1:${await freePort()}/rpc`;
    const run = await treasuryCli(['--to', treasury, '--execute', '--rpc', closed]);
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `treasury: the chain node at ${closed} (--rpc, else SOLANA_RPC_URL) cannot be reached (ECONNREFUSED); nothing was swept`,
    );
    expect(await balanceOf(server.url, walletOf(players[0]!))).toBe(PRICE_LAMPORTS);
  });
});
