import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalChain, type LocalChain } from '../../../server/chain/localChain';

let dir = '';
const open: LocalChain[] = [];
const chainAt = (): LocalChain => {
  const chain = createLocalChain({ snapshotFile: join(dir, 'chain.bin') });
  open.push(chain);
  return chain;
};
const key = () => Keypair.generate().publicKey.toBase58();

afterEach(async () => {
  for (const chain of open.splice(0)) await chain.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('local chain files', () => {
  it('an airdrop answered before any snapshot is back after a restart without close', () => {
    dir = mkdtempSync(join(tmpdir(), 'smw-chain-'));
    const to = key();
    const first = chainAt();
    const result = first.airdrop(to, 2_000_000n);
    expect(result.ok).toBe(true);
    // No close, no snapshot: as after SIGKILL.
    expect(existsSync(join(dir, 'chain.bin'))).toBe(false);
    const second = chainAt();
    expect(second.getBalance(to)).toBe(2_000_000n);
    expect(second.signatureStatus(result.ok ? result.signature : '')).not.toBeNull();
  });

  it('a torn snapshot falls back to the previous one and the journal after it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'smw-chain-'));
    const a = key();
    const b = key();
    const first = chainAt();
    first.airdrop(a, 3_000_000n);
    await first.checkpoint();
    first.airdrop(b, 4_000_000n);
    await first.checkpoint();
    first.airdrop(a, 5_000_000n);
    const file = join(dir, 'chain.bin');
    expect(existsSync(`${file}.prev`)).toBe(true);
    // Half of the newest snapshot, as a crash in the middle of an in-place write leaves it.
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length >> 1));
    const second = chainAt();
    expect(second.getBalance(a)).toBe(8_000_000n);
    expect(second.getBalance(b)).toBe(4_000_000n);
  });

  it('an old torn meta file does not stop the chain from starting', () => {
    dir = mkdtempSync(join(tmpdir(), 'smw-chain-'));
    writeFileSync(join(dir, 'chain.bin.json'), '{"signatures":{"abc":3');
    const chain = chainAt();
    expect(chain.slot()).toBeGreaterThanOrEqual(0);
    expect(existsSync(join(dir, 'chain.bin.json'))).toBe(false);
  });

  it('snapshots are batched: 50 airdrops write the 1.4 MB snapshot at most once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'smw-chain-'));
    const chain = chainAt();
    for (let i = 0; i < 50; i += 1) chain.airdrop(key(), 1_000_000n + BigInt(i));
    expect(existsSync(join(dir, 'chain.bin'))).toBe(false);
    await chain.checkpoint();
    const written = statSync(join(dir, 'chain.bin')).mtimeMs;
    await chain.checkpoint();
    expect(statSync(join(dir, 'chain.bin')).mtimeMs).toBe(written);
  });
});
