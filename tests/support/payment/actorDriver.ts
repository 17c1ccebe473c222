import { expect, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, setup, type ActorRefFrom } from 'xstate';
import { copyFeedbackMachine } from '../../../machines/copyFeedback/copyFeedback.machine';
import { paymentMachine } from '../../../machines/payment/payment.machine';
import { SPEC_MESSAGES } from '../oracle';
import {
  PAYMENT_DELAYS,
  PAYMENT_ERRORS,
  type BlockhashOutput,
  type CheckBalanceInput,
  type CheckBalanceOutput,
  type ConnectWalletInput,
  type ConnectWalletOutput,
  type ErrorText,
  type PaymentTarget,
  type SendTransferInput,
  type SendTransferOutput,
  type WalletKind,
} from '../../../machines/payment/payment.types';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { actorProbe, advanceChartDelay, advanceSpecDelay, settle } from '../paths';
import { SPEC_TIMERS } from '../oracle';
import { latest } from './controllable';
import {
  PHANTOM_ONLY,
  insufficient,
  modelMachine,
  networkFailed,
  type PaymentModelSnapshot,
} from './model';
import type { model } from './pathModel';

/**
 * The real payment machine (only the wallet detection and the install site provided), run inside
 * a small actor system with a recording error modal and auth service under their systemIds,
 * its invoked actors waiting for the test.
 */
export function startPaymentSystem() {
  const connect = latest<ConnectWalletOutput, ConnectWalletInput>();
  const blockhash = latest<BlockhashOutput, { wallet: WalletKind }>();
  const send = latest<SendTransferOutput, SendTransferInput>();
  const balance = latest<CheckBalanceOutput, CheckBalanceInput>();
  const modal: { message: string; solution: string }[] = [];
  const authEvents: string[] = [];
  const installs: WalletKind[] = [];
  const clipboard: string[] = [];
  const payment = paymentMachine.provide({
    guards: { isWalletInstalled: PHANTOM_ONLY },
    actions: { openInstallSite: (_, params) => installs.push(params.wallet) },
    actors: {
      connectWallet: connect.logic,
      getBlockhash: blockhash.logic,
      sendTransfer: send.logic,
      checkBalance: balance.logic,
      // The model sends payment.target itself: no watch of other services here.
      targetWatch: fromCallback(() => {}),
      copyFeedback: copyFeedbackMachine.provide({
        actors: {
          writeClipboard: fromPromise<void, { text: string }>(async ({ input }) => {
            clipboard.push(input.text);
          }),
        },
      }),
    },
  });
  const root = setup({
    actors: {
      payment,
      errorModal: fromCallback<{ type: string; message: string; solution: string }>(
        ({ receive }) => {
          receive((event) => modal.push({ message: event.message, solution: event.solution }));
        },
      ),
      auth: fromCallback<{ type: string }>(({ receive }) => {
        receive((event) => authEvents.push(event.type));
      }),
    },
  }).createMachine({
    invoke: [
      { id: SYSTEM_IDS.errorModal, systemId: SYSTEM_IDS.errorModal, src: 'errorModal' },
      { id: SYSTEM_IDS.auth, systemId: SYSTEM_IDS.auth, src: 'auth' },
      { id: SYSTEM_IDS.payment, systemId: SYSTEM_IDS.payment, src: 'payment', input: {} },
    ],
  });
  const system = createActor(root);
  system.start();
  const actor = system.system.get(SYSTEM_IDS.payment) as ActorRefFrom<typeof payment>;
  return {
    system,
    actor,
    connect,
    blockhash,
    send,
    balance,
    modal,
    authEvents,
    installs,
    clipboard,
    /** The expected snapshot before the step being run. */
    prev: null as PaymentModelSnapshot | null,
  };
}
export type PaymentSystem = ReturnType<typeof startPaymentSystem>;

const targetOf = (s: PaymentModelSnapshot | null): PaymentTarget | null =>
  s?.context.target ?? null;
const inIdle = (s: PaymentModelSnapshot | null) => Boolean(s?.matches({ open: 'idle' }));

/**
 * What the error modal must receive for one step (§8), from the spec's rules, not from the chart:
 * no payment wallet → "Payment wallet address not found" / "Wallet ID not found"; a wallet that
 * is not injected → "<Wallet> wallet not detected"; an empty public key, a failed blockhash, a
 * failed balance check (not the QR poll, which retries quietly); a wallet failure shows its own
 * text; a cancellation and everything else show nothing.
 */
/**
 * The modal's expected text: the message as the spec writes it (the oracle), with the solution
 * the machine gives (§8 fixes the messages; the solutions are the site's wording).
 */
function spec(machine: ErrorText, message: string): ErrorText {
  return { message, solution: machine.solution };
}

