import { expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { checkProperty, type PropertySpec } from '../support/paths';
import { PAYMENT_VARIANTS, modelMachine } from '../support/payment/model';
import { startPaymentSystem } from '../support/payment/actorDriver';
import { SITE_MESSAGES, SITE_SOLUTIONS, SPEC_MESSAGES } from '../support/oracle';
import type { WalletKind } from '../../machines/payment/payment.types';

/**
 * Properties of the payment chart over random event sequences (the model's events and actor
 * outcomes, each sent only when the chart accepts it).
 */
const events: AnyEventObject[] = Object.entries({
  ...PAYMENT_VARIANTS.events,
  ...PAYMENT_VARIANTS.outcomes,
}).flatMap(([type, payloads]) => payloads.map((payload) => ({ ...payload, type })));
const BALANCE_DONE = new Set([
  'xstate.done.actor.confirmBalance',
  'xstate.done.actor.refreshBalance',
  'xstate.done.actor.qrBalance',
]);

/** A property of the payment chart over sequences of up to 40 of the model's events. */
const checkPayment = (name: string, invariant: PropertySpec<typeof modelMachine>['invariant']) =>
  checkProperty(name, { machine: modelMachine, events, maxEvents: 40, invariant });

it('one transfer per click: the wallet is asked to send only after a new payment.send', () => {
  let clicksSinceTransfer = 0;
  checkPayment('payment one transfer per click', ({ snapshot, previous, event }) => {
    if (event === null) clicksSinceTransfer = 0;
    if (event?.type === 'payment.send') clicksSinceTransfer += 1;
    const entered =
      snapshot.matches({ open: 'sending' }) && !previous?.matches({ open: 'sending' });
    if (!entered) return true;
    if (clicksSinceTransfer === 0) return false;
    clicksSinceTransfer = 0;
    return true;
  });
});

it('Ticket Purchased! opens only when the server reports the ticket paid', () => {
  checkPayment(
    'payment purchased modal only on access granted',
    ({ snapshot, previous, event }) => {
      const celebrating = snapshot.matches({ open: { granted: 'celebrating' } });
      if (!celebrating || previous?.matches({ open: { granted: 'celebrating' } })) return true;
      const output = (event as { output?: { accessGranted?: boolean } } | null)?.output;
      return BALANCE_DONE.has(event?.type ?? '') && output?.accessGranted === true;
    },
  );
});

it('the cancelled notice appears only after a cancellation, never after a failure', () => {
  checkPayment('payment cancelled notice only on cancellation', ({ snapshot, previous, event }) => {
    const shown = snapshot.matches({ open: { idle: 'cancelled' } });
    if (!shown || previous?.matches({ open: { idle: 'cancelled' } })) return true;
    const error = (event as { error?: { kind?: string } } | null)?.error;
    return (
      /^xstate\.error\.actor\.(connectWallet|sendTransfer)$/.test(event?.type ?? '') &&
      error?.kind === 'cancelled'
    );
  });
});

it('§8 a wallet the browser lacks: its own "not detected" error, its install site, no request', () => {
  const target = {
    address: 'Pay1111111111111111111111111111111111111111',
    walletId: 'W1',
    priceLamports: '220000000',
    balance: '0',
    hasAccess: false,
    byFriends: false,
  };
  const shown: Record<WalletKind, { message: string; solution: string }> = {
    local: {
      message: SITE_MESSAGES.localWalletMissing,
      solution: SITE_SOLUTIONS.localWalletMissing,
    },
    phantom: { message: SPEC_MESSAGES.phantomMissing, solution: SITE_SOLUTIONS.phantomMissing },
    solflare: { message: SPEC_MESSAGES.solflareMissing, solution: SITE_SOLUTIONS.solflareMissing },
  };
  for (const wallet of ['phantom', 'solflare', 'local'] as const) {
    const ctx = startPaymentSystem(() => false);
    ctx.actor.send({ type: 'payment.open' });
    ctx.actor.send({ type: 'payment.target', target });
    ctx.actor.send({ type: 'payment.send', wallet });
    expect(ctx.modal).toEqual([shown[wallet]]);
    expect(ctx.installs).toEqual<WalletKind[]>([wallet]);
    expect(ctx.connect.calls).toEqual([]);
    ctx.system.stop();
  }
});
