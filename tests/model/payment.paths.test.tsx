// @vitest-environment happy-dom
import { act, fireEvent, screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import {
  settle,
  specExpect,
  systemDriver,
  testPaths,
  type Driver,
  type Executors,
} from '../support/paths';
import {
  advance,
  advanceCopyFeedback,
  advancePendingPoll,
  checked,
  startPaymentSystem,
  type PaymentSystem,
} from '../support/payment/actorDriver';
import {
  type CheckBalanceOutput,
  type ConnectWalletOutput,
  type PaymentEvent,
  type WalletKind,
} from '../../machines/payment/payment.types';
import { PAYER } from '../support/payment/model';
import { SPEC_LAMPORTS, SPEC_MESSAGES } from '../support/oracle';
import { model } from '../support/payment/pathModel';
import {
  isBusy,
  payButtonsDisabled,
  payStepText,
  showsPayPanel,
} from '../support/payment/expected';
import { startTicketView, type TicketView } from '../support/payment/viewDriver';

type ModelEventOf<T extends string> = Extract<(typeof model.events)[number]['event'], { type: T }>;

/**
 * Generated paths of the payment machine (§2 Get Ticket, §4 Payment, §8 wallet errors): every
 * state and transition, run against the machine as an actor (with a recording error modal and
 * auth service in its system) and against the rendered Get Ticket tab.
 */
type Ctx = PaymentSystem;
/** The three balance checks (after sending, the refresh, the QR poll) answer alike. */
type BalanceCheck = 'confirmBalance' | 'refreshBalance' | 'qrBalance';
type BalanceRead = ModelEventOf<`xstate.done.actor.${BalanceCheck}`>;
type BalanceFailed = ModelEventOf<`xstate.error.actor.${BalanceCheck}`>;
/** The named delays the chart's own timing decides (the pending poll follows the spec's). */
type ChartDelay = ModelEventOf<
  | 'xstate.after.cancelNotice.payment.open.idle.cancelled'
  | 'xstate.after.balanceRefresh.payment.open.waiting'
  | 'xstate.after.qrPoll.payment.open.qr.shown'
>;
const balanceRead = checked<BalanceRead>(({ ctx, event }) =>
  ctx.balance.resolve(event.output as CheckBalanceOutput),
);
const balanceFailed = checked<BalanceFailed>(({ ctx, event }) => ctx.balance.reject(event.error));
const delayDue = checked<ChartDelay>(({ ctx, event }) => advance(ctx.actor, event.type));

/** An intent of the tab, sent as is. */
const send = checked(({ ctx, event }) => {
  ctx.actor.send(event as PaymentEvent);
});

const events = {
  'payment.open': send,
  'payment.target': send,
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
    await advanceCopyFeedback();
    // The address of the tab is what reaches the clipboard.
    expect(ctx.clipboard.slice(copies)).toEqual([ctx.x.target?.address ?? '']);
  }),
  'xstate.done.actor.connectWallet': checked(({ ctx, event }) =>
    ctx.connect.resolve(event.output as { publicKey: string }),
  ),
  'xstate.error.actor.connectWallet': checked(({ ctx, event }) => ctx.connect.reject(event.error)),
  'xstate.done.actor.getBlockhash': checked(async ({ ctx }) => {
    await ctx.blockhash.resolve({ blockhash: 'Hash1', lastValidBlockHeight: 9 });
    // The transfer: a §9 price in lamports from the connected key (only Phantom is injected).
    expect(ctx.send.calls.at(-1)).toMatchObject({ wallet: 'phantom', fromPublicKey: PAYER });
    expect(Object.values(SPEC_LAMPORTS).map(String)).toContain(ctx.send.calls.at(-1)?.lamports);
  }),
  'xstate.error.actor.getBlockhash': checked(({ ctx, event }) => ctx.blockhash.reject(event.error)),
  'xstate.done.actor.sendTransfer': checked(({ ctx }) => ctx.send.resolve({ signature: 'Sig1' })),
  'xstate.error.actor.sendTransfer': checked(({ ctx, event }) => ctx.send.reject(event.error)),
  'xstate.done.actor.confirmBalance': balanceRead,
  'xstate.error.actor.confirmBalance': balanceFailed,
  'xstate.done.actor.refreshBalance': balanceRead,
  'xstate.error.actor.refreshBalance': balanceFailed,
  'xstate.done.actor.qrBalance': balanceRead,
  'xstate.error.actor.qrBalance': balanceFailed,
  'xstate.after.cancelNotice.payment.open.idle.cancelled': delayDue,
  // 3 s after sending, the balance of the user's own payment wallet is read (checked by step).
  'xstate.after.balanceRefresh.payment.open.waiting': delayDue,
  'xstate.after.pendingPoll.payment.open.pending': checked(({ ctx }) => advancePendingPoll(ctx)),
  'xstate.after.qrPoll.payment.open.qr.shown': delayDue,
} satisfies Executors<typeof model, Ctx>;

