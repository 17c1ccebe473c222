import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { appMachine, SERVICES } from '../../machines/app/app.machine';
import {
  selectMembersRunning,
  selectErrorText,
  selectHasError,
  selectIsLoaded,
  selectShowLoader,
} from '../../machines/app/app.selectors';
import { EMPTY_STORED } from '../../machines/shared/stored';
import {
  controllable,
  checkProperty,
  defineModel,
  specExpect,
  testPaths,
  withSpecRecord,
  type Driver,
  type Executors,
} from '../support/paths';
import { SPEC_INSTANTS, SPEC_LIMITS } from '../support/oracle';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

/**
 * Generated paths of the root actor (§4 App load): the session bootstrap reports loaded or failed,
 * and the app's loaded flag and application error follow. The long-lived services are replaced
 * by inert stand-ins: this chart only reacts to what the session reports.
 */
const input = {
  stored: { ...EMPTY_STORED, jwt: 'jwt-1', sessionToken: 'session-1', theme: 'dark' },
  startData: { language: 'en', user_agent: 'test' },
};
/** Stand-in logic that keeps the input it was started with, for the checks to read. */
const keepsInput = createMachine({ context: ({ input }) => ({ input }) });
// Stand-in logic for the member services, the output of the app's own `loadMembers`.
const member = keepsInput as never;
/** The launch stand-in records what the app tells it (the server's calendar). */
const toLaunch: { type: string }[] = [];
const launchStandIn = createMachine({
  context: ({ input }) => ({ input }),
  on: { '*': { actions: ({ event }) => void toLaunch.push(event) } },
}) as never;

/**
 * §1, §9 and README "Calendar and prices": public_data carries the training start and the Early
 * Bird's end, the spec's by default, a studio's own otherwise (here the launch a month later).
 */
const SPEC_PUBLIC_DATA = {
  launch_at: SPEC_INSTANTS.launchAt,
  early_bird_end: SPEC_INSTANTS.earlyBirdEnd,
  price: '0.22',
};
const STUDIO_PUBLIC_DATA = {
  launch_at: '2026-01-19T18:00:00Z',
  early_bird_end: '2025-11-10T00:00:00+01:00',
  invitation_from: '2025-12-01T00:00:00Z',
};

/**
 * The chart the generator walks: the pure traversal takes every transition in one actor system,
 * where a systemId can be registered once, so there the member services are not spawned (the
 * walk reads states only). The paths themselves run the real chart (start()), spawning included.
 */
const walked = appMachine.provide({
  actions: { spawnMembers: () => {} },
});

const model = defineModel({
  name: 'app',
  machine: walked,
  required: SPEC_TRANSITIONS.app,
  input,
  events: {
    'app.retryMembers': [{}],
    'session.loaded': [
      { publicData: SPEC_PUBLIC_DATA },
      { publicData: STUDIO_PUBLIC_DATA },
      { publicData: {} },
    ],
    'session.failed': [
      { code: 'Init', text: 'Failed to load session' },
      {
        code: 'Version',
        text: 'Expired version. Please reload the app - version 0.2.0 is required',
      },
    ],
  },
  outcomes: {
    'xstate.done.actor.loadMembers': [{ output: { payment: member, userData: member } }],
    'xstate.error.actor.loadMembers': [{ error: new TypeError('Failed to fetch members chunk') }],
  },
  paths: { maxPaths: 400 },
});

// Stand-ins for the spawned services and the session bootstrap: they never report anything.
const inert = keepsInput as never;
const standIns = Object.fromEntries(
  [...Object.keys(SERVICES), 'session'].map((id) => [id, id === 'launch' ? launchStandIn : inert]),
) as never;

function start() {
  toLaunch.length = 0;
  failedWith = null;
  const loadMembers = controllable<unknown>();
  const unavailable: unknown[] = [];
  const actor = createActor(
    appMachine.provide({
      actors: { ...(standIns as object), loadMembers: loadMembers.logic } as never,
      actions: { reportMembersUnavailable: (_, { error }) => void unavailable.push(error) },
    }),
    { input },
  );
  actor.start();
  return { actor, loadMembers, unavailable, retries: 0, sessionLoaded: false };
}
type Ctx = ReturnType<typeof start>;
/** The failure the session reported while the app was loading (the application error's source). */
let failedWith: { code: string; text: string } | null = null;

