/**
 * The development wallet (development mode with the local chain only): one keypair kept in the
 * data folder and funded by airdrop on the local chain. The local-mode build of the site fetches
 * it and injects a Phantom/Solflare-like provider that signs with it, so `npm start` can be paid
 * end to end without a browser extension. The key holds local-chain SOL only, worth nothing.
 */
import { Keypair } from '@solana/web3.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEV_WALLET_PATH, devWalletSchema } from '../contract/api';
import { object } from '../contract/schema';
import type { ApiRoute, ServerContext } from './context';
import { HttpError } from './http';

/** Kept above this, topped up to DEV_WALLET_FUNDING. */
const DEV_WALLET_LOW = 5_000_000_000n;
const DEV_WALLET_FUNDING = 100_000_000_000n;

function loadKeypair(dataDir: string): Keypair {
  const file = join(dataDir, 'dev-wallet.json');
  if (existsSync(file)) {
    const bytes = JSON.parse(readFileSync(file, 'utf8')) as number[];
    return Keypair.fromSecretKey(Uint8Array.from(bytes));
  }
  const keypair = Keypair.generate();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(Array.from(keypair.secretKey)), { mode: 0o600 });
  return keypair;
}

export async function fundedDevWallet(ctx: ServerContext): Promise<Keypair> {
  const keypair = loadKeypair(ctx.config.dataDir);
  const rpc = ctx.services.rpc;
  if (!rpc) throw new HttpError(503, 'Network connection failed');
  const pubkey = keypair.publicKey.toBase58();
  const balance = await rpc.getBalance(pubkey);
  if (balance < DEV_WALLET_LOW) await rpc.requestAirdrop(pubkey, DEV_WALLET_FUNDING - balance);
  return keypair;
}

export const devWalletRoute: ApiRoute<Record<string, never>> = {
  method: 'POST',
  path: DEV_WALLET_PATH,
  protected: false,
  devOnly: true,
  request: object({}),
  response: devWalletSchema,
  async handle(ctx) {
    const keypair = await fundedDevWallet(ctx);
    return {
      public_key: keypair.publicKey.toBase58(),
      secret_key: Buffer.from(keypair.secretKey).toString('base64'),
      rpc_path: '/rpc',
    };
  },
};
