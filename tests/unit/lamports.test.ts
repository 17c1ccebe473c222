import { describe, expect, it } from 'vitest';
import {
  lamportsToSol,
  lamportsToSolFixed,
  percentOff,
  solToLamports,
  ticketPriceLamports,
} from '../../src/wallet/lamports';

/** A price text from integer lamports, written independently of the code under test. */
function priceText(lamports: bigint): string {
  const s = lamports.toString().padStart(10, '0');
  const whole = s.slice(0, -9).replace(/^0+(?=\d)/, '');
  const frac = s.slice(-9).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

describe('SOL price text to integer lamports', () => {
  it('converts at least 100,000 prices between 0.000000001 and 1000 SOL exactly', () => {
    // A deterministic sweep: a 64-bit LCG over [1, 1e12] lamports plus the edges.
    let seed = 0x2545f4914f6cdd1dn;
    const max = 1_000_000_000_000n;
    const samples: bigint[] = [1n, 10n, max, max - 1n, 15_700_000n, 220_000_000n];
    while (samples.length < 100_000) {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
      samples.push((seed % max) + 1n);
    }
    let floatFailures = 0;
    for (const lamports of samples) {
      const text = priceText(lamports);
      expect(solToLamports(text)).toBe(lamports);
      expect(lamportsToSol(lamports)).toBe(text);
      if (!Number.isInteger(Number(text) * 1e9)) floatFailures += 1;
    }
    // The float route really does fail on this sweep, which is why the integer route exists.
    expect(floatFailures).toBeGreaterThan(0);
  });

  it('parses the spec prices and refuses what is not a plain decimal', () => {
    expect(solToLamports('0.22')).toBe(220_000_000n);
    expect(solToLamports('0.0157')).toBe(15_700_000n);
    expect(solToLamports('0.55')).toBe(550_000_000n);
    expect(solToLamports('1')).toBe(1_000_000_000n);
    expect(solToLamports('0.2200000000')).toBe(220_000_000n);
    for (const bad of ['', '.', 'abc', '-1', '1e-3', '0.0000000001', '1,5'])
      expect(solToLamports(bad)).toBeNull();
  });

  it('shows amounts with 2 decimals and the percent off', () => {
    expect(lamportsToSolFixed(220_000_000n, 2)).toBe('0.22');
    expect(lamportsToSolFixed(219_999_999n, 2)).toBe('0.22');
    expect(lamportsToSolFixed(5_000_000n, 2)).toBe('0.01');
    expect(percentOff(550_000_000n, 220_000_000n)).toBe(60);
    expect(percentOff(550_000_000n, 330_000_000n)).toBe(40);
    expect(percentOff(550_000_000n, 550_000_000n)).toBe(0);
  });

  it('takes the ticket price from public data, else 0.22 SOL', () => {
    expect(ticketPriceLamports({})).toBe(220_000_000n);
    expect(ticketPriceLamports({ ticket_price: '0.33' })).toBe(330_000_000n);
    expect(ticketPriceLamports({ ticket_price_lamports: '550000000', ticket_price: '0.33' })).toBe(
      550_000_000n,
    );
  });
});