const actorDriver = systemDriver(
  model,
  { live: ({ actor }) => actor, root: ({ system }) => system },
  {
    setup: () => startPaymentSystem(),
    events,
    states: {
      // The Ticket Purchased! modal: the auth service hears of the ticket.
      'open.granted.celebrating': ({ ctx }) =>
        specExpect('§4.payment.granted', ctx.authEvents, 'what the auth service heard').toContain(
          'auth.accessGranted',
        ),
      'open.granted.byFriends': ({ ctx }) =>
        specExpect('§4.payment.granted', ctx.authEvents, 'what the auth service heard').toContain(
          'auth.accessGranted',
        ),
      'open.granted.done': ({ ctx }) => expect(ctx.send.calls.length).toBeLessThanOrEqual(1),
      'open.idle.unconfirmed': ({ ctx }) => expect(ctx.actor.getSnapshot().context.polls).toBe(2),
    },
  },
);

testPaths(model, actorDriver);

// ── The rendered Get Ticket tab ──────────────────────────────────────────────────────────────
type View = TicketView;
const BUTTON: Record<WalletKind, string> = {
  phantom: 'Send in Phantom',
  solflare: 'Send in Solflare',
  local: 'Pay with the local test wallet (local chain)',
};

/**
 * A click as a player makes it. Without the payment panel (the tab closed, or Access Granted!
 * shown) there is no button; the chart still accepts some intents there (the copy at any time,
 * a send after the tab re-sent a member's data while idle), so the step checks that no payment
 * panel is shown and sends the intent as the button would have.
 */
async function click(ctx: View, name: string, intent: PaymentEvent) {
  const button = screen.queryByRole('button', { name });
  if (!button) {
    const panel = ctx.before !== null && showsPayPanel(ctx.before);
    expect(panel, `no "${name}" button on the payment panel`).toBe(false);
    await act(async () => ctx.actor.send(intent));
    return;
  }
  expect(button).toBeEnabled();
  await act(async () => {
    fireEvent.click(button);
    await settle();
  });
}
const inAct = (run: () => Promise<unknown>) => act(async () => void (await run()));

const balanceReadInView = checked<BalanceRead, View>(({ ctx, event }) =>
  inAct(() => ctx.balance.resolve(event.output as CheckBalanceOutput)),
);
const balanceFailedInView = checked<BalanceFailed, View>(({ ctx, event }) =>
  inAct(() => ctx.balance.reject(event.error)),
);
const delayDueInView = checked<ChartDelay, View>(({ ctx, event }) =>
  inAct(() => advance(ctx.actor, event.type)),
);