/** The input a child was started with (its stand-in keeps it). */
const inputOf = (ctx: Ctx, id: string): unknown =>
  (
    (ctx.actor.getSnapshot().children as Record<string, { getSnapshot(): unknown } | undefined>)[
      id
    ]?.getSnapshot() as { context?: { input?: unknown } } | undefined
  )?.context?.input;

/** §2 Shell and §4 App load, read through the selectors the views use. */
function expectApp(ctx: Ctx, loaded: boolean, error: { code: string; text: string } | null) {
  const s = ctx.actor.getSnapshot();
  expect(selectIsLoaded(s), '§4 loaded when session init ends (also on failure)').toBe(loaded);
  expect(selectHasError(s), '§3 application error flag').toBe(error !== null);
  expect(selectErrorText(s), '§3 application error text').toBe(error?.text ?? '');
  expect(s.context.error?.code ?? '', '§3 application error code').toBe(error?.code ?? '');
  expect(selectShowLoader(s), '§2 loader until loaded, and whenever an error is set').toBe(
    !loaded || error !== null,
  );
}

const events = {
  'xstate.done.actor.loadMembers': ({ ctx, event }) =>
    ctx.loadMembers.resolve((event as { output: unknown }).output),
  'xstate.error.actor.loadMembers': ({ ctx, event }) =>
    ctx.loadMembers.reject((event as { error: unknown }).error),
  'app.retryMembers': ({ ctx, event }) => {
    ctx.retries += 1;
    ctx.actor.send(event);
  },
  'session.loaded': ({ ctx, event }) => {
    ctx.sessionLoaded = true;
    ctx.actor.send(event);
  },
  'session.failed': ({ ctx, event }) => {
    if (ctx.actor.getSnapshot().matches({ boot: 'loading' })) failedWith = event;
    ctx.actor.send(event);
  },
} satisfies Executors<typeof model, Ctx>;

const driver: Driver<typeof model, Ctx> = {
  setup: start,
  teardown: ({ actor }) => {
    actor.stop();
  },
  actual: ({ actor }) => actor.getSnapshot(),
  events,
  clauses: { '*': ['§4.app.load'], 'boot.failed': ['§4.app.load', '§8.session.errors'] },
  states: {
    // In every state: the member services run, under their ids and systemIds, exactly when their
    // code has loaded; their code is asked for once the session has loaded, and once per Retry.
    '*': ({ ctx, snapshot }) => {
      const live = ctx.actor.getSnapshot();
      const children = live.children as Record<string, unknown>;
      const running = selectMembersRunning(snapshot);
      for (const id of ['payment', 'userData']) {
        expect(Boolean(children[id]), `${id} spawned`).toBe(running);
        expect(Boolean(ctx.actor.system.get(id)), `${id} in the system`).toBe(running);
      }
      // Asked for once the session has loaded (never for a page that failed to start).
      expect(ctx.loadMembers.calls.length, 'the members chunk asked for').toBe(
        (ctx.sessionLoaded ? 1 : 0) + ctx.retries,
      );
      expect(ctx.unavailable.length, 'a chunk that failed is reported').toBe(
        ctx.loadMembers.calls.length - (running || ctx.loadMembers.pending() > 0 ? 1 : 0),
      );
      // Every service starts with what storage held at boot; the session with its token, whether
      // a jwt is stored (§4: with a jwt the user data follows) and the start data.
      for (const id of [...Object.keys(SERVICES), 'payment', 'userData'])
        if (children[id])
          expect(inputOf(ctx, id), `${id}'s input`).toEqual({ stored: input.stored });
      // The session also names the app machine, the parent it tells its facts.
      specExpect('§4.session.userData', inputOf(ctx, 'session'), "the session's input").toEqual({
        parent: ctx.actor,
        sessionToken: 'session-1',
        hasJwt: true,
        startData: input.startData,
      });
    },
    'boot.loading': ({ ctx }) => expectApp(ctx, false, null),
    'boot.loaded': ({ ctx }) => expectApp(ctx, true, null),
    'boot.failed': ({ ctx }) => {
      expect(failedWith, 'the session reported a failure while loading').not.toBeNull();
      expectApp(ctx, true, failedWith);
    },
  },
};

