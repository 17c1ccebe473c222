import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { balanceOf, ROOT, rpc, serverProcess } from '../../support/serverProcess';

/**
 * `npm run chain -- airdrop ADDRESS SOL --rpc URL` (server/chain/airdrop.ts): a production
 * rehearsal on the in-process chain (LOCAL_CHAIN=1) funds a test wallet with it, using the key
 * in the server's data folder; without that key the server refuses; a real node (mainnet-beta by
 * its genesis hash, or any node that is not the project's local chain) is refused before any
 * airdrop is asked of it.
 */
const work = mkdtempSync(join(tmpdir(), 'smw-airdrop-'));
const server = serverProcess('airdrop', 'tsx');
afterEach(() => server.dispose());
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Run = { code: number | null; out: string; err: string };
const airdrop = (args: string[], dataDir: string): Promise<Run> =>
  new Promise((done) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/chain/main.ts', 'airdrop', ...args],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => done({ code, out, err }));
  });

/** A JSON-RPC endpoint of the test's that answers like a real node, noting every method asked. */
async function fakeNode(
  genesis: string,
): Promise<{ url: string; asked: string[]; server: Server }> {
  const asked: string[] = [];
  const node = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      asked.push(method);
      const answer =
        method === 'getGenesisHash'
          ? { jsonrpc: '2.0', id, result: genesis }
          : method === 'requestAirdrop'
            ? { jsonrpc: '2.0', id, result: 'a-signature' }
            : { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((ready) => node.listen(0, '127.0.0.1', ready));
  const { port } = node.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, asked, server: node };
}

describe('npm run chain -- airdrop', () => {
  it('funds a test wallet on a production rehearsal (LOCAL_CHAIN=1) with the data folder key, and only with it', async () => {
    const dataDir = mkdtempSync(join(work, 'rehearsal-'));
    const url = await server.start({
      DATA_DIR: dataDir,
      SERVER_MODE: 'production',
      LOCAL_CHAIN: '1',
      SOLANA_RPC_URL: '',
      SMTP_URL: '',
      MAIL_TRANSPORT: 'log',
    });
    const wallet = Keypair.generate().publicKey.toBase58();

    // A caller without the key (a page, or this command with another data folder): no SOL.
    const stranger = await airdrop(
      [wallet, '1.5', '--rpc', `${url}/rpc`],
      mkdtempSync(join(work, 'other-')),
    );
    expect(stranger.code).toBe(1);
    expect(stranger.err).toMatch(/refused the airdrop .*Method not found.*DATA_DIR/);
    const raw = await rpc(`${url}/rpc`, 'requestAirdrop', [wallet, 1_000_000_000]).catch(
      (error: unknown) => error,
    );
    expect(String(raw)).toMatch(/Method not found/);
    expect(await balanceOf(url, wallet)).toBe(0n);

    const funded = await airdrop([wallet, '1.5', '--rpc', `${url}/rpc`], dataDir);
    expect(funded.code, funded.err).toBe(0);
    expect(funded.out).toMatch(
      /^Airdropped 1\.5 SOL to \w+ on the local chain at .*; balance 1\.5 SOL/,
    );
    expect(await balanceOf(url, wallet)).toBe(1_500_000_000n);
  }, 60_000);

  it('refuses mainnet-beta by its genesis hash, and any node that is not the local chain, before asking an airdrop', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const dataDir = mkdtempSync(join(work, 'real-'));
    const mainnet = await fakeNode('5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d');
    const other = await fakeNode('7sGnWrmkAqGgS4Z7tYeBkZBqk6pqcBVjGLvV1KgxFgAd');
    try {
      const toMainnet = await airdrop([wallet, '1', '--rpc', mainnet.url], dataDir);
      expect(toMainnet.code).toBe(1);
      expect(toMainnet.err).toMatch(
        /is Solana mainnet-beta: airdrops are for the local chain only/,
      );
      expect(mainnet.asked).not.toContain('requestAirdrop');

      const toOther = await airdrop([wallet, '1', '--rpc', other.url], dataDir);
      expect(toOther.code).toBe(1);
      expect(toOther.err).toMatch(/is not the project's local chain \(a real node\)/);
      expect(other.asked).toEqual(['getGenesisHash', 'smw_localChain']);
    } finally {
      mainnet.server.close();
      other.server.close();
    }
  }, 30_000);
});
