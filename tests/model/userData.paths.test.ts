import { expect, it, vi } from 'vitest';
import {
  createActor,
  fromCallback,
  setup as setup_,
  type ActorRefFrom,
  type AnyEventObject,
} from 'xstate';
import type { AuthUserData } from '../../machines/auth/auth.types';
import { userDataMachine } from '../../machines/userData/userData.machine';
import { realtimeMachine } from '../../machines/realtime/realtime.machine';
import { selectIsPolling, selectIsSyncing } from '../../machines/userData/userData.selectors';
import { LIVE_UPDATE_WITHIN_MS } from '../support/oracle';
import { SPEC_TRANSITIONS } from '../support/specTransitions';
import { SYSTEM_IDS } from '../../machines/systemIds';
import {
  checkModelProperty,
  controllable,
  defineModel,
  delayOf,
  settle,
  specExpect,
  systemDriver,
  testPaths,
  withSpecRecord,
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
  required: SPEC_TRANSITIONS.userData,
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
    'xstate.after.changeBurst.userData.signedIn.sync.gathering': [{}],
  },
  paths: { simple: false, maxPaths: 1500 },
});

/**
 * user/data as the machine sees it: each request waits until the test answers it; a request
 * whose invoking state is left (sign-out) is aborted and no longer pending.
 */
const requests = () => controllable<AuthUserData>({ abortable: true });

function setup() {
  const fetch = requests();
  const delivered: AuthUserData[] = [];
  const homeTold: string[] = [];
  const warned: unknown[][] = [];
  const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    warned.push(args);
  });
  const facts = {
    signedIn: false,
    live: false,
    visible: true,
    missed: false,
    again: false,
    gathering: false,
  };
  // The service as the app runs it: in a system beside the auth and home services it tells.
  const root = createActor(
    setup_({
      actors: {
        userData: userDataMachine.provide({
          actors: {
            fetchUserData: fetch.logic,
            authWatch: fromCallback(() => {}),
            visibility: fromCallback(() => {}),
            // The connection stays disconnected here: this driver sends its facts itself.
            realtime: realtimeMachine.provide({
              actors: {
                socket: fromCallback(() => {}),
                network: fromCallback(() => {}),
                signInWatch: fromCallback(() => {}),
              },
            }),
          },
        }),
        auth: fromCallback<AnyEventObject>(({ receive }) => {
          receive((event) => {
            if (event.type === 'auth.userLoaded')
              delivered.push((event as unknown as { userData: AuthUserData }).userData);
          });
        }),
        home: fromCallback<AnyEventObject>(({ receive }) => {
          receive((event) => void homeTold.push(event.type));
        }),
      },
    }).createMachine({
      invoke: [
        { id: 'auth', systemId: SYSTEM_IDS.auth, src: 'auth' },
        { id: 'home', systemId: SYSTEM_IDS.home, src: 'home' },
        { id: 'userData', src: 'userData', input: { visible: true } },
      ],
    }),
  );
  root.start();
  const actor = root.getSnapshot().children.userData as unknown as ActorRefFrom<
    typeof userDataMachine
  >;
  return { root, actor, fetch, delivered, homeTold, warned, warn, facts };
}
type Ctx = ReturnType<typeof setup>;

const shouldPoll = (ctx: Ctx) => ctx.facts.signedIn && !ctx.facts.live && ctx.facts.visible;

