import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { buildTransfer } from '../../src/wallet/transfer';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Base58, written here so the check does not reuse the library under test. */
function base58(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

function shortVec(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let size = 0;
  for (;;) {
    const byte = bytes[at + size]!;
    value |= (byte & 0x7f) << (7 * size);
    size += 1;
    if ((byte & 0x80) === 0) return [value, size];
  }
}

/** Decodes a legacy message holding one System Program transfer. */
function decodeTransfer(message: Uint8Array) {
  let at = 3; // header: required signatures, readonly signed, readonly unsigned
  const [keyCount, keyLen] = shortVec(message, at);
  at += keyLen;
  const keys: string[] = [];
  for (let i = 0; i < keyCount; i += 1) {
    keys.push(base58(message.slice(at, at + 32)));
    at += 32;
  }
  const blockhash = base58(message.slice(at, at + 32));
  at += 32;
  const [ixCount, ixLen] = shortVec(message, at);
  at += ixLen;
  expect(ixCount).toBe(1);
  const programIndex = message[at]!;
  at += 1;
  const [accCount, accLen] = shortVec(message, at);
  at += accLen;
  const accounts = Array.from(message.slice(at, at + accCount));
  at += accCount;
  const [dataLen, dataLenSize] = shortVec(message, at);
  at += dataLenSize;
  const data = message.slice(at, at + dataLen);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    numSigners: message[0]!,
    program: keys[programIndex]!,
    from: keys[accounts[0]!]!,
    to: keys[accounts[1]!]!,
    instruction: view.getUint32(0, true),
    lamports: view.getBigUint64(4, true),
    blockhash,
  };
}

describe('the ticket transfer web3.js builds', () => {
  it('matches an independently decoded transfer: from, to, lamports, blockhash', async () => {
    const from = Keypair.generate();
    const to = Keypair.generate().publicKey.toBase58();
    const blockhash = base58(Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 0xff));
    for (const lamports of ['220000000', '15700000', '1', '1000000000000']) {
      const tx = await buildTransfer({
        fromPublicKey: from.publicKey.toBase58(),
        toAddress: to,
        lamports,
        blockhash,
        lastValidBlockHeight: 150,
      });
      tx.sign(from);
      const wire = new Uint8Array(tx.serialize());
      expect(wire[0]).toBe(1); // one signature
      const decoded = decodeTransfer(wire.slice(1 + 64));
      expect(decoded).toEqual({
        numSigners: 1,
        program: '11111111111111111111111111111111',
        from: from.publicKey.toBase58(),
        to,
        instruction: 2,
        lamports: BigInt(lamports),
        blockhash,
      });
    }
  });

  it('refuses a lamport amount that is not an integer', async () => {
    await expect(
      buildTransfer({
        fromPublicKey: Keypair.generate().publicKey.toBase58(),
        toAddress: Keypair.generate().publicKey.toBase58(),
        lamports: '15699999.999999998',
        blockhash: '11111111111111111111111111111111',
        lastValidBlockHeight: 1,
      }),
    ).rejects.toThrow(/integer/);
  });
});