export function expectedError(
  prev: PaymentModelSnapshot | null,
  event: AnyModelEvent,
): ErrorText | null {
  const target = targetOf(prev);
  switch (event.type) {
    case 'payment.send':
      if (inIdle(prev) && !target?.address)
        return spec(PAYMENT_ERRORS.addressNotFound, SPEC_MESSAGES.walletAddressMissing);
      return event.wallet === 'solflare'
        ? spec(PAYMENT_ERRORS.notDetected('solflare'), SPEC_MESSAGES.solflareMissing)
        : null;
    case 'payment.refresh':
      return inIdle(prev) && !target?.walletId
        ? spec(PAYMENT_ERRORS.walletIdNotFound, SPEC_MESSAGES.walletIdMissing)
        : null;
    case 'payment.showQr':
      return inIdle(prev) && !target?.address
        ? spec(PAYMENT_ERRORS.addressNotFound, SPEC_MESSAGES.walletAddressMissing)
        : null;
    case 'xstate.done.actor.connectWallet':
      return (event.output as ConnectWalletOutput).publicKey
        ? null
        : spec(PAYMENT_ERRORS.publicKey, SPEC_MESSAGES.publicKeyFailed);
    case 'xstate.error.actor.connectWallet':
    case 'xstate.error.actor.sendTransfer': {
      // §8 texts for the model's wallet failures (./model.ts), from the oracle.
      if (event.error === networkFailed)
        return spec(PAYMENT_ERRORS.network, SPEC_MESSAGES.networkFailed);
      if (event.error === insufficient)
        return spec(PAYMENT_ERRORS.insufficientFunds, SPEC_MESSAGES.insufficientFunds);
      const error = event.error as { kind: string; message?: string; solution?: string };
      return error.kind === 'failed'
        ? { message: error.message ?? '', solution: error.solution ?? '' }
        : null;
    }
    case 'xstate.error.actor.getBlockhash':
      return spec(PAYMENT_ERRORS.blockhash, SPEC_MESSAGES.blockhashFailed);
    case 'xstate.error.actor.confirmBalance':
    case 'xstate.error.actor.refreshBalance':
      return spec(PAYMENT_ERRORS.refresh, SPEC_MESSAGES.refreshBalanceFailed);
    default:
      return null;
  }
}

type AnyModelEvent = (typeof model.events)[number]['event'];
/** What the step check needs from a driver's context. */
export type Checkable = {
  modal: { message: string; solution: string }[];
  installs: WalletKind[];
  prev: PaymentModelSnapshot | null;
};
export type StepArgs<
  E extends AnyModelEvent = AnyModelEvent,
  C extends Checkable = PaymentSystem,
> = {
  ctx: C;
  event: E;
  snapshot: PaymentModelSnapshot;
};

/** Runs one step and checks the error modal got exactly what the spec says, then remembers it. */
export function checked<
  E extends AnyModelEvent = AnyModelEvent,
  C extends Checkable = PaymentSystem,
>(run: (args: StepArgs<E, C>) => void | Promise<void>) {
  return async (args: StepArgs<E, C>) => {
    const { ctx } = args;
    const before = ctx.modal.length;
    const installsBefore = ctx.installs.length;
    await run(args);
    await settle();
    const expected = expectedError(ctx.prev, args.event);
    expect(ctx.modal.slice(before), `error modal after ${args.event.type}`).toEqual(
      expected ? [expected] : [],
    );
    // The install site opens exactly with "wallet not detected".
    const notDetected = expected?.message.endsWith('wallet not detected') ?? false;
    expect(ctx.installs.length - installsBefore).toBe(notDetected ? 1 : 0);
    ctx.prev = args.snapshot;
  };
}

/** Advances fake time by the pending poll's delay: 7 s, then 20 s (10 s and 30 s after sending). */
export async function advancePendingPoll(actor: PaymentSystem['actor']): Promise<void> {
  const delay = PAYMENT_DELAYS.pendingPolls[actor.getSnapshot().context.polls] ?? 0;
  await vi.advanceTimersByTimeAsync(delay);
  await settle();
}

/**
 * Advances a payment timer: the spec's ones (balance refresh 3 s, cancel notice 5 s) by the
 * oracle's number, exactly; the chart's own polling cadence (QR poll) by its delay.
 */
export const advance = (actor: PaymentSystem['actor'], type: string) =>
  type.startsWith('xstate.after.qrPoll.')
    ? advanceChartDelay(modelMachine, type)
    : advanceSpecDelay(type, actorProbe(actor));

/** §2: the copy button's "Copied!" lasts 2 s. */
export async function advanceCopyFeedback(): Promise<void> {
  await vi.advanceTimersByTimeAsync(SPEC_TIMERS.copyFeedback);
  await settle();
}
