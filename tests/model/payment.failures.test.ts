import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { selectShowCancelled } from '../../machines/payment/payment.selectors';
import { PAYMENT_DELAYS } from '../../machines/payment/payment.types';
import { startPaymentSystem } from '../support/payment/actorDriver';
import { buyer } from '../support/payment/model';
import { SPEC_MESSAGES } from '../support/oracle';

/**
 * §8 payment failures of every shape a wallet (or anything else) may reject with: a wallet's own
 * failure shows its message and solution; a cancellation shows the Transaction cancelled notice
 * and no error; anything else is §8's default, 'Failed to process payment' with its solution.
 */
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const DEFAULT = {
  message: SPEC_MESSAGES.paymentFailed,
  solution: SPEC_MESSAGES.paymentFailedSolution,
};

async function connectFails(error: unknown) {
  const t = startPaymentSystem();
  t.actor.send({ type: 'payment.target', target: buyer });
  t.actor.send({ type: 'payment.open' });
  t.actor.send({ type: 'payment.send', wallet: 'phantom' });
  expect(t.connect.calls).toHaveLength(1);
  await t.connect.reject(error);
  return t;
}

describe('§8 a wallet step that fails', () => {
  it("a wallet's own failure: its message and solution", async () => {
    const t = await connectFails({ kind: 'failed', message: 'Locked', solution: 'Unlock it' });
    expect(t.modal).toEqual([{ message: 'Locked', solution: 'Unlock it' }]);
    expect(selectShowCancelled(t.actor.getSnapshot())).toBe(false);
    t.system.stop();
  });

  it.each([
    ['an Error', new Error('wallet crashed')],
    ['a text', 'failed'],
    ['null', null],
    ['a number', 7],
    ['an object of another kind, with texts', { kind: 'other', message: 'm', solution: 's' }],
    ['texts without a kind', { message: 'm', solution: 's' }],
    ['a failure whose message is no text', { kind: 'failed', message: 5, solution: 's' }],
    ['a failure without a solution', { kind: 'failed', message: 'm' }],
    ['a failure whose solution is no text', { kind: 'failed', message: 'm', solution: {} }],
  ])("%s: §8's default", async (_, error) => {
    const t = await connectFails(error);
    expect(t.modal).toEqual([DEFAULT]);
    expect(selectShowCancelled(t.actor.getSnapshot())).toBe(false);
    t.system.stop();
  });

  it('a cancellation: the Transaction cancelled notice, no error', async () => {
    const t = await connectFails({ kind: 'cancelled' });
    expect(t.modal).toEqual([]);
    expect(selectShowCancelled(t.actor.getSnapshot())).toBe(true);
    t.system.stop();
  });

  it.each([
    ['the text "cancelled"', 'cancelled'],
    ['an object of another kind', { kind: 'closed' }],
    ['an object without a kind', {}],
    ['an Error named so', Object.assign(new Error('cancelled'), { name: 'cancelled' })],
  ])('%s is no cancellation: an error, no notice', async (_, error) => {
    const t = await connectFails(error);
    expect(t.modal).toEqual([DEFAULT]);
    expect(selectShowCancelled(t.actor.getSnapshot())).toBe(false);
    t.system.stop();
  });
});

describe('§2 the Solana Pay QR code polls the balance while it is shown', () => {
  const notYet = {
    accessGranted: false,
    balance: '0.1',
    balanceLamports: '100000000',
  };

  it('a "not yet" answer is asked again at the next tick, until access arrives', async () => {
    const t = startPaymentSystem();
    t.actor.send({ type: 'payment.target', target: buyer });
    t.actor.send({ type: 'payment.open' });
    t.actor.send({ type: 'payment.showQr' });
    for (let poll = 1; poll <= 3; poll += 1) {
      await vi.advanceTimersByTimeAsync(PAYMENT_DELAYS.qrPoll);
      expect(t.balance.calls, `poll ${poll} after ${poll * PAYMENT_DELAYS.qrPoll} ms`).toHaveLength(
        poll,
      );
      await t.balance.resolve(notYet);
      expect(
        t.actor.getSnapshot().matches({ open: { qr: 'shown' } }),
        'the QR code waits for its next poll',
      ).toBe(true);
    }
    // A missed poll (the server down) is asked again as well.
    await vi.advanceTimersByTimeAsync(PAYMENT_DELAYS.qrPoll);
    await t.balance.reject(new Error('down'));
    await vi.advanceTimersByTimeAsync(PAYMENT_DELAYS.qrPoll);
    expect(t.balance.calls).toHaveLength(5);
    await t.balance.resolve({ ...notYet, accessGranted: true, accessVia: 'ticket' });
    expect(t.actor.getSnapshot().matches({ open: { granted: 'celebrating' } })).toBe(true);
    t.system.stop();
  });
});
