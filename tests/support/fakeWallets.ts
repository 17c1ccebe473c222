import type { Page } from '@playwright/test';
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { rpc } from './rpc';

/**
 * Injected Phantom and Solflare providers for browser tests, installed before the site's scripts
 * run (page.addInitScript). They behave like the real extensions where the site can tell:
 *
 * - `connect()` answers `{ publicKey }` (an object with toBase58 / toString);
 * - `signAndSendTransaction(tx)` signs the transaction's message bytes with a real Ed25519 key
 *   (WebCrypto), sends it through the local chain's JSON-RPC (`sendTransaction`, base64) and
 *   answers `{ signature }` (Phantom) or the signature string itself (Solflare);
 * - a refusal rejects with the wallet's error (`{ code: 4001, message }`), a failed send rejects
 *   with code -32603 and the node's message, as the extensions do.
 *
 * The development wallet of the local-mode build is switched off (`window.__smwDevWallet =
 * false`), so only these providers exist. `window.__fakeWalletCalls` counts what happened.
 */
type WalletKind = 'phantom' | 'solflare';
type WalletError = { code?: number; message: string };

export type FakeWalletOptions = {
  /** Which providers are injected; [] = no wallet extension at all. */
  wallets: WalletKind[];
  /** The 32-byte Ed25519 seed of the paying key, and its base58 public key. */
  seed?: number[];
  publicKey?: string;
  /** The local chain's JSON-RPC path on the site's origin. */
  rpcPath?: string;
  /** The user refuses the connection / the approval. */
  connectError?: WalletError;
  signError?: WalletError;
  /** The approval takes so long that the blockhash expires first (local chain test control). */
  expireBlockhashBeforeSend?: boolean;
  /** Milliseconds the approval popup stays open before the user approves. */
  approvalDelayMs?: number;
};

export type FakeWalletCalls = { connect: number; sign: number; sent: string[] };

export type TestKey = { keypair: Keypair; publicKey: string; seed: number[] };

export function newTestKey(): TestKey {
  const keypair = Keypair.generate();
  return {
    keypair,
    publicKey: keypair.publicKey.toBase58(),
    seed: Array.from(keypair.secretKey.slice(0, 32)),
  };
}

/** Funds a key on the local chain through the JSON-RPC `requestAirdrop`. */
export async function airdrop(baseUrl: string, publicKey: string, lamports: number): Promise<void> {
  await rpc(baseUrl, 'requestAirdrop', [publicKey, lamports]);
}

export async function getBalance(baseUrl: string, publicKey: string): Promise<number> {
  const result = await rpc<{ value: number }>(baseUrl, 'getBalance', [publicKey]);
  return result.value;
}

/**
 * Sends SOL from a test key to `to` straight through the local chain's JSON-RPC, as any wallet
 * app would: no page, no extension, no development wallet. Answers the signature.
 */
export async function sendSol(
  baseUrl: string,
  from: TestKey,
  to: string,
  lamports: number,
): Promise<string> {
  const latest = (await rpc(baseUrl, 'getLatestBlockhash', [])) as {
    value: { blockhash: string; lastValidBlockHeight: number };
  };
  const tx = new Transaction({
    feePayer: from.keypair.publicKey,
    blockhash: latest.value.blockhash,
    lastValidBlockHeight: latest.value.lastValidBlockHeight,
  }).add(
    SystemProgram.transfer({
      fromPubkey: from.keypair.publicKey,
      toPubkey: new PublicKey(to),
      lamports,
    }),
  );
  tx.sign(from.keypair);
  const wire = tx.serialize().toString('base64');
  return String(await rpc(baseUrl, 'sendTransaction', [wire, { encoding: 'base64' }]));
}

/** Transactions processed by the local chain so far. */
export async function transactionCount(baseUrl: string): Promise<number> {
  return Number(await rpc(baseUrl, 'getTransactionCount', []));
}

