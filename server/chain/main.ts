/**
 * `npm run chain`: the local chain (LiteSVM behind its JSON-RPC) as a process of its own, for a
 * rehearsal on several instances: every instance points SOLANA_RPC_URL at the URL it prints.
 * CHAIN_DIR (default `.data/chain`) keeps its snapshot and journal across restarts; CHAIN_PORT
 * (default 8899) and CHAIN_HOST (default 127.0.0.1) say where it listens. Test controls (the
 * airdrop a rehearsal funds its test wallets with) are on: this is never a real chain.
 *
 * `npm run chain -- airdrop ADDRESS SOL [--rpc URL]` funds a test wallet on this chain, or on a
 * production server's in-process chain (LOCAL_CHAIN=1), and refuses any real node (./airdrop.ts).
 */
import { join, resolve } from 'node:path';
import Fastify from 'fastify';
import { airdropCommand } from './airdrop';
import { createLocalChain } from './localChain';
import { createRpcFacade } from './rpcFacade';
import { registerRpcRoute } from './rpcRoute';

if (process.argv[2] === 'airdrop') {
  await airdropCommand(process.argv.slice(3));
  process.exit(0);
}

const env = process.env;
const port = Number(env.CHAIN_PORT ?? '8899');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`CHAIN_PORT must be a port number, got ${env.CHAIN_PORT}`);
  process.exit(2);
}
const dir = resolve(env.CHAIN_DIR || '.data/chain');
const chain = createLocalChain({
  snapshotFile: join(dir, 'chain.bin'),
  warn: (message) => console.warn(message),
});
const app = Fastify({ bodyLimit: 1024 * 1024 });
registerRpcRoute(app, createRpcFacade(chain, { testControls: true }));
// A JSON-RPC client posts to the URL itself.
app.post('/', async (req, reply) => reply.code(307).header('Location', '/rpc').send());
try {
  await app.listen({ port, host: env.CHAIN_HOST || '127.0.0.1' });
} catch (error) {
  console.error(
    `Could not start the chain: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
const address = app.server.address();
const shown = typeof address === 'object' && address ? address.port : port;
console.log(
  `Local chain JSON-RPC at http://${env.CHAIN_HOST || '127.0.0.1'}:${shown}/rpc (data in ${dir})`,
);
let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping the chain`);
  void app
    .close()
    .then(() => chain.close())
    .then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