/** A poll (or the socket's return) asks at once: a burst being heard is read with it. */
function ask(ctx: Ctx): number {
  if (!ctx.facts.signedIn) return 0;
  if (ctx.fetch.pending() > 0) {
    ctx.facts.again = true;
    return 0;
  }
  ctx.facts.gathering = false;
  return 1;
}

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
    // Signed in before the socket is up: a change told before it joins is missed.
    if (!was) Object.assign(ctx.facts, { missed: !ctx.facts.live, again: false, gathering: false });
    // Signing in here asks nothing (the sign-in answer or the session bootstrap brought
    // user/data); a jwt from another tab's sign-in comes without it, so it is asked once.
    await sendFact(ctx, event, !was && event.needsData === true ? 1 : 0);
  },
  'userData.signedOut': async ({ ctx, event }) => {
    ctx.facts.signedIn = false;
    ctx.facts.again = false;
    ctx.facts.gathering = false;
    await sendFact(ctx, event, 0);
    expect(ctx.fetch.pending()).toBe(0);
  },
  'userData.changed': async ({ ctx, event }) => {
    const busy = ctx.fetch.pending() > 0;
    if (ctx.facts.signedIn && busy) ctx.facts.again = true;
    else if (ctx.facts.signedIn) ctx.facts.gathering = true;
    // A change while signed in is heard with the rest of its burst before user/data is asked;
    // one heard while a request is on its way asks once more after it.
    await sendFact(ctx, event, 0);
  },
  'xstate.after.changeBurst.userData.signedIn.sync.gathering': async ({ ctx, event }) => {
    const ms = delayOf(userDataMachine, event.type);
    expect(ms, 'a burst is heard well within the live bound').toBeLessThan(
      LIVE_UPDATE_WITHIN_MS / 10,
    );
    const before = ctx.fetch.calls.length;
    vi.advanceTimersByTime(ms - 1);
    await settle();
    expect(ctx.fetch.calls.length, 'no request before the burst is over').toBe(before);
    vi.advanceTimersByTime(1);
    await settle();
    ctx.facts.gathering = false;
    expect(ctx.fetch.calls.length - before, 'one request for the whole burst').toBe(1);
  },
  'userData.live': async ({ ctx, event }) => {
    const resync = ctx.facts.signedIn && ctx.facts.missed;
    ctx.facts.live = true;
    ctx.facts.missed = false;
    // The socket up, first or back after a loss: what was said before reached nobody, so ask once.
    await sendFact(ctx, event, resync ? ask(ctx) : 0);
  },
  'userData.notLive': async ({ ctx, event }) => {
    ctx.facts.live = false;
    if (ctx.facts.signedIn) ctx.facts.missed = true;
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
    await sendFact(ctx, event, ask(ctx));
  },
  'xstate.done.actor.fetchUserData': async ({ ctx, event }) => {
    const again = ctx.facts.again;
    ctx.facts.again = false;
    const before = ctx.fetch.calls.length;
    const told = ctx.homeTold.length;
    await ctx.fetch.resolve(event.output as AuthUserData);
    // Every answer reaches the auth service (and the home service reads its codes again); a
    // change heard meanwhile asks exactly once more.
    specExpect('reading.live', ctx.delivered.at(-1), 'what the auth service heard last').toEqual(
      event.output,
    );
    specExpect('reading.live', ctx.homeTold.slice(told), 'what the home service heard').toEqual([
      'home.userChanged',
    ]);
    expect(ctx.fetch.calls.length - before).toBe(again ? 1 : 0);
  },
  'xstate.error.actor.fetchUserData': async ({ ctx, event }) => {
    const again = ctx.facts.again;
    ctx.facts.again = false;
    const delivered = ctx.delivered.length;
    const warned = ctx.warned.length;
    const before = ctx.fetch.calls.length;
    await ctx.fetch.reject(event.error);
    // A failed read delivers nothing and is not an error for the player (the console has it);
    // a pending change retries.
    expect(ctx.delivered.length).toBe(delivered);
    expect(ctx.warned.slice(warned).map((args) => args.at(-1))).toEqual([event.error]);
    expect(ctx.fetch.calls.length - before).toBe(again ? 1 : 0);
  },
  'xstate.after.pollInterval.userData.signedIn.poll.ticking': async ({ ctx, event }) => {
    const ms = delayOf(userDataMachine, event.type);
    // The bound: a change shows within 10 s even without the socket.
    expect(ms).toBeLessThanOrEqual(LIVE_UPDATE_WITHIN_MS);
    const before = ctx.fetch.calls.length;
    // A burst heard meanwhile is read when it is over, long before the interval.
    const burst = ctx.facts.gathering ? ask(ctx) : 0;
    vi.advanceTimersByTime(ms - 1);
    await settle();
    expect(ctx.fetch.calls.length - before, 'no poll before the interval').toBe(burst);
    const started = burst + ask(ctx);
    vi.advanceTimersByTime(1);
    await settle();
    expect(ctx.fetch.calls.length - before, 'one poll at the interval').toBe(started);
  },
} satisfies Executors<typeof model, Ctx>;

