/**
 * The ticket transfer, built with @solana/web3.js loaded on demand: a static import would add
 * ~66 KB gzip to the landing page. `preloadWeb3()` fetches the chunk when the Get Ticket tab opens
 * or a send button is hovered; it runs when a transfer is built.
 */
import { listedFiles } from '../platform/pagePreloads';
import { retryableImport } from '../platform/retryableImport';
import { chunkFailed } from '../platform/chunkRetry';

export type TransferParams = {
  fromPublicKey: string;
  toAddress: string;
  /** Integer lamports as a decimal string (never a float). */
  lamports: string;
  blockhash: string;
  lastValidBlockHeight: number | undefined;
};

type Web3 = typeof import('@solana/web3.js');
let web3: Promise<Web3> | null = null;
const web3Chunk = retryableImport(() => import('@solana/web3.js'));

export function loadWeb3(): Promise<Web3> {
  web3 ??= web3Chunk().catch((error: unknown) => {
    web3 = null;
    throw error;
  });
  return web3;
}

let fetchedAhead: Promise<void> | null = null;

/**
 * Fetched when the Get Ticket tab opens, not run: running the library is one long task (about
 * 160 ms on the bench's phone profile) that would freeze the home a second after it appears, so it
 * waits for the transfer that needs it, which then reads the files from the HTTP cache (the
 * server marks /assets/ immutable). A plain fetch rather than a modulepreload: a failed
 * modulepreload stays in the page's module map and would fail the send too. A file that cannot
 * load shows the retry notice. Without the build's list the library is loaded and run now.
 */
export function preloadWeb3(): void {
  if (web3 || fetchedAhead) return;
  // The wallet library's files the build listed for this page; none on the dev server.
  const files = listedFiles('wallet');
  if (files.length === 0) {
    void loadWeb3().catch((error: unknown) => chunkFailed('wallet code', preloadWeb3, error));
    return;
  }
  fetchedAhead = Promise.all(
    files.map(async (file) => {
      // The file's address in the error: the page asks the server for that file (chunkRetry).
      const address = new URL(file, window.location.href).href;
      const response = await fetch(file, { priority: 'low' }).catch((cause: unknown) => {
        throw new Error(`${address} could not load`, { cause });
      });
      if (!response.ok) throw new Error(`${address} answered ${response.status}`);
      // Read whole, so the whole file is in the cache.
      await response.arrayBuffer();
    }),
  ).then(
    () => undefined,
    (error: unknown) => {
      fetchedAhead = null;
      // A transfer already loading the library reports its own failure.
      if (web3) return;
      console.error('[wallet] the wallet code could not load', error);
      chunkFailed('wallet code', preloadWeb3, error);
    },
  );
}

export async function buildTransfer(params: TransferParams) {
  if (!/^\d+$/.test(params.lamports))
    throw new Error(`Not an integer lamport amount: ${params.lamports}`);
  const { PublicKey, SystemProgram, Transaction } = await loadWeb3();
  const fromPubkey = new PublicKey(params.fromPublicKey);
  const toPubkey = new PublicKey(params.toAddress);
  const tx = new Transaction({
    feePayer: fromPubkey,
    blockhash: params.blockhash,
    // Unknown height: the wallet's own expiry check still applies.
    lastValidBlockHeight: params.lastValidBlockHeight ?? 0,
  });
  tx.add(SystemProgram.transfer({ fromPubkey, toPubkey, lamports: BigInt(params.lamports) }));
  return tx;
}