/** Runs in the page, before the site's own scripts: no imports, no closures over test code. */
function installInPage(opts: FakeWalletOptions): void {
  type Tx = {
    feePayer?: { toBase58(): string } | null;
    serializeMessage(): Uint8Array;
    addSignature(pubkey: unknown, signature: Uint8Array): void;
    serialize(): Uint8Array;
  };
  const w = window as unknown as Record<string, unknown>;
  w.__smwDevWallet = false;
  const calls: FakeWalletCalls = { connect: 0, sign: 0, sent: [] };
  w.__fakeWalletCalls = calls;

  const walletError = (e: { code?: number; message: string }) =>
    Object.assign(new Error(e.message), e.code === undefined ? {} : { code: e.code });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const base64 = (bytes: Uint8Array) => {
    let text = '';
    for (const b of bytes) text += String.fromCharCode(b);
    return btoa(text);
  };
  const rpcCall = async (method: string, params: unknown[]) => {
    const response = await fetch(opts.rpcPath ?? '/rpc', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return (await response.json()) as { result?: unknown; error?: { message: string } };
  };
  // PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410).
  const pkcs8 = (seed: number[]) =>
    Uint8Array.from([
      0x30,
      0x2e,
      0x02,
      0x01,
      0x00,
      0x30,
      0x05,
      0x06,
      0x03,
      0x2b,
      0x65,
      0x70,
      0x04,
      0x22,
      0x04,
      0x20,
      ...seed,
    ]);

  const create = (kind: 'phantom' | 'solflare') => {
    const key = opts.publicKey ?? '';
    const publicKey = { toBase58: () => key, toString: () => key };
    const provider = {
      isPhantom: kind === 'phantom' ? true : undefined,
      isSolflare: kind === 'solflare' ? true : undefined,
      isConnected: false,
      publicKey: null as typeof publicKey | null,
      async connect() {
        calls.connect += 1;
        await sleep(50);
        if (opts.connectError) throw walletError(opts.connectError);
        provider.isConnected = true;
        provider.publicKey = publicKey;
        return { publicKey };
      },
      async signAndSendTransaction(transaction: unknown) {
        calls.sign += 1;
        if (!provider.isConnected) throw walletError({ code: 4100, message: 'Unauthorized' });
        if (opts.approvalDelayMs) await sleep(opts.approvalDelayMs);
        if (opts.signError) throw walletError(opts.signError);
        if (opts.expireBlockhashBeforeSend) await rpcCall('litesvm_expireBlockhash', []);
        const tx = transaction as Tx;
        if (tx.feePayer?.toBase58() !== key)
          throw walletError({ code: -32602, message: 'The fee payer is not this wallet' });
        const signingKey = await crypto.subtle.importKey(
          'pkcs8',
          pkcs8(opts.seed ?? []),
          { name: 'Ed25519' },
          false,
          ['sign'],
        );
        const message = Uint8Array.from(tx.serializeMessage());
        const signature = new Uint8Array(
          await crypto.subtle.sign({ name: 'Ed25519' }, signingKey, message),
        );
        tx.addSignature(tx.feePayer, signature);
        const answer = await rpcCall('sendTransaction', [
          base64(tx.serialize()),
          { encoding: 'base64' },
        ]);
        if (answer.error || typeof answer.result !== 'string')
          throw walletError({ code: -32603, message: answer.error?.message ?? 'Unexpected error' });
        calls.sent.push(answer.result);
        return kind === 'phantom' ? { signature: answer.result, publicKey } : answer.result;
      },
    };
    return provider;
  };

  if (opts.wallets.includes('phantom')) w.phantom = { solana: create('phantom') };
  if (opts.wallets.includes('solflare')) w.solflare = create('solflare');
}

export async function installFakeWallets(page: Page, opts: FakeWalletOptions): Promise<void> {
  await page.addInitScript(installInPage, opts);
}

export async function fakeWalletCalls(page: Page): Promise<FakeWalletCalls> {
  return page.evaluate(
    () => (window as unknown as { __fakeWalletCalls: FakeWalletCalls }).__fakeWalletCalls,
  );
}