const viewEvents = {
  // The tab is shown; what to pay comes from the auth service's user data (targetWatch).
  'payment.open': checked(({ ctx }) => ctx.open()),
  'payment.target': checked(({ ctx, event }) => ctx.setUser(event.target)),
  'payment.close': checked(({ ctx }) => ctx.hide()),
  'payment.send': checked(({ ctx, event }) => click(ctx, BUTTON[event.wallet], event)),
  'payment.refresh': checked(({ ctx, event }) => click(ctx, 'Refresh balance', event)),
  'payment.dismissNotice': checked(({ ctx, event }) => click(ctx, 'Dismiss', event)),
  'payment.showQr': checked(({ ctx, event }) => click(ctx, 'Pay with a QR code', event)),
  'payment.hideQr': checked(({ ctx, event }) => click(ctx, 'Hide QR code', event)),
  'payment.closeModal': checked(({ ctx, event }) => click(ctx, "Let's Build My Gang", event)),
  'payment.copyAddress': checked(async ({ ctx, event }) => {
    const copies = ctx.clipboard.length;
    await click(ctx, 'Copy', event);
    await inAct(() => advanceCopyFeedback());
    expect(ctx.clipboard.slice(copies)).toEqual([ctx.x.target?.address ?? '']);
  }),
  'xstate.done.actor.connectWallet': checked(({ ctx, event }) =>
    inAct(() => ctx.connect.resolve(event.output as ConnectWalletOutput)),
  ),
  'xstate.error.actor.connectWallet': checked(({ ctx, event }) =>
    inAct(() => ctx.connect.reject(event.error)),
  ),
  'xstate.done.actor.getBlockhash': checked(({ ctx }) =>
    inAct(() => ctx.blockhash.resolve({ blockhash: 'Hash1', lastValidBlockHeight: 9 })),
  ),
  'xstate.error.actor.getBlockhash': checked(({ ctx, event }) =>
    inAct(() => ctx.blockhash.reject(event.error)),
  ),
  'xstate.done.actor.sendTransfer': checked(({ ctx }) =>
    inAct(() => ctx.send.resolve({ signature: 'Sig1' })),
  ),
  'xstate.error.actor.sendTransfer': checked(({ ctx, event }) =>
    inAct(() => ctx.send.reject(event.error)),
  ),
  'xstate.done.actor.confirmBalance': balanceReadInView,
  'xstate.error.actor.confirmBalance': balanceFailedInView,
  'xstate.done.actor.refreshBalance': balanceReadInView,
  'xstate.error.actor.refreshBalance': balanceFailedInView,
  'xstate.done.actor.qrBalance': balanceReadInView,
  'xstate.error.actor.qrBalance': balanceFailedInView,
  'xstate.after.cancelNotice.payment.open.idle.cancelled': delayDueInView,
  'xstate.after.balanceRefresh.payment.open.waiting': delayDueInView,
  'xstate.after.pendingPoll.payment.open.pending': checked(({ ctx }) =>
    inAct(() => advancePendingPoll(ctx)),
  ),
  'xstate.after.qrPoll.payment.open.qr.shown': delayDueInView,
} satisfies Executors<typeof model, View>;

