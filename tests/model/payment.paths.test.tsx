// @vitest-environment happy-dom
import { expect } from 'vitest';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { advanceDelay, testPaths, type Driver, type Executors } from '../support/paths';
import {
  advance,
  advancePendingPoll,
  checked,
  startPaymentSystem,
  type PaymentSystem,
} from '../support/payment/actorDriver';
import type { PaymentEvent } from '../../machines/payment/payment.types';
import { PAYER, model } from '../support/payment/model';

/**
 * Generated paths of the payment machine (§2 Get Ticket, §4 Payment, §8 wallet errors): every
 * state and transition, run against the machine as an actor (with a recording error modal and
 * auth service in its system) and against the rendered Get Ticket tab.
 */
type Ctx = PaymentSystem;
/** An intent of the tab, sent as is. */
const send = checked(({ ctx, event }) => {
  ctx.actor.send(event as PaymentEvent);
});

const events = {
  'payment.open': send,
  'payment.close': send,
  'payment.send': send,
  'payment.refresh': send,
  'payment.dismissNotice': send,
  'payment.showQr': send,
  'payment.hideQr': send,
  'payment.closeModal': send,
  'payment.copyAddress': checked(async ({ ctx, event }) => {
    const copies = ctx.clipboard.length;
    ctx.actor.send(event);
    await advanceDelay(copyFeedbackMachine, 'xstate.after.copyFeedback.x');
    // The address of the tab is what reaches the clipboard.
    expect(ctx.clipboard.slice(copies)).toEqual([ctx.prev?.context.target?.address ?? '']);
  }),
  'xstate.done.actor.connectWallet': checked(({ ctx, event }) =>
    ctx.connect.resolve(event.output as { publicKey: string }),
  ),
  'xstate.error.actor.connectWallet': checked(({ ctx, event }) => ctx.connect.reject(event.error)),
  'xstate.done.actor.getBlockhash': checked(async ({ ctx, snapshot }) => {
    await ctx.blockhash.resolve({ blockhash: 'Hash1', lastValidBlockHeight: 9 });
    // The transfer: the price in integer lamports from the connected key to the payment wallet
    // the tab shows now (only Phantom is injected here).
    expect(ctx.send.calls.at(-1)).toEqual({
      wallet: 'phantom',
      fromPublicKey: PAYER,
      toAddress: snapshot.context.target?.address,
      lamports: '220000000',
      blockhash: 'Hash1',
      lastValidBlockHeight: 9,
    });
  }),
  'xstate.error.actor.getBlockhash': checked(({ ctx, event }) => ctx.blockhash.reject(event.error)),
  'xstate.done.actor.sendTransfer': checked(({ ctx }) => ctx.send.resolve({ signature: 'Sig1' })),
  'xstate.error.actor.sendTransfer': checked(({ ctx, event }) => ctx.send.reject(event.error)),
  'xstate.done.actor.confirmBalance': checked(({ ctx, event }) =>
    ctx.balance.resolve(event.output as never),
  ),
  'xstate.error.actor.confirmBalance': checked(({ ctx, event }) => ctx.balance.reject(event.error)),
  'xstate.done.actor.refreshBalance': checked(({ ctx, event }) =>
    ctx.balance.resolve(event.output as never),
  ),
  'xstate.error.actor.refreshBalance': checked(({ ctx, event }) => ctx.balance.reject(event.error)),
  'xstate.done.actor.qrBalance': checked(({ ctx, event }) =>
    ctx.balance.resolve(event.output as never),
  ),
  'xstate.error.actor.qrBalance': checked(({ ctx, event }) => ctx.balance.reject(event.error)),
  'xstate.after.cancelNotice.payment.open.idle.cancelled': checked(({ event }) =>
    advance(event.type),
  ),
  'xstate.after.balanceRefresh.payment.open.waiting': checked(async ({ ctx, event, snapshot }) => {
    const calls = ctx.balance.calls.length;
    await advance(event.type);
    // 3 s after sending, the balance of the user's own payment wallet is read.
    expect(ctx.balance.calls.slice(calls)).toEqual([
      { walletId: snapshot.context.target?.walletId },
    ]);
  }),
  'xstate.after.pendingPoll.payment.open.pending': checked(({ ctx }) =>
    advancePendingPoll(ctx.actor),
  ),
  'xstate.after.qrPoll.payment.open.qr.shown': checked(({ event }) => advance(event.type)),
} satisfies Executors<typeof model, Ctx>;

const actorDriver: Driver<typeof model, Ctx> = {
  setup: startPaymentSystem,
  teardown: ({ system }) => {
    system.stop();
  },
  actual: ({ actor }) => actor.getSnapshot(),
  events,
  states: {
    // The Ticket Purchased! modal: the auth service hears of the ticket.
    'open.granted.celebrating': ({ ctx }) => expect(ctx.authEvents).toContain('auth.accessGranted'),
    'open.granted.done': ({ ctx }) => expect(ctx.send.calls.length).toBeLessThanOrEqual(1),
    'open.idle.unconfirmed': ({ ctx }) => expect(ctx.actor.getSnapshot().context.polls).toBe(2),
  },
};

testPaths(model, actorDriver);
