import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, createMachine, setup, type AnyEventObject } from 'xstate';
import {
  selectAccessViaFriends,
  selectHasTicketAccess,
  selectIsRefreshing,
  selectJustGranted,
  selectPaidSol,
  selectPaidTier,
  selectPaymentAddress,
  selectSolanaPayUrl,
  type PaymentSnapshot,
} from '../../machines/payment/payment.selectors';
import { selectPaymentTarget, watchPaymentTarget } from '../../machines/payment/payment.target';
import type { PaymentTarget } from '../../machines/payment/payment.types';
import { SYSTEM_IDS } from '../../machines/systemIds';
import { startPaymentSystem, type PaymentSystem } from '../support/payment/actorDriver';
import { buyer, member } from '../support/payment/model';
import { specExpect } from '../support/paths';

/**
 * What the payment service does besides moving between its states: what it asks the wallet and
 * the server with, whom it tells (the error modal with where the error happened, the auth
 * service, the player's other tabs), what it shows from a snapshot (the selectors the Get Ticket
 * tab draws), and how it learns what to pay from the auth and session services.
 */
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const granted = { accessGranted: true, balance: '0.22', balanceLamports: '220000000' } as const;
const notYet = { accessGranted: false, balance: '0.1', balanceLamports: '100000000' } as const;

function opened(options: Parameters<typeof startPaymentSystem>[1] = {}) {
  const t = startPaymentSystem(undefined, options);
  t.actor.send({ type: 'payment.target', target: buyer });
  t.actor.send({ type: 'payment.open' });
  return t;
}

describe('what the service asks the wallet and the server with', () => {
  it('the transfer: the connected key, the play wallet, the exact price, the fetched blockhash', async () => {
    const t = opened();
    t.actor.send({ type: 'payment.send', wallet: 'phantom' });
    await t.connect.resolve({ publicKey: 'Payer1' });
    await t.blockhash.resolve({ blockhash: 'hash-7', lastValidBlockHeight: 70 });
    expect(t.send.calls).toEqual([
      {
        wallet: 'phantom',
        fromPublicKey: 'Payer1',
        toAddress: buyer.address,
        lamports: buyer.priceLamports,
        blockhash: 'hash-7',
        lastValidBlockHeight: 70,
      },
    ]);
    t.system.stop();
  });

  it('a balance check names the wallet of the user data', async () => {
    const t = opened();
    t.actor.send({ type: 'payment.refresh' });
    expect(t.balance.calls).toEqual([{ walletId: buyer.walletId }]);
    t.system.stop();
  });

  it('a refresh answered "not yet" returns to the panel, no longer refreshing', async () => {
    const t = opened();
    t.actor.send({ type: 'payment.refresh' });
    expect(selectIsRefreshing(t.actor.getSnapshot())).toBe(true);
    await t.balance.resolve(notYet);
    const s = t.actor.getSnapshot();
    expect(s.matches({ open: { idle: 'ready' } })).toBe(true);
    expect(selectIsRefreshing(s)).toBe(false);
    t.system.stop();
  });

  it('facts that still say "access" do not check the balance again; only a change to access does', async () => {
    const t = opened();
    t.actor.send({ type: 'payment.refresh' });
    await t.balance.resolve(notYet);
    // The user data now says access while the last balance check did not: one check.
    t.actor.send({ type: 'payment.target', target: member });
    expect(t.balance.calls).toHaveLength(2);
    await t.balance.resolve(notYet);
    // The same access again (a new balance, say): no further check.
    t.actor.send({ type: 'payment.target', target: { ...member, balance: '0.3' } });
    expect(t.balance.calls).toHaveLength(2);
    t.system.stop();
  });
});

