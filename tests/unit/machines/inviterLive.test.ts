import { afterEach, expect, it, vi } from 'vitest';
import {
  createMachine,
  fromCallback,
  fromPromise,
  waitFor,
  type ActorRefLike,
  type AnyActorRef,
  type InspectionEvent,
} from 'xstate';
import { CALLS } from '../../../contract/api';
import { FRIENDS_FOR_ACCESS } from '../../../contract/spec';
import {
  NOTIFICATION_MESSAGE,
  ROOMS,
  type ServerFrame,
  type UserEventKind,
} from '../../../contract/realtime';
import { selectMembersRunning } from '../../../machines/app/app.selectors';
import { selectHasAccess } from '../../../machines/auth/auth.selectors';
import {
  selectAccessViaFriends,
  selectJustGranted,
  selectShowPurchasedModal,
} from '../../../machines/payment/payment.selectors';
import { realtimeMachine } from '../../../machines/realtime/realtime.machine';
import type { SocketCommand } from '../../../machines/realtime/realtime.types';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { REALTIME_NOTICES } from '../../../server/realtime/plugin';
import { createApiClient } from '../../../src/api/client';
import { createAppActor } from '../../../src/app/appActor';
import { appInput } from '../../../src/app/compose';
import type { ServiceRefs } from '../../../src/app/hooks';
import { providePayment } from '../../../src/app/provide/payment';
import { provideUserData } from '../../../src/app/provide/userData';
import { memoryStorage } from '../../support/memoryStorage';
import { createFakeFetch, USER_DATA } from '../api/fakeFetch';

/**
 * The inviter's live update (§2 Invite tab: confirmed tickets n/2; §4: access when 2 invitees buy
 * tickets), with the site's own root actor and member services (src/app) over a fetch that counts
 * every request, and a socket stand-in that hands the connection the frames the server pushes.
 * The inviter has one friend's ticket and the Get Ticket tab open; the second friend buys: the
 * server tells the inviter in two frames (a friend's ticket, then the access it gave). The page
 * follows with one read of user/data and nothing more, and the fact reaches the service that
 * reads it from the connection in one step.
 */
const NOW = Date.now();
const before = {
  ...USER_DATA,
  user_ref_registered: FRIENDS_FOR_ACCESS,
  user_ref_confirmed: FRIENDS_FOR_ACCESS - 1,
  user_data: {
    referral: {
      clicks: FRIENDS_FOR_ACCESS,
      registered: FRIENDS_FOR_ACCESS,
      confirmed: FRIENDS_FOR_ACCESS - 1,
    },
  },
};
const after = {
  ...before,
  user_access: 1,
  user_access_via: 'invites',
  user_ref_confirmed: FRIENDS_FOR_ACCESS,
  user_data: { referral: { ...before.user_data.referral, confirmed: FRIENDS_FOR_ACCESS } },
};

/** A change the server pushes to one user on the notifications room, with its banner. */
const pushed = (event: UserEventKind, text: string): ServerFrame => ({
  type: 'room_message',
  room: ROOMS.notifications,
  message: NOTIFICATION_MESSAGE,
  data: { type: 'success', text, event },
  from: 'server',
  timestamp: NOW,
});

/** One event as the inspector saw it: who sent it, who took it. */
type Hop = { type: string; from: ActorRefLike | undefined; to: ActorRefLike };

/**
 * The actors an event crossed before `to` acted on it: from `to` back through the last event
 * each one took from another actor, up to the socket (the network's edge, not counted).
 */
function actorsCrossed(hops: Hop[], to: AnyActorRef, edge: (ref: ActorRefLike) => boolean) {
  const crossed: string[] = [];
  let current: ActorRefLike | undefined = to;
  let end = hops.length;
  while (current && !edge(current)) {
    crossed.unshift((current as AnyActorRef).id);
    const at: ActorRefLike = current;
    const index = hops.slice(0, end).findLastIndex((h) => h.to === at && h.from !== at);
    if (index < 0) break;
    current = hops[index]?.from;
    end = index;
  }
  return crossed;
}

let stop: () => void = () => {};
afterEach(() => stop());

