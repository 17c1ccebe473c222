import { newExpected, type PaymentExpected } from './expected';
import { SPEC_LAMPORTS } from '../oracle';
import { act, render, type RenderResult } from '@testing-library/react';
import {
  assign,
  createMachine,
  fromCallback,
  fromPromise,
  sendParent,
  setup,
  waitFor,
  type ActorRefFrom,
} from 'xstate';
import { launchMachine } from '../../../machines/launch/launch.machine';
import type { PaymentTarget } from '../../../machines/payment/payment.types';
import { EMPTY_STORED } from '../../../machines/shared/stored';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { createAppActor } from '../../../src/app/appActor';
import { AppActorProvider } from '../../../src/app/AppProvider';
import { createApiClient } from '../../../src/api/client';
import { createStorage } from '../../../src/platform/storage';
import { useAppActor } from '../../../src/app/hooks';
import { watchPaymentTarget } from '../../../machines/payment/payment.target';
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
    user_access_via: target.byFriends ? 'invites' : 'ticket',
    user_payment_wallet: target.address,
    user_payment_wallet_balance: target.balance,
    user_payment_wallet_data: { wallet_id: target.walletId },
  };
}

export async function startTicketView() {
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
  // The site's own root actor (src/app/appActor.ts), with stand-ins for the services the tab does
  // not exercise; no call reaches the network.
  const api = createApiClient({
    baseUrl: 'http://api.test/api/',
    getSessionToken: () => null,
    fetch: () => Promise.reject(new Error('no network in the ticket view test')),
  });
  const app = await createAppActor({
    deps: { api, storage: createStorage(() => null) },
    input: { stored: EMPTY_STORED, startData: { language: 'en', user_agent: '' } },
    services: {
      auth: auth as never,
      // The session has loaded (with the spec's default prices): the member services follow.
      session: createMachine({
        context: { publicData: {} },
        entry: sendParent({ type: 'session.loaded', publicData: {} }),
      }) as never,
      errorModal: errorModal as never,
      launch: launchMachine.provide({ actors: { clock: fromCallback(() => {}) } }),
      home: idle as never,
      signIn: idle as never,
      notifications: idle as never,
      theme: idle as never,
      // The app machine loads the member services itself: here the real payment machine.
      loadMembers: fromPromise(async () => ({
        payment: payment as never,
        realtime: idle as never,
        userData: idle as never,
      })) as never,
    },
  });

  let view: RenderResult | null = null;

  function Capture({ show }: { show: boolean }) {
    if (useAppActor() !== app) throw new Error('the tab is not under the app built here');
    return show ? <GetTicketTab /> : null;
  }
  const tree = (show: boolean) => (
    <AppActorProvider actor={app}>
      <Capture show={show} />
    </AppActorProvider>
  );
  const running = () => app;
  view = render(tree(false));
  // The provider starts the actor after the first commit, as in the page; the app machine then
  // loads and spawns the member services.
  await act(async () => {
    await waitFor(app, (s) => s.matches({ members: 'running' }));
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
        byFriends: false,
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
        running().system.get(SYSTEM_IDS.auth)?.send({ type: 'test.user', target });
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
export type TicketView = Awaited<ReturnType<typeof startTicketView>>;