const viewDriver: Driver<typeof model, View> = {
  setup: startTicketView,
  teardown: (ctx) => ctx.unmount(),
  actual: (ctx) => ctx.actor.getSnapshot(),
  events: viewEvents,
  clauses: {
    open: ['§2.ticket.connecting', '§2.ticket.cancelNotice', '§4.payment.granted'],
    'open.granted.celebrating': ['§4.payment.granted'],
  },
  states: {
    closed: () => expect(screen.queryByRole('region', { name: 'Get Ticket' })).toBeNull(),
    // Everything the tab shows is checked against the expectation (ctx.x), not the chart.
    open: ({ ctx }) => {
      const x = ctx.x;
      expect(screen.getByRole('region', { name: 'Get Ticket' })).toBeVisible();
      // The payment panel without access, the Access Granted! panel with it (§2).
      if (showsPayPanel(x)) {
        expect(screen.getByRole('heading', { name: 'Complete Transfer' })).toBeVisible();
        expect(screen.getByTestId('payment-address')).toHaveTextContent(x.target?.address ?? '');
        // Both send buttons are disabled while a wallet approval or the blockhash is in flight
        // (§2), and until the sent transfer is confirmed; the pressed one says where it stands.
        const disabled = payButtonsDisabled(x);
        const step = payStepText(x);
        for (const name of ['Send in Phantom', 'Send in Solflare']) {
          const pressed = step !== null && BUTTON[x.wallet ?? 'phantom'] === name;
          const button = screen.getByRole('button', { name: pressed ? step : name });
          specExpect(
            '§2.ticket.connecting',
            button.hasAttribute('disabled'),
            `${name} disabled`,
          ).toBe(disabled);
          if (isBusy(x)) expect(disabled, `${name} disabled while connecting`).toBe(true);
          expect(button.getAttribute('aria-busy'), `${name} busy`).toBe(String(pressed));
        }
        // The cancelled notice exactly while a cancellation is the last word (5 s).
        const notice = screen.queryByText(SPEC_MESSAGES.cancelled);
        if (x.phase === 'cancelled') expect(notice).toBeVisible();
        else expect(notice).toBeNull();
        const qr = screen.queryByRole('img', { name: /Solana Pay QR code/ });
        // The QR (a chunk of its own) is drawn once its code has loaded; its Hide button at once.
        const hide = screen.queryByRole('button', { name: 'Hide QR code' });
        if (x.phase === 'qrShown' || x.phase === 'qrPolling') expect(hide).toBeVisible();
        else expect([qr, hide]).toEqual([null, null]);
        // The panel says the balance follows a payment by itself (the QR code's poll).
        expect(
          screen.getByText(
            'After paying, the balance updates on its own; click Refresh if it does not.',
          ),
        ).toBeVisible();
      } else {
        // The panel's heading (the moment of access through friends may show one more).
        expect(screen.getAllByRole('heading', { name: 'Access Granted!' })[0]).toBeVisible();
        expect(screen.queryByRole('button', { name: 'Send in Phantom' })).toBeNull();
      }
    },
    'open.granted.celebrating': ({ ctx }) => {
      const dialog = screen.getByRole('dialog', { name: 'Ticket Purchased!' });
      // The amount the chain received when the server says (0.25 SOL), else the price sent.
      const amount = ctx.x.paid === '250000000' ? '0.25 SOL' : '0.22 SOL';
      expect(within(dialog).getByTestId('ticket-amount')).toHaveTextContent(amount);
      expect(within(dialog).getByText('don@example.com')).toBeVisible();
      specExpect('§4.payment.granted', ctx.authEvents, 'what the auth service heard').toContain(
        'auth.accessGranted',
      );
    },
    'open.granted.done': () =>
      expect(screen.queryByRole('dialog', { name: 'Ticket Purchased!' })).toBeNull(),
    // Friends' tickets: Access Granted! with their message, never a receipt or an amount.
    'open.granted.byFriends': ({ ctx }) => {
      expect(screen.queryByRole('dialog', { name: 'Ticket Purchased!' })).toBeNull();
      expect(screen.getByTestId('access-by-friends')).toHaveTextContent(
        'Two friends bought tickets with your invite code.',
      );
      // Its own moment, like the receipt, until it is closed: the friends' message, no amount.
      const moment = screen.queryByRole('dialog', { name: 'Access Granted!' });
      if (ctx.x.phase === 'byFriends') {
        expect(moment).toBeVisible();
        expect(within(moment!).getByTestId('friends-moment-line')).toHaveTextContent(
          'Two friends bought tickets with your invite code.',
        );
        expect(within(moment!).queryByTestId('ticket-amount')).toBeNull();
      } else expect(moment).toBeNull();
      specExpect('§4.payment.granted', ctx.authEvents, 'what the auth service heard').toContain(
        'auth.accessGranted',
      );
    },
    'open.idle.unconfirmed': ({ ctx }) => {
      if (showsPayPanel(ctx.x))
        expect(screen.getByText(/The payment is not confirmed yet/)).toBeVisible();
    },
    'open.refreshing': ({ ctx }) => {
      if (showsPayPanel(ctx.x))
        expect(screen.getByRole('button', { name: 'Refresh balance' })).toHaveTextContent(
          'Refreshing...',
        );
    },
    'open.qr': ({ ctx }) => {
      if (showsPayPanel(ctx.x))
        expect(screen.getByRole('button', { name: 'Hide QR code' })).toBeVisible();
    },
  },
};

testPaths(model, viewDriver, 'view');
