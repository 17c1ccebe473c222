import { newExpected, type PaymentExpected } from './expected';
import { SPEC_LAMPORTS } from '../oracle';
import { act, render, type RenderResult } from '@testing-library/react';
import {
  assign,
  createMachine,
  fromCallback,
  setup,
  type ActorRefFrom,
  type AnyActorRef,
} from 'xstate';
import { appMachine } from '../../../machines/app/app.machine';
import { launchMachine } from '../../../machines/launch/launch.machine';
import type { PaymentTarget } from '../../../machines/payment/payment.types';
import { EMPTY_STORED } from '../../../machines/shared/stored';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { AppProvider } from '../../../src/app/AppProvider';
import { useAppActor } from '../../../src/app/hooks';
import { watchPaymentTarget } from '../../../src/app/provide/paymentTarget';
import { GetTicketTab } from '../../../src/views/ticket/GetTicketTab';
import { settle } from '../paths';
import { paymentFakes } from './actorDriver';
import { PHANTOM_ONLY } from './model';

/**
 * The Get Ticket tab rendered as on the home page: inside the app's actor context, with the
 * real payment machine (its invoked actors waiting for the test), an auth service holding the
 * user data the tab reads, the session's default prices, a recording error modal and a launch
 * countdown whose clock never ticks. The tab sends `payment.open` when it mounts and
 * `payment.close` when it unmounts; what to pay reaches the payment service from the auth
 * service's user data through the app's own target watch.
 */
type UserEvent = { type: 'test.user'; target: PaymentTarget } | { type: 'auth.accessGranted' };

function userData(target: PaymentTarget) {
  return {
    user_email: 'don@example.com',
    user_access: target.hasAccess ? 1 : 0,
    user_payment_wallet: target.address,
    user_payment_wallet_balance: target.balance,
    user_payment_wallet_data: { wallet_id: target.walletId },
  };
}

export function startTicketView() {
  // What to pay comes from the (fake) auth service and the session, as in the app.
  const { payment, errorModal, recorded } = paymentFakes(PHANTOM_ONLY, watchPaymentTarget);
  const { authEvents } = recorded;
  const auth = setup({
    types: { events: {} as UserEvent },
  }).createMachine({
    context: { jwt: 'jwt', userData: null as ReturnType<typeof userData> | null },
    on: {
      'test.user': {
        actions: assign({ userData: ({ event }) => userData(event.target) }),
      },
      'auth.accessGranted': { actions: () => authEvents.push('auth.accessGranted') },
    },
  });
  const idle = createMachine({});
  const logic = appMachine.provide({
    actors: {
      auth: auth as never,
      session: createMachine({ context: { publicData: {} } }) as never,
      errorModal: errorModal as never,
      launch: launchMachine.provide({ actors: { clock: fromCallback(() => {}) } }),
      home: idle as never,
      signIn: idle as never,
      notifications: idle as never,
      theme: idle as never,
    },
  });

  let app: AnyActorRef | null = null;
  let view: RenderResult | null = null;

  function Capture({ show }: { show: boolean }) {
    app = useAppActor();
    return show ? <GetTicketTab /> : null;
  }
  const tree = (show: boolean) => (
    <AppProvider
      logic={logic}
      input={{ stored: EMPTY_STORED, startData: { language: 'en', user_agent: '' } }}
    >
      <Capture show={show} />
    </AppProvider>
  );
  const running = () => {
    if (!app) throw new Error('the app is not running');
    return app;
  };
  view = render(tree(false));
  // The member services arrive as the composition root hands them over (app.membersLoaded).
  act(() => {
    running().send({
      type: 'app.membersLoaded',
      payment: payment as never,
      realtime: idle as never,
      userData: idle as never,
    });
  });

  return {
    ...recorded,
    before: null as PaymentExpected | null,
    /**
     * What the spec says the tab is doing. Before any user data the app's target watch already
     * told the payment service what it knows: no wallet yet, the session's default price.
     */
    // The price comes from the session (its default 0.22 SOL), the rest from the user data.
    fromWatch: (target: PaymentTarget) => ({
      ...target,
      priceLamports: String(SPEC_LAMPORTS[0.22]),
    }),
    x: {
      ...newExpected(),
      balance: '0',
      target: {
        address: '',
        walletId: '',
        priceLamports: String(SPEC_LAMPORTS[0.22]),
        balance: '0',
        hasAccess: false,
      },
    },
    get actor(): ActorRefFrom<typeof payment> {
      return (running().getSnapshot().children as Record<string, unknown>)[
        SYSTEM_IDS.payment
      ] as ActorRefFrom<typeof payment>;
    },
    /** The user data changes (the tab open or not): the payment service hears of it. */
    async setUser(target: PaymentTarget) {
      await act(async () => {
        (running().system.get(SYSTEM_IDS.auth) as AnyActorRef).send({ type: 'test.user', target });
        await settle();
      });
    },
    /** Shows the tab (it sends payment.open when it mounts). */
    async open() {
      await act(async () => {
        view?.rerender(tree(true));
        await settle();
      });
    },
    /** Leaves the tab (the other tab, another page): it unmounts. */
    async hide() {
      await act(async () => {
        view?.rerender(tree(false));
        await settle();
      });
    },
    unmount() {
      view?.unmount();
    },
  };
}
export type TicketView = ReturnType<typeof startTicketView>;
