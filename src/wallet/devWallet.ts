/**
 * SMW_DEV_WALLET — development and local-mode builds only (a test checks that no production
 * file contains this marker). A provider that behaves like Phantom and Solflare, signing with
 * the local server's development keypair (funded by airdrop on the local chain) and sending
 * through the local chain's JSON-RPC, so the ticket can be paid end to end with `npm start`.
 * It lives under its own name (`window.__smwLocalWallet`), behind its own button; it never
 * fills `window.phantom` or `window.solflare`, so Send in Phantom / Send in Solflare follow the
 * spec whatever the build (no extension → "… wallet not detected").
 */
import { DEV_WALLET_PATH, devWalletSchema } from '../../contract/api';
import { defaultBaseUrl } from '../api/client';
import { parse } from '../../contract/schema';
import { loadWeb3 } from './transfer';

const DEV_WALLET_MARKER = 'SMW_DEV_WALLET';

type DevKey = { publicKey: string; secretKey: Uint8Array; rpcUrl: string };
let key: Promise<DevKey> | null = null;

function walletError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

async function loadKey(): Promise<DevKey> {
  const base = new URL(defaultBaseUrl(), window.location.href);
  const response = await fetch(new URL(DEV_WALLET_PATH, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const checked = parse(devWalletSchema, await response.json());
  if (!response.ok || !checked.ok) throw walletError(4900, 'Development wallet unavailable');
  const secret = Uint8Array.from(atob(checked.value.secret_key), (c) => c.charCodeAt(0));
  return {
    publicKey: checked.value.public_key,
    secretKey: secret,
    rpcUrl: new URL(checked.value.rpc_path, base.origin).href,
  };
}

function base64(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}

function createProvider() {
  const provider = {
    isDevWallet: DEV_WALLET_MARKER,
    publicKey: null as { toBase58(): string; toString(): string } | null,
    async connect() {
      key ??= loadKey().catch((error: unknown) => {
        key = null;
        throw error;
      });
      const { publicKey } = await key;
      provider.publicKey = { toBase58: () => publicKey, toString: () => publicKey };
      return { publicKey: provider.publicKey };
    },
    async signAndSendTransaction(transaction: unknown) {
      if (!key) throw walletError(4100, 'Not connected');
      const dev = await key;
      const { Keypair, Transaction } = await loadWeb3();
      if (!(transaction instanceof Transaction))
        throw walletError(-32602, 'Unsupported transaction');
      transaction.sign(Keypair.fromSecretKey(dev.secretKey));
      const response = await fetch(dev.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'sendTransaction',
          params: [base64(transaction.serialize()), { encoding: 'base64' }],
        }),
      });
      const body = (await response.json()) as { result?: string; error?: { message?: string } };
      if (body.error || !body.result)
        throw walletError(-32603, body.error?.message ?? 'Transaction failed');
      return { signature: body.result };
    },
  };
  return provider;
}

type DevWindow = Window & { __smwDevWallet?: boolean; __smwLocalWallet?: unknown };

export function installDevWallet(win: DevWindow = window): void {
  // Tests that need no development wallet at all switch it off.
  if (win.__smwDevWallet === false) return;
  win.__smwLocalWallet ??= createProvider();
}
