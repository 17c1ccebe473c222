import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lamportsToSol, lamportsToSolFixed } from '../../contract/lamports';
import { isPositiveSol, percentOff, solToLamports, validPrice } from '../../contract/money';
import { assertProperty, propertyRuns } from '../support/paths/property';

/**
 * SOL amounts (§9 prices, the receipt's amount, the percent off): the one money module, checked
 * against references written here another way (digits without the point; ratios as numbers).
 */
const RUNS = propertyRuns() * 10;

/** A price text from integer lamports: the digits, the point put back 9 places from the end. */
function priceText(lamports: bigint): string {
  const s = lamports.toString().padStart(10, '0');
  const whole = s.slice(0, -9).replace(/^0+(?=\d)/, '');
  const frac = s.slice(-9).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/** Reference parse: drop the point, scale the integer by the decimals it lacks (null past 9). */
function referenceLamports(text: string): bigint | null {
  const t = text.trim();
  if (!/^\d*\.?\d*$/.test(t) || !/\d/.test(t)) return null;
  const [whole = '', frac = ''] = t.split('.');
  if (whole.length > 12) return null;
  const significant = frac.replace(/0+$/, '');
  if (significant.length > 9) return null;
  return BigInt(`${whole}${significant}` || '0') * 10n ** BigInt(9 - significant.length);
}

describe('SOL text to integer lamports', () => {
  it('converts at least 100,000 prices between 0.000000001 and 1000 SOL exactly, and back', () => {
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

  it('agrees with the reference on any text of digits, points, blanks and signs', () => {
    const texts = fc.stringMatching(/^ ?[0-9]{0,14}\.?[0-9]{0,12} ?$|^[-+e.,0-9 ]{0,8}$/);
    assertProperty(
      'money: solToLamports against the reference',
      fc.property(texts, (text) => {
        expect(solToLamports(text), JSON.stringify(text)).toBe(referenceLamports(text));
      }),
      { runs: RUNS },
    );
  });

  it('reads the spec prices, the short forms, and refuses parts of a lamport', () => {
    expect(solToLamports('0.22')).toBe(220_000_000n);
    expect(solToLamports('0.0157')).toBe(15_700_000n);
    expect(solToLamports('1.000000001')).toBe(1_000_000_001n);
    expect(solToLamports('0.2200000000')).toBe(220_000_000n);
    expect(solToLamports('.5')).toBe(500_000_000n);
    expect(solToLamports('5.')).toBe(5_000_000_000n);
    expect(solToLamports(' 0.33 ')).toBe(330_000_000n);
    expect(solToLamports('0.0000000010')).toBe(1n);
    for (const bad of ['', '.', ' ', 'abc', '-1', '1e-3', '1e3', '0.0000000019', '1,5', '+1'])
      expect(solToLamports(bad), bad).toBeNull();
    expect(solToLamports('1234567890123')).toBeNull();
    expect(lamportsToSol(0n)).toBe('0');
  });

  it('a price is more than zero lamports; a fallback stands for anything else', () => {
    expect(isPositiveSol('0.000000001')).toBe(true);
    for (const no of ['0', '0.0', '', 'x', '0.0000000001'])
      expect(isPositiveSol(no), no).toBe(false);
    expect(validPrice(' 0.33 ', '0.22')).toBe('0.33');
    expect(validPrice('0', '0.22')).toBe('0.22');
    expect(validPrice(undefined, '0.22')).toBe('0.22');
  });
});

describe('display and percent off', () => {
  it('shows amounts with 2 decimals, rounded half up', () => {
    expect(lamportsToSolFixed(220_000_000n, 2)).toBe('0.22');
    expect(lamportsToSolFixed(219_999_999n, 2)).toBe('0.22');
    expect(lamportsToSolFixed(5_000_000n, 2)).toBe('0.01');
    expect(lamportsToSolFixed(4_999_999n, 2)).toBe('0.00');
    expect(lamportsToSolFixed(1_230_000_000n, 0)).toBe('1');
  });

  it('percent off is the whole percent nearest the ratio, half up (§2: 0.55 → 0.22 is -60%)', () => {
    expect(percentOff(550_000_000n, 220_000_000n)).toBe(60);
    expect(percentOff(550_000_000n, 330_000_000n)).toBe(40);
    expect(percentOff(550_000_000n, 550_000_000n)).toBe(0);
    expect(percentOff(0n, 1n)).toBe(0);
    expect(percentOff(8n, 7n)).toBe(13); // 12.5 rounds up
    const lamports = fc.bigInt({ min: 1n, max: 1_000_000_000_000n });
    assertProperty(
      'money: percentOff against the ratio',
      fc.property(lamports, lamports, (old, now) => {
        const expected = now >= old ? 0 : Math.floor((100 * Number(old - now)) / Number(old) + 0.5);
        expect(percentOff(old, now)).toBe(expected);
      }),
      { runs: RUNS },
    );
  });
});
