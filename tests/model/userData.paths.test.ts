import { expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { AuthUserData } from '../../machines/auth/auth.types';
import { userDataMachine } from '../../machines/userData/userData.machine';
import { selectIsPolling, selectIsSyncing } from '../../machines/userData/userData.selectors';
import { LIVE_UPDATE_WITHIN_MS } from '../support/oracle';
import {
  checkProperty,
  defineModel,
  delayOf,
  settle,
  testPaths,
  type Driver,
  type Executors,
} from '../support/paths';

/**
 * Generated paths through the user-data service: server changes and the poll ask user/data again,
 * one request at a time, a change during a request asks once more after it, and the poll runs
 * exactly while signed in, the socket down and the page visible. The expectations come from the
 * facts this driver sent (signed in, socket up, page visible), never from the chart's context.
 */
const user = (registered: number): AuthUserData => ({
  user_email: 'a@b.co',
  user_lvl: 0,
  user_access: 0,
  user_invite_code: 'ABC',
  user_payment_wallet: 'Wallet1111',
  user_payment_wallet_balance: '0',
  user_payment_wallet_data: { wallet_id: 'w1' },
  user_ref_registered: registered,
  user_ref_confirmed: 0,
  user_data: { referral: { clicks: 0, registered, confirmed: 0 } },
});

const model = defineModel({
  name: 'userData',
  machine: userDataMachine,
  events: {
    'userData.signedIn': [{}, { needsData: true }],
    'userData.signedOut': [{}],
    'userData.changed': [{ kind: 'invite.registered' }],
    'userData.live': [{}],
    'userData.notLive': [{}],
    'userData.visible': [{}],
    'userData.hidden': [{}],
    'userData.poll': [{}],
  },
  outcomes: {
    'xstate.done.actor.fetchUserData': [{ output: user(2) }],
    'xstate.error.actor.fetchUserData': [{ error: new Error('Network connection failed') }],
    'xstate.after.pollInterval.userData.signedIn.poll.ticking': [{}],
  },
  paths: { simple: false, maxPaths: 1500 },
});

/**
 * user/data as the machine sees it: each request waits until the test answers it; a request
 * whose invoking state is left (sign-out) is aborted and no longer pending.
 */
function requests() {
  const waiting: { resolve: (v: AuthUserData) => void; reject: (e: unknown) => void }[] = [];
  const calls: number[] = [];
  const next = () => {
    const deferred = waiting.shift();
    if (!deferred) throw new Error('no user/data request is pending');
    return deferred;
  };
  return {
    logic: fromPromise<AuthUserData>(({ signal }) => {
      calls.push(calls.length);
      return new Promise<AuthUserData>((resolve, reject) => {
        const entry = { resolve, reject };
        waiting.push(entry);
        signal.addEventListener('abort', () => {
          const at = waiting.indexOf(entry);
          if (at >= 0) waiting.splice(at, 1);
        });
      });
    }),
    calls,
    pending: () => waiting.length,
    resolve: (output: AuthUserData) => next().resolve(output),
    reject: (error: unknown) => next().reject(error),
  };
}

function setup() {
  const fetch = requests();
  const delivered: AuthUserData[] = [];
  const facts = { signedIn: false, live: false, visible: true, dropped: false, again: false };
  const actor = createActor(
    userDataMachine.provide({
      actors: {
        fetchUserData: fetch.logic,
        authWatch: fromCallback(() => {}),
        visibility: fromCallback(() => {}),
      },
      actions: {
        deliver: (_, params) => {
          delivered.push(params.userData);
        },
        logFailure: () => {},
      },
    }),
    { input: { visible: true } },
  );
  actor.start();
  return { actor, fetch, delivered, facts };
}
type Ctx = ReturnType<typeof setup>;

const shouldPoll = (ctx: Ctx) => ctx.facts.signedIn && !ctx.facts.live && ctx.facts.visible;

/** Sends a fact and checks how many user/data requests it started. */
async function sendFact(ctx: Ctx, event: Parameters<Ctx['actor']['send']>[0], started: number) {
  const before = ctx.fetch.calls.length;
  ctx.actor.send(event);
  await settle();
  expect(ctx.fetch.calls.length - before, `${event.type}: user/data requests started`).toBe(
    started,
  );
}

const events = {
  'userData.signedIn': async ({ ctx, event }) => {
    const was = ctx.facts.signedIn;
    ctx.facts.signedIn = true;
    if (!was) Object.assign(ctx.facts, { dropped: false, again: false });
    // Signing in here asks nothing (the sign-in answer or the session bootstrap brought
    // user/data); a jwt from another tab's sign-in comes without it, so it is asked once.
    await sendFact(ctx, event, !was && event.needsData === true ? 1 : 0);
  },
  'userData.signedOut': async ({ ctx, event }) => {
    ctx.facts.signedIn = false;
    ctx.facts.again = false;
    await sendFact(ctx, event, 0);
    expect(ctx.fetch.pending()).toBe(0);
  },
  'userData.changed': async ({ ctx, event }) => {
    const busy = ctx.fetch.pending() > 0;
    if (ctx.facts.signedIn && busy) ctx.facts.again = true;
    // A change while signed in asks user/data at once, unless a request is already on its way.
    await sendFact(ctx, event, ctx.facts.signedIn && !busy ? 1 : 0);
  },
  'userData.live': async ({ ctx, event }) => {
    const resync = ctx.facts.signedIn && ctx.facts.dropped;
    const busy = ctx.fetch.pending() > 0;
    ctx.facts.live = true;
    ctx.facts.dropped = false;
    if (resync && busy) ctx.facts.again = true;
    // The socket back after a loss: what was said meanwhile was missed, so ask once.
    await sendFact(ctx, event, resync && !busy ? 1 : 0);
  },
  'userData.notLive': async ({ ctx, event }) => {
    ctx.facts.live = false;
    if (ctx.facts.signedIn) ctx.facts.dropped = true;
    await sendFact(ctx, event, 0);
  },
  'userData.visible': async ({ ctx, event }) => {
    ctx.facts.visible = true;
    await sendFact(ctx, event, 0);
  },
  'userData.hidden': async ({ ctx, event }) => {
    ctx.facts.visible = false;
    await sendFact(ctx, event, 0);
  },
  // Raised by the chart at the poll interval and when the socket returns; sent here directly.
  'userData.poll': async ({ ctx, event }) => {
    const busy = ctx.fetch.pending() > 0;
    if (ctx.facts.signedIn && busy) ctx.facts.again = true;
    await sendFact(ctx, event, ctx.facts.signedIn && !busy ? 1 : 0);
  },
  'xstate.done.actor.fetchUserData': async ({ ctx, event }) => {
    const again = ctx.facts.again;
    ctx.facts.again = false;
    const before = ctx.fetch.calls.length;
    ctx.fetch.resolve(event.output as AuthUserData);
    await settle();
    // Every answer reaches the auth service; a change heard meanwhile asks exactly once more.
    expect(ctx.delivered.at(-1)).toEqual(event.output);
    expect(ctx.fetch.calls.length - before).toBe(again ? 1 : 0);
  },
  'xstate.error.actor.fetchUserData': async ({ ctx, event }) => {
    const again = ctx.facts.again;
    ctx.facts.again = false;
    const delivered = ctx.delivered.length;
    const before = ctx.fetch.calls.length;
    ctx.fetch.reject(event.error);
    await settle();
    // A failed read delivers nothing and is not an error for the player; a pending change retries.
    expect(ctx.delivered.length).toBe(delivered);
    expect(ctx.fetch.calls.length - before).toBe(again ? 1 : 0);
  },
  'xstate.after.pollInterval.userData.signedIn.poll.ticking': async ({ ctx, event }) => {
    const ms = delayOf(userDataMachine, event.type);
    // The bound: a change shows within 10 s even without the socket.
    expect(ms).toBeLessThanOrEqual(LIVE_UPDATE_WITHIN_MS);
    const busy = ctx.fetch.pending() > 0;
    const before = ctx.fetch.calls.length;
    vi.advanceTimersByTime(ms - 1);
    await settle();
    expect(ctx.fetch.calls.length, 'no poll before the interval').toBe(before);
    vi.advanceTimersByTime(1);
    await settle();
    if (busy) ctx.facts.again = true;
    expect(ctx.fetch.calls.length - before, 'one poll at the interval').toBe(busy ? 0 : 1);
  },
} satisfies Executors<typeof model, Ctx>;

const driver: Driver<typeof model, Ctx> = {
  setup,
  teardown: ({ actor }) => {
    actor.stop();
  },
  actual: ({ actor }) => actor.getSnapshot(),
  events,
  states: {
    // In every state: one request at a time, and polling exactly while it should.
    '*': ({ ctx }) => {
      const live = ctx.actor.getSnapshot();
      expect(ctx.fetch.pending()).toBeLessThanOrEqual(1);
      expect(selectIsSyncing(live)).toBe(ctx.fetch.pending() === 1);
      expect(selectIsPolling(live)).toBe(shouldPoll(ctx));
    },
    signedOut: ({ ctx }) => expect(ctx.fetch.pending()).toBe(0),
  },
};

testPaths(model, driver);

it('never more than one user/data request at a time, and none while signed out', () => {
  checkProperty('user data: single flight', {
    machine: userDataMachine,
    events: model.events.map((e) => e.event),
    maxEvents: 40,
    invariant: ({ snapshot }) =>
      !(snapshot.matches('signedOut') && snapshot.hasTag('syncing')) &&
      (!snapshot.hasTag('polling') || (!snapshot.context.live && snapshot.context.visible)),
  });
});
