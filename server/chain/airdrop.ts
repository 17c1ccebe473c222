/**
 * `npm run chain -- airdrop ADDRESS SOL [--rpc URL]`: funds a test wallet on the project's local
 * chain for a rehearsal, and on nothing else.
 *
 * - The standalone chain (`npm run chain`, default http://127.0.0.1:8899/rpc) airdrops to anyone.
 * - A production server with LOCAL_CHAIN=1 (`--rpc http://HOST:PORT/rpc`) airdrops only to this
 *   command, which sends the key the server keeps in its data folder (DATA_DIR/REHEARSAL_KEY_FILE,
 *   owner-only): a player's page can never ask for free SOL.
 * - Any other endpoint is refused before anything is asked of it but who it is: the local chain
 *   answers `smw_localChain`; a real node does not (and mainnet-beta, devnet or testnet are named
 *   by their genesis hash).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lamportsToSol } from '../../contract/lamports';
import { solToLamports } from '../../contract/money';
import { createRpcCaller, RpcCallError } from './rpcClient';
import { LOCAL_CHAIN_METHOD } from './rpcFacade';

export const REHEARSAL_KEY_FILE = 'rehearsal-airdrop.key';
const DEFAULT_CHAIN_RPC = 'http://127.0.0.1:8899/rpc';

/** Genesis hashes of the public clusters (a real chain: never airdropped to by this command). */
const CLUSTERS: Readonly<Record<string, string>> = {
  '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d': 'Solana mainnet-beta',
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG: 'Solana devnet',
  '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY': 'Solana testnet',
};

const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

type AirdropResult = { signature: string; balance: bigint };

/** Refuses `rpcUrl` unless it is the project's local chain; then airdrops `sol` to `address`. */
async function rehearsalAirdrop(
  rpcUrl: string,
  address: string,
  sol: string,
  dataDir: string,
): Promise<AirdropResult> {
  if (!ADDRESS.test(address)) throw new Error(`${address} is not a Solana address`);
  const lamports = solToLamports(sol);
  if (lamports === null || lamports <= 0n)
    throw new Error(`${sol} is not an amount of SOL like 1.5`);
  const call = createRpcCaller(rpcUrl, { timeoutMs: 5_000 });
  const genesis = await call<string>('getGenesisHash', []).catch(() => undefined);
  const cluster = genesis ? CLUSTERS[genesis] : undefined;
  if (cluster) throw new Error(`${rpcUrl} is ${cluster}: airdrops are for the local chain only`);
  const local = await call<{ local?: unknown }>(LOCAL_CHAIN_METHOD, []).catch((error: unknown) => {
    if (error instanceof RpcCallError && error.code !== -32000) return undefined;
    throw new Error(
      `${rpcUrl} does not answer (${error instanceof Error ? error.message : String(error)})`,
    );
  });
  if (local?.local !== true)
    throw new Error(
      `${rpcUrl} is not the project's local chain (a real node): airdrops are for the local chain only`,
    );
  const keyFile = join(dataDir, REHEARSAL_KEY_FILE);
  const key = existsSync(keyFile)
    ? Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64').toString('base64url')
    : undefined;
  const signature = await call<string>('requestAirdrop', [
    address,
    Number(lamports),
    ...(key ? [{ rehearsalKey: key }] : []),
  ]).catch((error: unknown) => {
    throw new Error(
      `${rpcUrl} refused the airdrop (${error instanceof Error ? error.message : String(error)})${key ? '' : `; a production server's chain needs its key: run this with that server's DATA_DIR (no ${keyFile})`}`,
    );
  });
  const balance = await call<{ value: number }>('getBalance', [address]);
  return { signature, balance: BigInt(balance.value) };
}

export async function airdropCommand(args: string[]): Promise<void> {
  const [address, sol, ...rest] = args;
  const at = rest.indexOf('--rpc');
  const rpcUrl = (at >= 0 ? rest[at + 1] : undefined) ?? DEFAULT_CHAIN_RPC;
  if (!address || !sol) {
    console.error(
      `Usage: npm run chain -- airdrop ADDRESS SOL [--rpc URL] (default ${DEFAULT_CHAIN_RPC}; a production server with LOCAL_CHAIN=1: --rpc http://HOST:PORT/rpc and its DATA_DIR)`,
    );
    process.exit(2);
  }
  try {
    const done = await rehearsalAirdrop(
      rpcUrl,
      address,
      sol,
      resolve(process.env.DATA_DIR || '.data'),
    );
    console.log(
      `Airdropped ${sol} SOL to ${address} on the local chain at ${rpcUrl} (${done.signature}); balance ${lamportsToSol(done.balance)} SOL`,
    );
  } catch (error) {
    console.error(`airdrop: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
