/**
 * The development wallet (development mode with the local chain only): one keypair kept in the
 * data folder and funded by airdrop on the local chain. The local-mode build of the site fetches
 * it and injects a Phantom/Solflare-like provider that signs with it, so `npm start` can be paid
 * end to end without a browser extension. The key holds local-chain SOL only, worth nothing.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEV_WALLET_PATH, devWalletSchema } from '../contract/api';
import { object } from '../contract/schema';
import { addressOfSecretKey, newSecretKey } from './chain/keys';
import type { ApiRoute, ServerContext } from './context';
import { HttpError } from './http';

/** Kept above this, topped up to DEV_WALLET_FUNDING. */
const DEV_WALLET_LOW = 5_000_000_000n;
const DEV_WALLET_FUNDING = 100_000_000_000n;

type DevWallet = { address: string; secretKey: Uint8Array };

/** The wallet's 64-byte secret key, kept in the data folder (made on first use). */
async function loadWallet(dataDir: string): Promise<DevWallet> {
  const file = join(dataDir, 'dev-wallet.json');
  const stored = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  let secretKey: Uint8Array;
  if (stored !== undefined) secretKey = Uint8Array.from(JSON.parse(stored) as number[]);
  else {
    secretKey = newSecretKey();
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(Array.from(secretKey)), { mode: 0o600 });
  }
  return { address: addressOfSecretKey(secretKey), secretKey };
}

async function fundedDevWallet(ctx: ServerContext): Promise<DevWallet> {
  const wallet = await loadWallet(ctx.config.dataDir);
  const rpc = ctx.services.rpc;
  if (!rpc) throw new HttpError(503, 'Network connection failed');
  const balance = await rpc.getBalance(wallet.address);
  if (balance < DEV_WALLET_LOW)
    await rpc.requestAirdrop(wallet.address, DEV_WALLET_FUNDING - balance);
  return wallet;
}

export const devWalletRoute: ApiRoute<Record<string, never>> = {
  method: 'POST',
  path: DEV_WALLET_PATH,
  protected: false,
  devOnly: true,
  request: object({}),
  response: devWalletSchema,
  async handle(ctx) {
    const wallet = await fundedDevWallet(ctx);
    return {
      public_key: wallet.address,
      secret_key: Buffer.from(wallet.secretKey).toString('base64'),
      rpc_path: '/rpc',
    };
  },
};