it("a friend's ticket that gives the inviter access: one user/data, at most 2 actors crossed", async () => {
  let user = before;
  const fake = createFakeFetch((r) => {
    if (r.path === 'sess/init')
      return { status: 200, json: { status: 'ok', version: '0.2.0', data: { public_data: {} } } };
    if (r.path === 'sess/load') return { status: 200, json: { status: 'ok' } };
    if (r.path === CALLS.userData.path)
      return { status: 200, json: { result: true, user_data: user } };
    if (r.path === CALLS.inviteCodes.path) return { status: 200, json: { codes: [] } };
    if (r.path === CALLS.walletBalance.path) {
      const granted = user.user_access === 1;
      const via = granted ? { access_via: user.user_access_via } : {};
      return {
        status: 200,
        json: { status: 'ok', access_granted: granted, balance: '0', ...via },
      };
    }
    return { status: 404, json: { message: 'not in this test' } };
  });
  const { storage } = memoryStorage({ jwt: 'jwt-1', refreshToken: 'r-1', sessionToken: 's-1' });
  const api = createApiClient({
    baseUrl: 'http://api.test/api/',
    getSessionToken: () => storage.get('sessionToken'),
    fetch: fake.fetch,
  });

  // The network's edges: the socket hands over what the test pushes; the wallet code is not
  // fetched. Everything between them is the site's.
  let push: (frame: ServerFrame) => void = () => {};
  let socket: AnyActorRef | undefined;
  const realtime = realtimeMachine.provide({
    actors: {
      socket: fromCallback<SocketCommand>(({ sendBack, self }) => {
        socket = self;
        push = (frame) => sendBack({ type: 'socket.received', frame, receivedAt: Date.now() });
      }),
      network: fromCallback(() => {}),
      signInWatch: fromCallback(({ sendBack }) => sendBack({ type: 'realtime.connect' })),
    },
  });
  const members = fromPromise(async () => ({
    payment: providePayment(api, async () => {}).provide({
      actions: { preloadWalletCode: () => {} },
    }),
    userData: provideUserData(api, realtime),
  }));

  const hops: Hop[] = [];
  const inspect = (event: InspectionEvent) => {
    if (event.type === '@xstate.event')
      hops.push({ type: event.event.type, from: event.sourceRef, to: event.actorRef });
  };
  // The services this update does not reach stand still (their browser parts need a page).
  const inert = createMachine({});
  const app = await createAppActor({
    deps: { api, storage },
    input: appInput(storage, { language: 'en', user_agent: 'unit' }),
    services: {
      loadMembers: members as never,
      theme: inert as never,
      errorModal: inert as never,
      signIn: inert as never,
      launch: inert as never,
    },
    inspect,
  });
  app.start();
  stop = () => app.stop();
  await waitFor(app, selectMembersRunning);
  const auth = app.system.get(SYSTEM_IDS.auth) as ServiceRefs['auth'];
  const payment = app.system.get(SYSTEM_IDS.payment) as ServiceRefs['payment'];
  const userData = app.system.get(SYSTEM_IDS.userData) as AnyActorRef;
  await waitFor(auth, (s) => s.context.userData !== null);
  payment.send({ type: 'payment.open' });
  const readsOfUserData = () =>
    fake.requests.filter((request) => request.path === CALLS.userData.path).length;
  const beforeConnect = readsOfUserData();
  push({ type: 'welcome', timestamp: NOW });
  await waitFor(
    app.system.get(SYSTEM_IDS.realtime) as AnyActorRef,
    (s: { hasTag(t: string): boolean }) => s.hasTag('connected'),
  );
  // The socket up: what the server said before it joined is read once (start-up, not the update).
  await vi.waitFor(() => expect(readsOfUserData()).toBe(beforeConnect + 1));
  await waitFor(userData, (s: { hasTag(t: string): boolean }) => !s.hasTag('syncing'));
  expect(selectHasAccess(auth.getSnapshot())).toBe(false);

  // The second friend's ticket is settled on the server; it tells the inviter.
  const requestsBefore = fake.requests.length;
  let hopsAtRead = -1;
  user = after;
  hops.length = 0;
  push(pushed('invite.confirmed', REALTIME_NOTICES.inviteConfirmed));
  push(pushed('access.granted', REALTIME_NOTICES.accessGrantedByFriends));
  const readStarted = waitFor(userData, (s: { hasTag(t: string): boolean }) =>
    s.hasTag('syncing'),
  ).then(() => {
    hopsAtRead = hops.length;
  });
  await readStarted;
  await waitFor(payment, (s) => selectAccessViaFriends(s) && selectJustGranted(s));
  // Nothing else follows: another burst's time and more pass without a request.
  await new Promise((resolve) => setTimeout(resolve, 400));

  const asked = fake.requests.slice(requestsBefore).map((r) => r.path);
  expect(asked, 'requests after the push').toEqual([CALLS.userData.path]);
  const crossed = actorsCrossed(hops.slice(0, hopsAtRead), userData, (ref) => ref === socket);
  expect(crossed, 'actors from the socket to the read of user/data').toEqual([
    SYSTEM_IDS.realtime,
    SYSTEM_IDS.userData,
  ]);
  expect(crossed.length).toBeLessThanOrEqual(2);
  // What the player sees: access through friends, no receipt (§2 Get Ticket, with access).
  expect(selectHasAccess(auth.getSnapshot())).toBe(true);
  expect(selectShowPurchasedModal(payment.getSnapshot())).toBe(false);
});