const driver = systemDriver(
  model,
  { live: ({ actor }) => actor, root: ({ root }) => root },
  {
    setup,
    teardown: ({ warn }) => {
      warn.mockRestore();
    },
    events,
    clauses: { '*': ['reading.live'] },
    states: {
      // In every state: one request at a time, and polling exactly while it should.
      '*': ({ ctx }) => {
        const live = ctx.actor.getSnapshot();
        expect(ctx.fetch.pending()).toBeLessThanOrEqual(1);
        expect(selectIsSyncing(live)).toBe(ctx.fetch.pending() === 1);
        expect(selectIsPolling(live)).toBe(shouldPoll(ctx));
        // It always follows the auth service's jwt and the page's visibility.
        expect(Object.keys(live.children)).toEqual(
          expect.arrayContaining(['authWatch', 'visibility']),
        );
        // Each answer told auth and home once each.
        expect(ctx.homeTold).toHaveLength(ctx.delivered.length);
      },
      signedOut: ({ ctx }) => expect(ctx.fetch.pending()).toBe(0),
    },
  },
);

// The record: the events so far, folded by the README's rules (specAfter, below) in every state.
testPaths(
  model,
  withSpecRecord(model, driver, {
    clauses: ['reading.live'],
    start: (): AnyEventObject[] => [],
    next: (history, event) => [...history, event],
    check: (ctx, history) => {
      const spec = specAfter(history);
      const live = ctx.actor.getSnapshot();
      specExpect('reading.live', selectIsSyncing(live), 'a read of user/data on its way').toBe(
        spec.syncing,
      );
      specExpect('reading.live', selectIsPolling(live), 'polling without the socket').toBe(
        spec.polling,
      );
      specExpect('reading.live', ctx.delivered.length, 'answers handed to auth').toBe(
        history.filter((e) => e.type === 'xstate.done.actor.fetchUserData').length,
      );
    },
  }),
);

/**
 * The rules folded over the events sent, as a reader of the README would apply them by hand:
 * whether a read of user/data is on its way, and whether the page polls.
 */
function specAfter(history: AnyEventObject[]) {
  const f = { signedIn: false, live: false, visible: true, missed: false, inFlight: false };
  let again = false;
  let gathering = false;
  const ask = () => {
    if (f.inFlight) again = true;
    else {
      f.inFlight = true;
      gathering = false;
    }
  };
  for (const event of history) {
    const type = event.type;
    if (type === 'userData.signedIn') {
      if (!f.signedIn) f.missed = !f.live;
      f.signedIn = true;
      again = false;
      if ((event as { needsData?: boolean }).needsData === true) f.inFlight = true;
    } else if (type === 'userData.signedOut') {
      Object.assign(f, { signedIn: false, inFlight: false });
      again = false;
      gathering = false;
    } else if (type === 'userData.changed') {
      // Heard with the rest of its burst; read once the burst is over.
      if (f.inFlight) again = true;
      else gathering = true;
    } else if (type.startsWith('xstate.after.changeBurst')) {
      if (gathering) ask();
    } else if (type === 'userData.poll') ask();
    else if (type.startsWith('xstate.after.pollInterval')) {
      // One read: a change still being gathered (its burst not over when the poll comes) is read
      // by the poll's request.
      ask();
    } else if (type === 'userData.live') {
      f.live = true;
      if (f.signedIn && f.missed) ask();
      f.missed = false;
    } else if (type === 'userData.notLive') {
      f.live = false;
      if (f.signedIn) f.missed = true;
    } else if (type === 'userData.visible') f.visible = true;
    else if (type === 'userData.hidden') f.visible = false;
    else if (type.startsWith('xstate.done.actor') || type.startsWith('xstate.error.actor')) {
      if (again) again = false;
      else f.inFlight = false;
    }
  }
  return {
    syncing: f.signedIn && f.inFlight,
    polling: f.signedIn && !f.live && f.visible,
  };
}

it('one read at a time, a change during a read asks once more, polling exactly without the socket', () => {
  checkModelProperty('user data: reads and polling by the rules', model, {
    maxEvents: 40,
    invariant: ({ snapshot, history }) => {
      const spec = specAfter(history);
      expect(selectIsSyncing(snapshot), 'a read on its way').toBe(spec.syncing);
      expect(selectIsPolling(snapshot), 'polling').toBe(spec.polling);
    },
  });
});
