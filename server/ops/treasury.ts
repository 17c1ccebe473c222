/**
 * The treasury sweep: moves the SOL of settled tickets' payment wallets to the studio's address.
 *
 *   npm run treasury -- sweep --to ADDRESS              dry run: what would move, nothing sent
 *   npm run treasury -- sweep --to ADDRESS --execute    sends the transfers
 *   (--rpc URL: the chain's JSON-RPC; default SOLANA_RPC_URL. For the in-process chain of
 *    LOCAL_CHAIN=1 or development, the running server's `http://HOST:PORT/rpc`.)
 *
 * Only wallets whose ticket is settled (ticket_paid_at set) are swept, each of its whole
 * confirmed balance less the fee: a system-account transfer that leaves the account at 0, which
 * the runtime allows (the account is then deleted). The ticket's record (paid amount, tier,
 * access) is in the database and stays as it is.
 *
 * Safe to re-run and to kill at any moment: each transfer is signed, then journaled in the
 * `sweeps` table (wallet, amount, blockhash, signature, the signed bytes) before it is sent. A
 * run first resolves the journal's pending transfers by their signature status: landed →
 * confirmed; unknown with a still valid blockhash → the same signed bytes sent again (a chain
 * never runs a signature twice); unknown after its blockhash expired → expired (it can never
 * land). A wallet with a pending transfer gets no new one, so no SOL is ever moved twice.
 */
import { resolve } from 'node:path';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  address,
  appendTransactionMessageInstruction,
  createKeyPairSignerFromBytes,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Blockhash,
} from '@solana/kit';
import { createRpcCaller, createRpcClient, type RpcCaller } from '../chain/rpcClient';
import { openExistingStore, storeOptionsFromEnv, type Store } from '../store/index';
import { loadSecrets } from '../store/secrets';
import { lamportsToSol } from '../../contract/lamports';
import { unseal } from '../secrets';
import { textTable } from './report';

/** The base fee of a one-signature transaction (5,000 lamports per signature). */
export const SWEEP_FEE_LAMPORTS = 5_000n;
/** How long a run waits between signature status checks of a transfer it sent. */
const CONFIRM_POLL_MS = 400;

type Candidate = { id: number; invite_code: string; payment_wallet_address: string };
type Pending = {
  id: number;
  user_id: number;
  wallet: string;
  lamports: string;
  signature: string;
  wire: string;
  last_valid_block_height: number;
};
export type SweepLine = {
  wallet: string;
  invite_code: string;
  balance: bigint;
  moves: bigint;
  status: 'would move' | 'swept' | 'in flight' | 'failed';
  signature?: string;
};

export type SweepOptions = {
  dataDir: string;
  /** DATABASE_URL: the shared Postgres; else `dataDir`'s SQLite. */
  databaseUrl?: string | undefined;
  to: string;
  rpcUrl: string;
  execute: boolean;
  /** Progress lines (each transfer as it is sent and confirmed). */
  say?: (line: string) => void;
};

export type SweepResult = {
  lines: SweepLine[];
  /** Pending transfers of an earlier run this run resolved, by outcome. */
  resolved: { confirmed: number; expired: number; failed: number; stillPending: number };
};

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export async function sweep(opts: SweepOptions): Promise<SweepResult> {
  const say = opts.say ?? (() => {});
  let destination: Address;
  try {
    destination = address(opts.to);
  } catch {
    throw new Error(`--to ${opts.to} is not a Solana address`);
  }
  const store = await openExistingStore({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl });
  const rpc = createRpcClient(opts.rpcUrl);
  const call = createRpcCaller(opts.rpcUrl);
  const chain: Chain = {
    rpc,
    call,
    blockHeight: () => call<number>('getBlockHeight', [{ commitment: 'confirmed' }]),
  };
  try {
    const { 'wallet-key': walletKey } = await loadSecrets(store, opts.dataDir, Date.now());
    const resolved = opts.execute
      ? await resolvePending(store, chain, say)
      : { confirmed: 0, expired: 0, failed: 0, stillPending: 0 };
    const candidates = await store.raw<Candidate>(
      store.db,
      `SELECT id, invite_code, payment_wallet_address FROM users
       WHERE ticket_paid_at IS NOT NULL ORDER BY id`,
    );
    if (candidates.some((c) => c.payment_wallet_address === destination))
      throw new Error('--to is a payment wallet of this server');
    const pendingOf = async (userId: number) =>
      (
        await store.raw<Pending>(
          store.db,
          "SELECT * FROM sweeps WHERE user_id = ? AND status = 'pending'",
          [userId],
        )
      )[0];
    const lines: SweepLine[] = [];
    for (const user of candidates) {
      const wallet = user.payment_wallet_address;
      const balance = await rpc.getBalance(wallet);
      const pending = await pendingOf(user.id);
      if (pending) {
        lines.push({
          wallet,
          invite_code: user.invite_code,
          balance,
          moves: BigInt(pending.lamports),
          status: 'in flight',
          signature: pending.signature,
        });
        continue;
      }
      if (balance <= SWEEP_FEE_LAMPORTS) continue;
      const moves = balance - SWEEP_FEE_LAMPORTS;
      const line: SweepLine = {
        wallet,
        invite_code: user.invite_code,
        balance,
        moves,
        status: 'would move',
      };
      lines.push(line);
      if (!opts.execute) continue;
      Object.assign(
        line,
        await sendSweep(store, chain, walletKey, user, destination, balance, say),
      );
    }
    return { lines, resolved };
  } finally {
    await store.close();
  }
}

