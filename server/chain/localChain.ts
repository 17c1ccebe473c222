/**
 * The local Solana chain: LiteSVM in process. It has no RPC server of its own; rpcFacade.ts
 * puts a JSON-RPC face on it. State survives a restart through LiteSVM's own snapshot
 * (accounts, sysvars, transaction history) written to `<dataDir>/chain.bin` after every change.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  address,
  getBase58Decoder,
  getTransactionDecoder,
  lamports as toLamports,
} from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM, TransactionMetadata } from 'litesvm';

/** Blocks a blockhash stays valid for, as on mainnet (150 slots). */
export const BLOCKHASH_VALIDITY = 150;

export type ChainResult =
  | { ok: true; signature: string }
  | { ok: false; code: string; message: string; logs: string[]; signature: string | null };

export type SignatureStatus = { slot: number; err: string | null } | null;

export type LocalChain = {
  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number; slot: number };
  slot(): number;
  getBalance(pubkey: string): bigint;
  sendWireTransaction(wire: Uint8Array): ChainResult;
  airdrop(pubkey: string, lamports: bigint): ChainResult;
  signatureStatus(signature: string): SignatureStatus;
  minimumBalanceForRentExemption(dataLength: number): bigint;
  /** Transactions sent through sendWireTransaction that executed. */
  transactionCount(): number;
  /** Makes every blockhash handed out so far invalid (a slow approval on a real chain). */
  expireBlockhash(): void;
};

type Meta = { signatures: Record<string, number>; transactionCount: number };

const ERROR_MESSAGES: Record<string, string> = {
  BlockhashNotFound: 'Blockhash not found',
  AlreadyProcessed: 'This transaction has already been processed',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  SignatureFailure: 'Transaction did not pass signature verification',
};

function describeFailure(failed: FailedTransactionMetadata): { code: string; message: string } {
  const err = failed.err();
  const code = typeof err === 'number' ? fieldlessName(err) : err.toString();
  const logs = failed.meta().logs();
  if (logs.some((line) => /insufficient lamports/i.test(line)))
    return {
      code,
      message: 'Error processing Instruction 0: custom program error: 0x1 (insufficient funds)',
    };
  return { code, message: ERROR_MESSAGES[code] ?? code };
}

// The fieldless error enum is a const enum in the typings: map its numbers by hand.
const FIELDLESS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
];
function fieldlessName(n: number): string {
  return FIELDLESS[n] ?? `TransactionError(${n})`;
}

export function createLocalChain(options: { snapshotFile?: string } = {}): LocalChain {
  const file = options.snapshotFile;
  const metaFile = file ? `${file}.json` : undefined;
  let svm: LiteSVM;
  let meta: Meta = { signatures: {}, transactionCount: 0 };
  if (file && existsSync(file)) {
    svm = LiteSVM.fromBytes(readFileSync(file));
    if (metaFile && existsSync(metaFile)) meta = JSON.parse(readFileSync(metaFile, 'utf8')) as Meta;
  } else {
    svm = new LiteSVM();
  }
  const b58 = getBase58Decoder();
  const txDecoder = getTransactionDecoder();

  const persist = () => {
    if (!file || !metaFile) return;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, svm.toBytes());
    renameSync(`${file}.tmp`, file);
    writeFileSync(metaFile, JSON.stringify(meta));
  };
  const slot = () => Number(svm.getClock().slot);
  // Each executed transaction lands in its own slot, as on a real chain.
  const advance = () => svm.warpToSlot(svm.getClock().slot + 1n);

  const settle = (
    result: TransactionMetadata | FailedTransactionMetadata | null,
    counts: boolean,
  ): ChainResult => {
    if (result === null)
      return {
        ok: false,
        code: 'Unknown',
        message: 'Transaction failed',
        logs: [],
        signature: null,
      };
    if (result instanceof FailedTransactionMetadata) {
      const { code, message } = describeFailure(result);
      return { ok: false, code, message, logs: result.meta().logs(), signature: null };
    }
    const signature = b58.decode(result.signature());
    meta.signatures[signature] = slot();
    if (counts) meta.transactionCount += 1;
    advance();
    persist();
    return { ok: true, signature };
  };

  return {
    latestBlockhash: () => ({
      blockhash: svm.latestBlockhash(),
      lastValidBlockHeight: slot() + BLOCKHASH_VALIDITY,
      slot: slot(),
    }),
    slot,
    getBalance: (pubkey) => svm.getBalance(address(pubkey)) ?? 0n,
    sendWireTransaction(wire) {
      let tx;
      try {
        tx = txDecoder.decode(wire);
      } catch {
        return {
          ok: false,
          code: 'SanitizeFailure',
          message: 'failed to deserialize transaction',
          logs: [],
          signature: null,
        };
      }
      try {
        return settle(svm.sendTransaction(tx), true);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, code: 'SignatureFailure', message, logs: [], signature: null };
      }
    },
    airdrop: (pubkey, lamports) =>
      settle(svm.airdrop(address(pubkey), toLamports(lamports)), false),
    signatureStatus(signature) {
      const landed = meta.signatures[signature];
      return landed === undefined ? null : { slot: landed, err: null };
    },
    minimumBalanceForRentExemption: (len) => svm.minimumBalanceForRentExemption(BigInt(len)),
    transactionCount: () => meta.transactionCount,
    expireBlockhash() {
      svm.expireBlockhash();
      persist();
    },
  };
}
