import { fromCallback, type ActorRefFrom, type AnyActorRef } from 'xstate';
import type { AuthMachine } from '../../../machines/auth/auth.machine';
import {
  selectHasAccess,
  selectPaymentWallet,
  selectPaymentWalletBalance,
  selectWalletId,
} from '../../../machines/auth/auth.selectors';
import type { PaymentEvent, PaymentTarget } from '../../../machines/payment/payment.types';
import { selectTicketPriceLamports } from '../../../machines/session/session.selectors';
import type { SessionMachine } from '../../../machines/session/session.machine';
import { SYSTEM_IDS } from '../../../machines/systemIds';

type SystemLike = { get(id: string): AnyActorRef | undefined };

/** What to pay, read from the auth service's user data and the session's price. */
export function paymentTargetOf(system: SystemLike): PaymentTarget {
  const auth = system.get(SYSTEM_IDS.auth) as ActorRefFrom<AuthMachine> | undefined;
  const session = system.get(SYSTEM_IDS.session) as ActorRefFrom<SessionMachine> | undefined;
  const a = auth?.getSnapshot();
  return {
    address: a ? selectPaymentWallet(a) : '',
    walletId: a ? selectWalletId(a) : '',
    priceLamports: session ? selectTicketPriceLamports(session.getSnapshot()) : '0',
    balance: a ? selectPaymentWalletBalance(a) : '0',
    hasAccess: a ? selectHasAccess(a) : false,
  };
}

const sameTarget = (x: PaymentTarget | null, y: PaymentTarget) =>
  x !== null &&
  x.address === y.address &&
  x.walletId === y.walletId &&
  x.priceLamports === y.priceLamports &&
  x.balance === y.balance &&
  x.hasAccess === y.hasAccess;

/**
 * The payment service's `targetWatch`: inside the actor system it follows the auth and session
 * services and sends `payment.target` at start and whenever what to pay changes.
 */
export const watchPaymentTarget = fromCallback<PaymentEvent>(({ sendBack, system }) => {
  let last: PaymentTarget | null = null;
  const report = () => {
    const target = paymentTargetOf(system as SystemLike);
    if (sameTarget(last, target)) return;
    last = target;
    sendBack({ type: 'payment.target', target });
  };
  report();
  const subscriptions = [SYSTEM_IDS.auth, SYSTEM_IDS.session]
    .map((id) => (system as SystemLike).get(id))
    .filter((ref): ref is AnyActorRef => ref !== undefined)
    .map((ref) => ref.subscribe(report));
  return () => subscriptions.forEach((s) => s.unsubscribe());
});