/**
 * What §2 Shell and §4 App load say, kept from the events alone: the boot (loading, loaded, or
 * failed with the session's error), the member services (asked for once the session loaded,
 * again on Retry), and what the launch service must have heard: the server's two instants, each
 * under its own name.
 */
type AppRecord = {
  boot: 'loading' | 'loaded' | 'failed';
  error: { code: string; text: string } | null;
  members: 'waiting' | 'notNeeded' | 'loading' | 'unavailable' | 'running';
  toLaunch: {
    type: 'launch.calendarTold';
    launchAt?: string;
    earlyBirdEnd?: string;
    invitationFrom?: string;
  }[];
};

const withRecord = withSpecRecord(model, driver, {
  clauses: ['§4.app.load', '§1.launch.date', '§9.earlyBird'],
  start: (): AppRecord => ({ boot: 'loading', error: null, members: 'waiting', toLaunch: [] }),
  next: (x, event): AppRecord => {
    switch (event.type) {
      case 'session.loaded': {
        if (x.boot !== 'loading') return x;
        const data = event.publicData as {
          launch_at?: string;
          early_bird_end?: string;
          invitation_from?: string;
        };
        return {
          ...x,
          boot: 'loaded',
          members: 'loading',
          toLaunch: [
            ...x.toLaunch,
            {
              type: 'launch.calendarTold',
              launchAt: data.launch_at,
              earlyBirdEnd: data.early_bird_end,
              invitationFrom: data.invitation_from,
            },
          ],
        };
      }
      case 'session.failed':
        return x.boot === 'loading'
          ? {
              ...x,
              boot: 'failed',
              error: { code: event.code, text: event.text },
              members: 'notNeeded',
            }
          : x;
      case 'xstate.done.actor.loadMembers':
        return x.members === 'loading' ? { ...x, members: 'running' } : x;
      case 'xstate.error.actor.loadMembers':
        return x.members === 'loading' ? { ...x, members: 'unavailable' } : x;
      case 'app.retryMembers':
        return x.members === 'unavailable' ? { ...x, members: 'loading' } : x;
    }
  },
  check: (ctx, x) => {
    const s = ctx.actor.getSnapshot();
    specExpect('§4.app.load', selectIsLoaded(s), 'loaded (session init ended)').toBe(
      x.boot !== 'loading',
    );
    specExpect('§4.app.load', s.context.error?.code ?? '', 'application error code').toBe(
      x.error?.code ?? '',
    );
    specExpect('§4.app.load', selectErrorText(s), 'application error text').toBe(
      x.error?.text ?? '',
    );
    expect(selectMembersRunning(s), 'the member services run').toBe(x.members === 'running');
    // app → launch: the calendar arrives by name (launch_at is the training start, §1).
    const told = toLaunch as AppRecord['toLaunch'];
    specExpect('§1.launch.date', told.length, 'calendars told to the launch service').toBe(
      x.toLaunch.length,
    );
    for (const [i, want] of x.toLaunch.entries()) {
      specExpect('§1.launch.date', told[i]?.launchAt, 'launch service: launchAt').toBe(
        want.launchAt,
      );
      specExpect('§9.earlyBird', told[i]?.earlyBirdEnd, 'launch service: earlyBirdEnd').toBe(
        want.earlyBirdEnd,
      );
    }
  },
});

testPaths(model, withRecord);

it('the spec calendar the app forwards reads as §1 and §9 write it, in any zone [§1.launch.date]', () => {
  const ctx = start();
  ctx.actor.send({ type: 'session.loaded', publicData: SPEC_PUBLIC_DATA });
  const told = toLaunch[0] as { launchAt?: string; earlyBirdEnd?: string } | undefined;
  specExpect('§1.launch.date', Date.parse(told?.launchAt ?? ''), 'training start (ms)').toBe(
    SPEC_LIMITS.launchAt,
  );
  specExpect('§9.earlyBird', Date.parse(told?.earlyBirdEnd ?? ''), 'Early Bird end (ms)').toBe(
    SPEC_LIMITS.earlyBirdEnd,
  );
  ctx.actor.stop();
});

describe('app properties', () => {
  it('an application error exists exactly when the app failed to load', () => {
    checkProperty('app error iff failed', {
      machine: appMachine,
      input,
      events: model.events.map((e) => e.event),
      invariant: ({ snapshot }) =>
        (snapshot.context.error !== null) === snapshot.matches({ boot: 'failed' }),
    });
  });
});
