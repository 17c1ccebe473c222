import { fromCallback, type AnyActorRef, type SnapshotFrom } from 'xstate';
import type { AuthMachine } from '../auth/auth.machine';
import {
  selectAccessByFriends,
  selectHasAccess,
  selectPaymentWallet,
  selectPaymentWalletBalance,
  selectWalletId,
} from '../auth/auth.selectors';
import type { SessionMachine } from '../session/session.machine';
import { selectTicketPriceLamports } from '../session/session.selectors';
import { SYSTEM_IDS } from '../systemIds';
import type { PaymentEvent, PaymentTarget } from './payment.types';

/**
 * What to pay (§2 Get Ticket, §4 Payment), derived from the auth service's user data and the
 * session's price: the payment service's own selector over its two sources. Before either
 * exists: no wallet, no access, nothing to pay.
 */
export function selectPaymentTarget(
  auth: SnapshotFrom<AuthMachine> | undefined,
  session: SnapshotFrom<SessionMachine> | undefined,
): PaymentTarget {
  return {
    address: auth ? selectPaymentWallet(auth) : '',
    walletId: auth ? selectWalletId(auth) : '',
    priceLamports: session ? selectTicketPriceLamports(session) : '0',
    balance: auth ? selectPaymentWalletBalance(auth) : '0',
    hasAccess: auth ? selectHasAccess(auth) : false,
    byFriends: auth ? selectAccessByFriends(auth) : false,
  };
}

const sameTarget = (x: PaymentTarget | null, y: PaymentTarget) =>
  x !== null &&
  x.address === y.address &&
  x.walletId === y.walletId &&
  x.priceLamports === y.priceLamports &&
  x.balance === y.balance &&
  x.hasAccess === y.hasAccess &&
  x.byFriends === y.byFriends;

type SystemLike = { get(id: string): AnyActorRef | undefined };

/**
 * The payment service's `targetWatch`: inside the actor system it follows the auth and session
 * services and sends `payment.target` at start and whenever what to pay changes.
 */
export const watchPaymentTarget = fromCallback<PaymentEvent>(({ sendBack, system }) => {
  const services = system as SystemLike;
  let last: PaymentTarget | null = null;
  const report = () => {
    const target = selectPaymentTarget(
      services.get(SYSTEM_IDS.auth)?.getSnapshot() as SnapshotFrom<AuthMachine> | undefined,
      services.get(SYSTEM_IDS.session)?.getSnapshot() as SnapshotFrom<SessionMachine> | undefined,
    );
    if (sameTarget(last, target)) return;
    last = target;
    sendBack({ type: 'payment.target', target });
  };
  report();
  const subscriptions = [SYSTEM_IDS.auth, SYSTEM_IDS.session]
    .map((id) => services.get(id))
    .filter((ref): ref is AnyActorRef => ref !== undefined)
    .map((ref) => ref.subscribe(report));
  return () => subscriptions.forEach((s) => s.unsubscribe());
});
