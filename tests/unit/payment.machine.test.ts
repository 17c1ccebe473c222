import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { paymentMachine } from '../../machines/payment/payment.machine';
import {
  selectAccessViaFriends,
  selectBalance,
  selectJustGranted,
  selectIsBusy,
  selectPayButtonsDisabled,
  selectPayStep,
  selectShowCancelled,
  selectShowPurchasedModal,
} from '../../machines/payment/payment.selectors';
import {
  PAY_STEP_TEXT,
  type BlockhashOutput,
  type CheckBalanceOutput,
  type PaymentFailure,
  type PaymentTarget,
} from '../../machines/payment/payment.types';
import { classifyWalletError } from '../../src/wallet/errors';

const target: PaymentTarget = {
  address: 'Addr1111111111111111111111111111111111111111',
  walletId: 'w1',
  priceLamports: '220000000',
  balance: '0',
  hasAccess: false,
  byFriends: false,
};

function setup(opts: {
  installed?: boolean;
  connect?: () => Promise<{ publicKey: string }>;
  send?: () => Promise<{ signature: string }>;
  balances?: CheckBalanceOutput[];
  /** Another tab of the player started the payment. */
  paidElsewhere?: boolean;
}) {
  const calls = { connect: 0, send: 0, balance: 0, announced: 0, install: [] as string[] };
  const balances = [...(opts.balances ?? [])];
  const actor = createActor(
    paymentMachine.provide({
      actors: {
        connectWallet: fromPromise(async () => {
          calls.connect += 1;
          return (opts.connect ?? (async () => ({ publicKey: 'Payer' })))();
        }),
        getBlockhash: fromPromise(async (): Promise<BlockhashOutput> => ({
          blockhash: 'hash',
          lastValidBlockHeight: 10,
        })),
        sendTransfer: fromPromise(async () => {
          calls.send += 1;
          return (opts.send ?? (async () => ({ signature: 'sig' })))();
        }),
        targetWatch: fromCallback(() => {}),
        checkBalance: fromPromise(async () => {
          calls.balance += 1;
          return balances.shift() ?? { accessGranted: false, balance: '0', balanceLamports: '0' };
        }),
      },
      guards: {
        isWalletInstalled: () => opts.installed ?? true,
        isPaidInAnotherTab: (_, p) => p.output.accessGranted && (opts.paidElsewhere ?? false),
      },
      actions: {
        openInstallSite: (_, p) => calls.install.push(p.wallet),
        announcePaying: () => void (calls.announced += 1),
      },
    }),
    { input: {} },
  );
  actor.start();
  actor.send({ type: 'payment.target', target });
  actor.send({ type: 'payment.open' });
  return { actor, calls };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('payment machine', () => {
  it('keeps the view that opened it, for the error modal, and forgets it on the next open', () => {
    const { actor } = setup({});
    expect(actor.getSnapshot().context.source).toBeNull();
    const source = { component: 'GetTicketTab', file: 'src/views/ticket/GetTicketTab.tsx' };
    actor.send({ type: 'payment.close' });
    actor.send({ type: 'payment.open', source });
    expect(actor.getSnapshot().context.source).toEqual(source);
    actor.send({ type: 'payment.close' });
    actor.send({ type: 'payment.open' });
    expect(actor.getSnapshot().context.source).toBeNull();
  });

  it('double click sends exactly one transfer, then access granted after 3 s', async () => {
    const { actor, calls } = setup({
      balances: [{ accessGranted: true, balance: '0.22', balanceLamports: '220000000' }],
    });
    actor.send({ type: 'payment.send', wallet: 'phantom' });
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'payment.send', wallet: 'phantom' });
    actor.send({ type: 'payment.send', wallet: 'solflare' });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.send).toBe(1);
    expect(actor.getSnapshot().matches({ open: 'waiting' })).toBe(true);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(calls.balance).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(selectShowPurchasedModal(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context.paidLamports).toBe('220000000');
    actor.send({ type: 'payment.closeModal' });
    expect(actor.getSnapshot().matches({ open: { granted: 'done' } })).toBe(true);
  });

  it('the pressed button stays busy from the press to the receipt, saying where it stands', async () => {
    const { actor } = setup({
      balances: [{ accessGranted: true, balance: '0.22', balanceLamports: '220000000' }],
    });
    actor.send({ type: 'payment.send', wallet: 'solflare' });
    // §2: the pressed button says Connecting... while the wallet connects.
    expect(selectPayStep(actor.getSnapshot(), 'solflare')).toBe('connecting');
    expect(selectPayStep(actor.getSnapshot(), 'phantom')).toBeNull();
    expect(selectPayButtonsDisabled(actor.getSnapshot())).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    const s = actor.getSnapshot();
    expect(s.matches({ open: 'waiting' })).toBe(true);
    expect(selectPayStep(s, 'solflare')).toBe('confirming');
    expect(PAY_STEP_TEXT.confirming).toBe('Confirming…');
    expect(selectPayButtonsDisabled(s)).toBe(true);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(selectShowPurchasedModal(actor.getSnapshot())).toBe(true);
    expect(selectPayButtonsDisabled(actor.getSnapshot())).toBe(false);
    expect(selectPayStep(actor.getSnapshot(), 'solflare')).toBeNull();
  });

  it('tells the other tabs when it starts paying, by wallet or by QR code', async () => {
    const { actor, calls } = setup({});
    actor.send({ type: 'payment.showQr' });
    expect(calls.announced).toBe(1);
    actor.send({ type: 'payment.hideQr' });
    actor.send({ type: 'payment.send', wallet: 'phantom' });
    expect(calls.announced).toBe(2);
  });

  it('access learned while another tab paid: Access Granted! without a receipt', async () => {
    const { actor } = setup({
      paidElsewhere: true,
      balances: [{ accessGranted: true, balance: '0.22', balanceLamports: '220000000' }],
    });
    actor.send({ type: 'payment.target', target: { ...target, hasAccess: true } });
    await vi.advanceTimersByTimeAsync(0);
    const s = actor.getSnapshot();
    expect(s.matches({ open: { granted: 'done' } })).toBe(true);
    expect(selectShowPurchasedModal(s)).toBe(false);
  });

  it("access learned through friends' tickets: their message at once, no balance call, no receipt", async () => {
    const { actor, calls } = setup({});
    actor.send({
      type: 'payment.target',
      target: { ...target, hasAccess: true, byFriends: true, balance: '0.05' },
    });
    await vi.advanceTimersByTimeAsync(0);
    const s = actor.getSnapshot();
    expect(selectAccessViaFriends(s)).toBe(true);
    expect(selectJustGranted(s)).toBe(true);
    expect(selectShowPurchasedModal(s)).toBe(false);
    expect(selectBalance(s)).toBe('0.05');
    expect(calls.balance).toBe(0);
  });

  it('access learned with no other tab paying: the receipt, as before', async () => {
    const { actor } = setup({
      balances: [{ accessGranted: true, balance: '0.22', balanceLamports: '220000000' }],
    });
    actor.send({ type: 'payment.target', target: { ...target, hasAccess: true } });
    await vi.advanceTimersByTimeAsync(0);
    expect(selectShowPurchasedModal(actor.getSnapshot())).toBe(true);
  });

  it('a rejection shows only the cancelled notice, which hides after 5 s; retry works', async () => {
    const rejected: PaymentFailure = {
      source: 'wallet',
      kind: 'cancelled',
      message: 'User rejected the request.',
    };
    let reject = true;
    const { actor, calls } = setup({
      send: async () => {
        if (reject) throw rejected;
        return { signature: 's' };
      },
    });
    actor.send({ type: 'payment.send', wallet: 'solflare' });
    await vi.advanceTimersByTimeAsync(0);
    expect(selectShowCancelled(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context.lastError).toBeNull();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(selectShowCancelled(actor.getSnapshot())).toBe(false);
    reject = false;
    actor.send({ type: 'payment.send', wallet: 'solflare' });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.send).toBe(2);
  });

  it('polls at 3, 10 and 30 s without resending, then waits for a manual refresh', async () => {
    const { actor, calls } = setup({});
    actor.send({ type: 'payment.send', wallet: 'phantom' });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(calls.balance).toBe(1);
    await vi.advanceTimersByTimeAsync(7_000);
    expect(calls.balance).toBe(2);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(calls.balance).toBe(3);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls.balance).toBe(3);
    expect(calls.send).toBe(1);
    expect(actor.getSnapshot().matches({ open: { idle: 'unconfirmed' } })).toBe(true);
  });

  it('leaving the tab stops polling', async () => {
    const { actor, calls } = setup({});
    actor.send({ type: 'payment.send', wallet: 'phantom' });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'payment.close' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.balance).toBe(0);
  });

  it('no wallet: opens the install site and the error', () => {
    const { actor, calls } = setup({ installed: false });
    actor.send({ type: 'payment.send', wallet: 'phantom' });
    expect(calls.install).toEqual(['phantom']);
    expect(actor.getSnapshot().context.lastError?.message).toBe('Phantom wallet not detected');
  });
});

describe('wallet error classification', () => {
  beforeEach(() => vi.spyOn(console, 'warn').mockImplementation(() => {}));
  it.each([
    [{ code: 4001, message: 'User rejected the request.' }],
    [new Error('User rejected the request')],
    [{ error: { code: 4001, message: 'rejected' } }],
    [{ code: -32603, message: 'Internal JSON-RPC error.' }],
    ['Transaction cancelled'],
  ])('%o is a cancellation', (error) => {
    expect(classifyWalletError(error)).toMatchObject({ source: 'wallet', kind: 'cancelled' });
  });

  it('-32603 with insufficient funds or an expired blockhash is the real error', () => {
    expect(
      classifyWalletError({
        code: -32603,
        message: 'Transaction simulation failed: insufficient lamports',
      }),
    ).toMatchObject({ kind: 'failed', message: 'Insufficient funds' });
    const expired = classifyWalletError({
      error: { code: -32603, message: 'Blockhash not found' },
    });
    expect(expired).toMatchObject({ kind: 'failed', message: 'Failed to process payment' });
    expect(classifyWalletError(new TypeError('Failed to fetch'))).toMatchObject({
      message: 'Network connection failed',
    });
  });
});