describe('whom the service tells', () => {
  it('the error modal hears where the error happened, as the tab that opened the service named it', async () => {
    const t = startPaymentSystem();
    t.actor.send({ type: 'payment.target', target: buyer });
    t.actor.send({ type: 'payment.open', source: { component: 'Tab', file: 'src/tab.tsx' } });
    t.actor.send({ type: 'payment.send', wallet: 'phantom' });
    await t.connect.reject({ kind: 'failed', message: 'Locked', solution: 'Unlock it' });
    specExpect('§8.wallet.errors', t.modalEvents, 'what the error modal heard').toEqual([
      {
        type: 'errorModal.open',
        message: 'Locked',
        solution: 'Unlock it',
        component: 'Tab',
        file: 'src/tab.tsx',
      },
    ]);
    t.system.stop();
  });

  it('opened without a source, the error names no place', async () => {
    const t = opened();
    t.actor.send({ type: 'payment.send', wallet: 'phantom' });
    await t.connect.reject({ kind: 'failed', message: 'Locked', solution: 'Unlock it' });
    specExpect('§8.wallet.errors', t.modalEvents, 'what the error modal heard').toEqual([
      { type: 'errorModal.open', message: 'Locked', solution: 'Unlock it' },
    ]);
    t.system.stop();
  });

  it('opening fetches the wallet code ahead; connecting and showing the QR code tell the other tabs', async () => {
    const t = opened();
    expect(t.effects).toEqual(['preload']);
    t.actor.send({ type: 'payment.send', wallet: 'phantom' });
    expect(t.effects).toEqual(['preload', 'announce']);
    await t.connect.reject({ kind: 'cancelled' });
    t.actor.send({ type: 'payment.showQr' });
    expect(t.effects).toEqual(['preload', 'announce', 'announce']);
    t.system.stop();
  });

  it('access paid from another tab: this one shows it quietly, with the balance, and tells auth', async () => {
    const t = opened({ paidInAnotherTab: true });
    t.actor.send({ type: 'payment.target', target: member });
    await t.balance.resolve({ ...granted, balance: '0.5' });
    const s = t.actor.getSnapshot();
    expect(s.matches({ open: { granted: 'done' } })).toBe(true);
    expect(s.context.balance).toBe('0.5');
    specExpect('§4.payment.granted', t.authEvents, 'what the auth service heard').toEqual([
      'auth.accessGranted',
    ]);
    expect(selectJustGranted(s)).toBe(false);
    t.system.stop();
  });

  it('copying before the play wallet is known copies nothing', async () => {
    const t = startPaymentSystem();
    t.actor.send({ type: 'payment.copyAddress' });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.clipboard).toEqual(['']);
    t.system.stop();
  });
});

/** Access, through friends, just granted: what the Get Ticket tab shows of access. */
const access = (s: PaymentSnapshot) => [
  selectHasTicketAccess(s),
  selectAccessViaFriends(s),
  selectJustGranted(s),
];

/** The tab open with the buyer's facts, refreshed, the balance check answered with `answer`. */
async function refreshedWith(answer: Parameters<PaymentSystem['balance']['resolve']>[0]) {
  const t = opened();
  t.actor.send({ type: 'payment.refresh' });
  await t.balance.resolve(answer);
  const snapshot = t.actor.getSnapshot();
  t.system.stop();
  return snapshot;
}

