import { expect, vi } from 'vitest';
import {
  createActor,
  fromCallback,
  fromPromise,
  setup,
  type ActorRefFrom,
  type AnyActorLogic,
} from 'xstate';
import { copyFeedbackMachine } from '../../../machines/copyFeedback/copyFeedback.machine';
import { paymentMachine } from '../../../machines/payment/payment.machine';
import type { PaymentSnapshot } from '../../../machines/payment/payment.selectors';
import {
  type BlockhashOutput,
  type CheckBalanceInput,
  type CheckBalanceOutput,
  type ConnectWalletInput,
  type ConnectWalletOutput,
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
  applyPayment,
  checkPaymentEffects,
  checkPaymentSelectors,
  newExpected,
  pollDueIn,
  type PaymentExpected,
} from './expected';
import { PHANTOM_ONLY, modelMachine, type PaymentModelSnapshot } from './model';
import type { model } from './pathModel';

/** What a test may change of the provided parts: another tab of the player started the payment. */
export type PaymentOptions = { paidInAnotherTab?: boolean };

/**
 * The real payment machine with its invoked actors waiting for the test (`latest`), the wallet
 * detection (`installed`), the install site and the copy feedback provided, and `targetWatch` as
 * what tells it what to pay; beside it a recording error modal. Shared by the actor and the view
 * drivers.
 */
export function paymentFakes(
  installed: (_: unknown, params: { wallet: WalletKind }) => boolean,
  targetWatch: AnyActorLogic,
  options: PaymentOptions = {},
) {
  const connect = latest<ConnectWalletOutput, ConnectWalletInput>();
  const blockhash = latest<BlockhashOutput, { wallet: WalletKind }>();
  const send = latest<SendTransferOutput, SendTransferInput>();
  const balance = latest<CheckBalanceOutput, CheckBalanceInput>();
  const modal: { message: string; solution: string }[] = [];
  /** Every event the error modal received, whole (where the error happened included). */
  const modalEvents: Record<string, unknown>[] = [];
  /** The provided effects, in order: 'preload' (the wallet code), 'announce' (paying). */
  const effects: string[] = [];
  const authEvents: string[] = [];
  const installs: WalletKind[] = [];
  const clipboard: string[] = [];
  const payment = paymentMachine.provide({
    guards: {
      isWalletInstalled: installed,
      isPaidInAnotherTab: (_, params) =>
        params.output.accessGranted && (options.paidInAnotherTab ?? false),
    },
    actions: {
      openInstallSite: (_, params) => installs.push(params.wallet),
      preloadWalletCode: () => void effects.push('preload'),
      announcePaying: () => void effects.push('announce'),
    },
    actors: {
      connectWallet: connect.logic,
      getBlockhash: blockhash.logic,
      sendTransfer: send.logic,
      checkBalance: balance.logic,
      targetWatch: targetWatch as never,
      copyFeedback: copyFeedbackMachine.provide({
        actors: {
          writeClipboard: fromPromise<void, { text: string }>(async ({ input }) => {
            clipboard.push(input.text);
          }),
        },
      }),
    },
  });
  const errorModal = fromCallback<{ type: string; message: string; solution: string }>(
    ({ receive }) => {
      receive((event) => {
        modal.push({ message: event.message, solution: event.solution });
        modalEvents.push({ ...event });
      });
    },
  );
  const recorded = {
    connect,
    blockhash,
    send,
    balance,
    modal,
    modalEvents,
    effects,
    authEvents,
    installs,
    clipboard,
  };
  return { payment, errorModal, recorded };
}

/**
 * The real payment machine (only the wallet detection — Phantom alone injected unless `installed`
 * says otherwise — and the install site provided), run inside
 * a small actor system with a recording error modal and auth service under their systemIds,
 * its invoked actors waiting for the test.
 */
export function startPaymentSystem(
  installed: (_: unknown, params: { wallet: WalletKind }) => boolean = PHANTOM_ONLY,
  options: PaymentOptions = {},
) {
  // The model sends payment.target itself: no watch of other services here.
  const { payment, errorModal, recorded } = paymentFakes(
    installed,
    fromCallback(() => {}),
    options,
  );
  const { authEvents } = recorded;
  const root = setup({
    actors: {
      payment,
      errorModal,
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
    ...recorded,
    /** The expected snapshot before the step being run. */
    before: null as PaymentExpected | null,
    /** What the spec says the tab is doing. */
    x: newExpected(),
  };
}
export type PaymentSystem = ReturnType<typeof startPaymentSystem>;

type AnyModelEvent = (typeof model.events)[number]['event'];
/** What the step check needs from a driver's context. */
export type Checkable = {
  x: PaymentExpected;
  actor: { getSnapshot: () => PaymentSnapshot };
  connect: { calls: ConnectWalletInput[] };
  blockhash: { calls: { wallet: WalletKind }[] };
  send: { calls: SendTransferInput[] };
  balance: { calls: CheckBalanceInput[] };
  modal: { message: string; solution: string }[];
  installs: WalletKind[];
  authEvents: string[];
  /** The expectation as it was before the step now running (what the tab showed). */
  before: PaymentExpected | null;
  /**
   * Targets reach the service through the app's watch (the rendered tab), not as events: what
   * the watch makes of a target the test sets.
   */
  fromWatch?: (target: PaymentTarget) => PaymentTarget;
};
export type StepArgs<
  E extends AnyModelEvent = AnyModelEvent,
  C extends Checkable = PaymentSystem,
> = {
  ctx: C;
  event: E;
  snapshot: PaymentModelSnapshot;
};

/**
 * Runs one step: the spec's rule updates the expectation first, then the step happens, then
 * everything the tab shows and every request, error and grant is checked against it.
 */
export function checked<
  E extends AnyModelEvent = AnyModelEvent,
  C extends Checkable = PaymentSystem,
>(run: (args: StepArgs<E, C>) => void | Promise<void>) {
  return async (args: StepArgs<E, C>) => {
    const { ctx } = args;
    let event = args.event as unknown as { type: string } & Record<string, unknown>;
    // The app's target watch tells the payment service what it reads (the session's price),
    // and only when that changed.
    if (ctx.fromWatch && event.type === 'payment.target')
      event = { ...event, target: ctx.fromWatch(event.target as PaymentTarget) };
    const unchanged =
      ctx.fromWatch !== undefined &&
      event.type === 'payment.target' &&
      JSON.stringify(event.target) === JSON.stringify(ctx.x.target);
    ctx.before = { ...ctx.x };
    if (!unchanged) applyPayment(ctx.x, event);
    await run(args);
    await settle();
    checkPaymentSelectors(ctx.x, ctx.actor.getSnapshot());
    checkPaymentEffects(ctx.x, {
      connects: ctx.connect.calls,
      blockhashes: ctx.blockhash.calls,
      transfers: ctx.send.calls,
      balanceChecks: ctx.balance.calls,
      modal: ctx.modal,
      installs: ctx.installs,
      authEvents: ctx.authEvents,
    });
  };
}

/** Advances fake time to the balance check just due: 10 s, then 30 s after sending, exactly. */
export async function advancePendingPoll(ctx: Checkable): Promise<void> {
  const ms = pollDueIn(ctx.x);
  const checks = ctx.balance.calls.length;
  await vi.advanceTimersByTimeAsync(ms - 1);
  await settle();
  expect(ctx.balance.calls.length, 'no balance check 1 ms early').toBe(checks);
  await vi.advanceTimersByTimeAsync(1);
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
