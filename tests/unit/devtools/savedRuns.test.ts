import { describe, expect, it } from 'vitest';
import { and, not } from 'xstate';
import { paymentMachine } from '../../../machines/payment/payment.machine';
import { writtenGuard } from '../../../src/devtools/graph';
import { withPlaceholders } from '../../../src/devtools/redact';
import { siteGuardAnswers } from '../../../src/devtools/sandbox';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJlLW9mLXRoZS1zZXJ2ZXI';
const REFRESH = 'rt_0123456789abcdef';

describe('a saved run holds no token', () => {
  it('writes each secret as one placeholder wherever it stands, so equal stays equal', () => {
    const saved = withPlaceholders({
      input: { stored: { jwt: JWT, refreshToken: REFRESH, theme: 'dark' } },
      context: { jwt: JWT, epoch: JWT, refreshToken: REFRESH, note: `Bearer ${JWT}` },
      other: { jwt: `${JWT.slice(0, -1)}X` },
    });
    const text = JSON.stringify(saved);
    expect(text).not.toContain(JWT);
    expect(text).not.toContain(REFRESH);
    expect(saved.input.stored).toEqual({
      jwt: '[jwt 1]',
      refreshToken: '[refreshToken 1]',
      theme: 'dark',
    });
    expect(saved.context).toEqual({
      jwt: '[jwt 1]',
      epoch: '[jwt 1]',
      refreshToken: '[refreshToken 1]',
      note: 'Bearer [jwt 1]',
    });
    // Another token is another placeholder.
    expect(saved.other.jwt).toBe('[jwt 2]');
  });
});

describe('guards as written', () => {
  it('names combined guards by their parts, whatever the minifier did to their function', () => {
    expect(writtenGuard(and(['isCurrentJwt', 'hasRefreshToken']))).toBe(
      'and(isCurrentJwt, hasRefreshToken)',
    );
    expect(writtenGuard(not('shouldPoll'))).toBe('not(shouldPoll)');
    expect(writtenGuard({ type: 'isWalletInstalled', params: {} })).toBe('isWalletInstalled');
  });
});

describe("the site's guard answers", () => {
  it('reads them from the transitions taken: the one taken held, the ones before it did not', () => {
    // payment.open.checkingWallet: [isWalletInstalled → connecting, else → idle].
    const installed = siteGuardAnswers(paymentMachine, [
      { source: 'payment.open.checkingWallet', event: '', index: 0 },
    ]);
    expect([...installed]).toEqual([['isWalletInstalled', true]]);
    const missing = siteGuardAnswers(paymentMachine, [
      { source: 'payment.open.checkingWallet', event: '', index: 1 },
    ]);
    expect([...missing]).toEqual([['isWalletInstalled', false]]);
  });
});
