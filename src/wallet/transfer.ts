/**
 * The ticket transfer, built with @solana/web3.js loaded on demand: a static import would add
 * ~66 KB gzip to the landing page. `preloadWeb3()` warms the chunk when the Get Ticket tab opens
 * or a send button is hovered.
 */
import { retryableImport } from '../platform/retryableImport';
import { chunkFailed } from '../views/common/chunkRetry';

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

/** Fetched when the Get Ticket tab opens; a chunk that cannot load shows the retry notice. */
export function preloadWeb3(): void {
  void loadWeb3().catch(() => chunkFailed('wallet code', preloadWeb3));
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