/** The chain as the sweep uses it: the client, raw calls, and the current block height. */
type Chain = {
  rpc: ReturnType<typeof createRpcClient>;
  call: RpcCaller;
  blockHeight: () => Promise<number>;
};

/** Builds, journals, sends and confirms one wallet's transfer. */
async function sendSweep(
  store: Store,
  chain: Chain,
  walletKey: Buffer,
  user: Candidate,
  destination: Address,
  balance: bigint,
  say: (line: string) => void,
): Promise<Pick<SweepLine, 'status' | 'signature'>> {
  const [row] = await store.raw<{ s: string }>(
    store.db,
    'SELECT payment_wallet_secret AS s FROM users WHERE id = ?',
    [user.id],
  );
  if (!row) throw new Error(`No account holds ${user.payment_wallet_address}`);
  const secret = row.s;
  const from = await createKeyPairSignerFromBytes(unseal(walletKey, secret));
  if (from.address !== user.payment_wallet_address)
    throw new Error(`The sealed key of ${user.payment_wallet_address} is not that wallet's`);
  const moves = balance - SWEEP_FEE_LAMPORTS;
  const { blockhash, lastValidBlockHeight } = await chain.rpc.getLatestBlockhash();
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayerSigner(from, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: blockhash as Blockhash, lastValidBlockHeight: BigInt(lastValidBlockHeight) },
        m,
      ),
    (m) =>
      appendTransactionMessageInstruction(
        getTransferSolInstruction({ source: from, destination, amount: moves }),
        m,
      ),
  );
  const tx = await signTransactionMessageWithSigners(message);
  const signature = getSignatureFromTransaction(tx);
  const wire = getBase64EncodedWireTransaction(tx);
  // The journal first: whatever happens from here, a later run knows this signature.
  await store.raw(
    store.db,
    `INSERT INTO sweeps (user_id, wallet, destination, lamports, fee_lamports, blockhash,
       last_valid_block_height, signature, wire, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      user.id,
      user.payment_wallet_address,
      destination,
      moves.toString(),
      SWEEP_FEE_LAMPORTS.toString(),
      blockhash,
      lastValidBlockHeight,
      signature,
      wire,
      Date.now(),
    ],
  );
  say(`sending  ${user.payment_wallet_address}  ${lamportsToSol(moves)} SOL  ${signature}`);
  const outcome = await settle(store, chain, {
    signature,
    wire,
    last_valid_block_height: lastValidBlockHeight,
  });
  say(`${outcome.padEnd(8)} ${user.payment_wallet_address}  ${signature}`);
  return {
    status: outcome === 'confirmed' ? 'swept' : outcome === 'pending' ? 'in flight' : 'failed',
    signature,
  };
}

type Outcome = 'confirmed' | 'expired' | 'failed' | 'pending';

/** What the chain says of a signature: landed (ok or failed) at `confirmed` or better, or not yet. */
type Landing = 'ok' | 'failed' | 'unknown';

async function landingOf(call: RpcCaller, signature: string): Promise<Landing> {
  const answer = await call<{
    value: Array<{ err: unknown; confirmationStatus?: string | null } | null>;
  }>('getSignatureStatuses', [[signature], { searchTransactionHistory: true }]);
  const status = answer.value[0] ?? null;
  // 'processed' may still be rolled back with its fork: only confirmed or finalized decides.
  if (!status || status.confirmationStatus === 'processed') return 'unknown';
  return status.err === null ? 'ok' : 'failed';
}

/**
 * Drives one journaled transfer to an end: sends its signed bytes (again) while its blockhash is
 * valid and its signature unknown, and records the outcome. 'pending' when the chain could not be
 * asked or did not decide in time (the next run resolves it).
 */
async function settle(
  store: Store,
  chain: Chain,
  row: Pick<Pending, 'signature' | 'wire' | 'last_valid_block_height'>,
): Promise<Outcome> {
  const mark = async (outcome: Outcome): Promise<Outcome> => {
    await store.raw(
      store.db,
      "UPDATE sweeps SET status = ?, resolved_at = ? WHERE signature = ? AND status = 'pending'",
      [outcome, Date.now(), row.signature],
    );
    return outcome;
  };
  const landed = async (landing: Landing): Promise<Outcome | null> =>
    landing === 'ok' ? mark('confirmed') : landing === 'failed' ? mark('failed') : null;
  try {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const decided = await landed(await landingOf(chain.call, row.signature));
      if (decided) return decided;
      if ((await chain.blockHeight()) > row.last_valid_block_height)
        // Looked up once more: it may have landed just before its blockhash expired.
        return (
          (await landed(await landingOf(chain.call, row.signature))) ?? (await mark('expired'))
        );
      // Sent again until its signature is seen or its blockhash expires; a refusal (a copy
      // already processed, a wallet emptied meanwhile) decides nothing: only status or expiry.
      await chain.rpc.sendTransaction(row.wire).catch(() => undefined);
      if (attempt > 0) await sleep(CONFIRM_POLL_MS);
    }
  } catch {
    // The chain could not be asked: the transfer stays pending for the next run.
  }
  return 'pending';
}

/** Resolves the pending transfers an earlier (killed or failed) run left in the journal. */
async function resolvePending(
  store: Store,
  chain: Chain,
  say: (line: string) => void,
): Promise<SweepResult['resolved']> {
  const counts = { confirmed: 0, expired: 0, failed: 0, stillPending: 0 };
  const pending = await store.raw<Pending>(
    store.db,
    "SELECT * FROM sweeps WHERE status = 'pending' ORDER BY id",
  );
  for (const row of pending) {
    const outcome = await settle(store, chain, row);
    say(`journal  ${row.wallet}  ${row.signature}: ${outcome}`);
    if (outcome === 'pending') counts.stillPending += 1;
    else counts[outcome] += 1;
  }
  return counts;
}

export function sweepTable(result: SweepResult, execute: boolean): string {
  const { lines } = result;
  const total = lines
    .filter((l) => l.status === (execute ? 'swept' : 'would move'))
    .reduce((sum, l) => sum + l.moves, 0n);
  const table = textTable(
    ['payment wallet', 'invite code', 'balance SOL', 'moves SOL', 'status'],
    lines.map((l) => [
      l.wallet,
      l.invite_code,
      lamportsToSol(l.balance),
      lamportsToSol(l.moves),
      l.status,
    ]),
  );
  const { confirmed, expired, failed, stillPending } = result.resolved;
  const journal =
    confirmed + expired + failed + stillPending > 0
      ? `\nJournal of an earlier run: ${confirmed} confirmed, ${expired} expired, ${failed} failed, ${stillPending} still pending`
      : '';
  const verb = execute ? 'Swept' : 'Would sweep (dry run; --execute sends)';
  const count = lines.filter((l) => l.status === (execute ? 'swept' : 'would move')).length;
  return `${lines.length > 0 ? table : 'No settled payment wallet holds more than the fee.'}${journal}\n${verb}: ${count} wallet(s), ${lamportsToSol(total)} SOL (fee ${lamportsToSol(SWEEP_FEE_LAMPORTS)} SOL each)`;
}

/** A node that cannot be reached (fetch's own words say only `fetch failed`), named with its URL. */
function unreachable(error: unknown, rpcUrl: string): Error | undefined {
  if (!(error instanceof TypeError) || error.message !== 'fetch failed') return undefined;
  const cause =
    error.cause instanceof Error
      ? 'code' in error.cause
        ? String(error.cause.code)
        : error.cause.message
      : 'no answer';
  let shown = rpcUrl;
  try {
    const url = new URL(rpcUrl);
    url.username = '';
    url.password = '';
    shown = url.toString();
  } catch {
    // Not a URL: shown as given.
  }
  return new Error(
    `the chain node at ${shown} (--rpc, else SOLANA_RPC_URL) cannot be reached (${cause}); nothing was swept`,
  );
}

async function main(args: string[]): Promise<void> {
  const usage =
    'Usage: npm run treasury -- sweep --to ADDRESS [--execute] [--rpc URL] (DATA_DIR, SOLANA_RPC_URL)';
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const to = value('--to');
  if (args[0] !== 'sweep' || !to) {
    console.error(usage);
    process.exit(2);
  }
  const rpcUrl = value('--rpc') || process.env.SOLANA_RPC_URL;
  if (!rpcUrl)
    throw new Error(
      "No chain: set SOLANA_RPC_URL or pass --rpc (the running server's http://HOST:PORT/rpc for its in-process chain)",
    );
  const execute = args.includes('--execute');
  const dataDir = resolve(process.env.DATA_DIR || '.data');
  const result = await sweep({
    ...storeOptionsFromEnv(process.env, dataDir),
    to,
    rpcUrl,
    execute,
    say: (line) => console.log(line),
  }).catch((error: unknown) => {
    throw unreachable(error, rpcUrl) ?? error;
  });
  console.log(sweepTable(result, execute));
  if (result.lines.some((l) => l.status === 'failed' || l.status === 'in flight'))
    process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  await main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`treasury: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