describe('what the Get Ticket tab draws from a snapshot', () => {
  it('access: the user data says so, or this tab saw it granted; through friends likewise', async () => {
    const t = startPaymentSystem();
    const s0 = t.actor.getSnapshot();
    expect(access(s0)).toEqual([false, false, false]);
    t.actor.send({ type: 'payment.target', target: { ...member, byFriends: true } });
    const restored = t.actor.getSnapshot();
    expect(access(restored)).toEqual([true, true, false]);
    t.actor.send({ type: 'payment.target', target: buyer });
    t.actor.send({ type: 'payment.open' });
    t.actor.send({ type: 'payment.refresh' });
    await t.balance.resolve({ ...granted, accessVia: 'invites' });
    const byFriends = t.actor.getSnapshot();
    expect(byFriends.context.target?.hasAccess).toBe(false);
    expect(access(byFriends)).toEqual([true, true, true]);
    t.system.stop();
  });

  it('a payment granted in this tab: access, not through friends, celebrated', async () => {
    const s = await refreshedWith({
      ...granted,
      ticketTier: 'early_bird',
      paidLamports: '250000000',
    });
    expect(access(s)).toEqual([true, false, true]);
    expect(selectPaidTier(s)).toBe('earlyBird');
    expect(selectPaidSol(s)).toBe('0.25');
  });

  it('a tier or amount named without access is not the receipt', async () => {
    const s = await refreshedWith({
      ...notYet,
      ticketTier: 'early_bird',
      paidLamports: '250000000',
    });
    expect(selectPaidTier(s)).toBeNull();
    expect(selectPaidSol(s)).toBe('0.22');
  });

  const withTarget = (target: Partial<PaymentTarget> | null, extra: object = {}) =>
    ({
      context: { target: target && { ...buyer, ...target }, paidLamports: null, ...extra },
    }) as unknown as PaymentSnapshot;

  it('the Solana Pay request: the play wallet, the exact price in SOL, the game and the tier', () => {
    expect(selectSolanaPayUrl(withTarget({ priceLamports: '220000000' }), 'earlyBird')).toBe(
      `solana:${buyer.address}?amount=0.22&label=Solana%20Mafia%20Wars&message=Early%20Bird%20ticket`,
    );
  });

  it.each([
    ['no play wallet yet', null, `solana:?amount=0&`],
    ['a price with letters after the digits', { priceLamports: '12a' }, '?amount=0&'],
    ['a price with letters before the digits', { priceLamports: 'a12' }, '?amount=0&'],
    ['a one-digit price', { priceLamports: '7' }, '?amount=0.000000007&'],
  ])('the Solana Pay request with %s', (_, target, part) => {
    expect(selectSolanaPayUrl(withTarget(target), 'afterLaunch')).toContain(part);
  });

  it('the receipt amount from whole lamports only; the address empty before the user data', () => {
    expect(selectPaidSol(withTarget(null, { paidLamports: '12a' }))).toBe('0.00');
    expect(selectPaidSol(withTarget(null, { paidLamports: 'a12' }))).toBe('0.00');
    expect(selectPaidSol(withTarget({ priceLamports: '330000000' }))).toBe('0.33');
    expect(selectPaymentAddress(withTarget(null))).toBe('');
    expect(selectPaidTier(withTarget(null, { paidTier: null }))).toBeNull();
  });
});

describe('what to pay, from the auth and session services (the service’s target watch)', () => {
  it('before either service: no wallet, no access, nothing to pay', () => {
    expect(selectPaymentTarget(undefined, undefined)).toEqual({
      address: '',
      walletId: '',
      priceLamports: '0',
      balance: '0',
      hasAccess: false,
      byFriends: false,
    });
  });

  type Auth = {
    jwt: string | null;
    userData: {
      user_access: number;
      user_access_via?: string;
      user_payment_wallet: string;
      user_payment_wallet_balance: string;
      user_payment_wallet_data: { wallet_id: string };
    } | null;
  };
  const user: NonNullable<Auth['userData']> = {
    user_access: 0,
    user_payment_wallet: 'Wallet1',
    user_payment_wallet_balance: '0',
    user_payment_wallet_data: { wallet_id: 'w-1' },
  };
  const holder = <C extends object>(context: C) =>
    createMachine({
      types: {} as { context: C; events: { type: 'set'; change: Partial<C> } },
      context,
      on: { set: { actions: assign(({ context: c, event }) => ({ ...c, ...event.change })) } },
    });

  function watch(withSession = true) {
    const heard: PaymentTarget[] = [];
    const root = setup({
      actors: {
        auth: holder<Auth>({ jwt: 'jwt', userData: user }),
        session: holder({ publicData: { ticket_price: '0.22' } }),
        watch: watchPaymentTarget,
      },
    }).createMachine({
      invoke: [
        { id: 'auth', systemId: SYSTEM_IDS.auth, src: 'auth' },
        { id: 'session', systemId: withSession ? SYSTEM_IDS.session : 'noSession', src: 'session' },
      ],
      on: {
        'payment.target': {
          actions: ({ event }: { event: AnyEventObject }) => void heard.push(event.target),
        },
        stopWatch: { target: '.stopped' },
      },
      initial: 'watching',
      states: { watching: { invoke: { id: 'watch', src: 'watch' } }, stopped: {} },
    });
    const actor = createActor(root).start();
    const auth = actor.system.get(SYSTEM_IDS.auth)!;
    const setUser = (change: Partial<NonNullable<Auth['userData']>>) =>
      auth.send({ type: 'set', change: { userData: { ...user, ...change } } });
    return { actor, heard, auth, setUser };
  }

  it('tells the service at start, then on each change of what to pay, and only then', () => {
    const w = watch();
    expect(w.heard).toHaveLength(1);
    expect(w.heard[0]).toMatchObject({ address: 'Wallet1', walletId: 'w-1', hasAccess: false });
    w.setUser({});
    expect(w.heard, 'the same facts again: nothing new').toHaveLength(1);
    const changes: Partial<NonNullable<Auth['userData']>>[] = [
      { user_payment_wallet: 'Wallet2' },
      { user_payment_wallet: 'Wallet2', user_payment_wallet_data: { wallet_id: 'w-2' } },
      {
        user_payment_wallet: 'Wallet2',
        user_payment_wallet_data: { wallet_id: 'w-2' },
        user_payment_wallet_balance: '0.5',
      },
      {
        user_payment_wallet: 'Wallet2',
        user_payment_wallet_data: { wallet_id: 'w-2' },
        user_payment_wallet_balance: '0.5',
        user_access: 1,
      },
      {
        user_payment_wallet: 'Wallet2',
        user_payment_wallet_data: { wallet_id: 'w-2' },
        user_payment_wallet_balance: '0.5',
        user_access: 1,
        user_access_via: 'invites',
      },
    ];
    changes.forEach((change, i) => {
      w.setUser(change);
      expect(w.heard, JSON.stringify(change)).toHaveLength(i + 2);
    });
    expect(w.heard.at(-1)).toMatchObject({
      address: 'Wallet2',
      walletId: 'w-2',
      balance: '0.5',
      hasAccess: true,
      byFriends: true,
    });
    w.actor.stop();
  });

  it('a new price from the session is a change too', () => {
    const w = watch();
    const first = w.heard[0]!.priceLamports;
    w.actor.system.get(SYSTEM_IDS.session)!.send({
      type: 'set',
      change: { publicData: { ticket_price: '0.33' } },
    });
    expect(w.heard.map((t) => t.priceLamports)).toEqual([first, '330000000']);
    w.actor.stop();
  });

  it('once stopped, it lets go of both services: a later change is not even read', () => {
    const w = watch();
    const session = w.actor.system.get(SYSTEM_IDS.session)!;
    w.actor.send({ type: 'stopWatch' });
    const reads = vi.spyOn(session, 'getSnapshot');
    w.setUser({ user_payment_wallet: 'Wallet5' });
    expect(reads).not.toHaveBeenCalled();
    w.actor.stop();
  });

  it('without a session service it still follows auth; once stopped it follows nothing', () => {
    const w = watch(false);
    expect(w.heard[0]!.priceLamports).toBe('0');
    w.setUser({ user_payment_wallet: 'Wallet3' });
    expect(w.heard).toHaveLength(2);
    w.actor.send({ type: 'stopWatch' });
    w.setUser({ user_payment_wallet: 'Wallet4' });
    expect(w.heard).toHaveLength(2);
    w.actor.stop();
  });
});
