import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { appMachine, SERVICES } from '../../machines/app/app.machine';
import { EMPTY_STORED } from '../../machines/shared/stored';
import {
  checkProperty,
  defineModel,
  testPaths,
  type Driver,
  type Executors,
} from '../support/paths';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

/**
 * Generated paths of the root actor (§4 App load): the session bootstrap reports loaded or failed,
 * and the app's loaded flag and application error follow. The long-lived services are replaced
 * by inert stand-ins: this chart only reacts to what the session reports.
 */
const input = { stored: EMPTY_STORED, startData: { language: 'en', user_agent: 'test' } };
// Stand-in logic for the member services handed over by the composition root.
const member = createMachine({}) as never;
/** The user-data stand-in records what reaches it: the realtime facts the app passes on. */
const forwarded: { type: string }[] = [];
const userDataMember = createMachine({
  on: { '*': { actions: ({ event }) => void forwarded.push(event) } },
}) as never;

const model = defineModel({
  name: 'app',
  machine: appMachine,
  required: SPEC_TRANSITIONS.app,
  input,
  events: {
    'app.membersLoaded': [{ payment: member, realtime: member, userData: userDataMember }],
    'userData.changed': [{ kind: 'invite.confirmed' }],
    'userData.live': [{}],
    'userData.notLive': [{}],
    'session.loaded': [{}],
    'session.failed': [
      { code: 'Init', text: 'Failed to load session' },
      {
        code: 'Version',
        text: 'Expired version. Please reload the app - version 0.2.0 is required',
      },
    ],
  },
  paths: { maxPaths: 400 },
});

// Stand-ins for the spawned services and the session bootstrap: they never report anything.
const inert = createMachine({}) as never;
const standIns = Object.fromEntries(
  [...Object.keys(SERVICES), 'session'].map((id) => [id, inert]),
) as never;

function start() {
  forwarded.length = 0;
  const actor = createActor(appMachine.provide({ actors: standIns }), {
    input,
  });
  actor.start();
  return { actor };
}
type Ctx = ReturnType<typeof start>;

function forwardCheck(ctx: Ctx, event: { type: string }) {
  const running = ctx.actor.getSnapshot().context.membersRunning;
  const before = forwarded.length;
  ctx.actor.send(event as never);
  expect(forwarded.slice(before)).toEqual(running ? [event] : []);
}

const events = {
  'app.membersLoaded': ({ ctx, event }) => ctx.actor.send(event),
  'session.loaded': ({ ctx, event }) => ctx.actor.send(event),
  'session.failed': ({ ctx, event }) => ctx.actor.send(event),
  // A realtime fact reaches the user-data service once it runs, and is dropped before.
  'userData.changed': ({ ctx, event }) => forwardCheck(ctx, event),
  'userData.live': ({ ctx, event }) => forwardCheck(ctx, event),
  'userData.notLive': ({ ctx, event }) => forwardCheck(ctx, event),
} satisfies Executors<typeof model, Ctx>;

const driver: Driver<typeof model, Ctx> = {
  setup: start,
  teardown: ({ actor }) => {
    actor.stop();
  },
  actual: ({ actor }) => actor.getSnapshot(),
  events,
  states: {
    // In every state: the member services run exactly when the chart says they were handed over.
    '*': ({ ctx, snapshot }) => {
      const children = ctx.actor.getSnapshot().children as Record<string, unknown>;
      expect(Boolean(children.payment)).toBe(snapshot.context.membersRunning);
      expect(Boolean(children.realtime)).toBe(snapshot.context.membersRunning);
      expect(Boolean(children.userData)).toBe(snapshot.context.membersRunning);
    },
    loading: ({ ctx }) => expect(ctx.actor.getSnapshot().context.error).toBeNull(),
    loaded: ({ ctx }) => expect(ctx.actor.getSnapshot().context.error).toBeNull(),
    failed: ({ ctx, snapshot }) => {
      expect(ctx.actor.getSnapshot().context.error).toEqual(snapshot.context.error);
      expect(ctx.actor.getSnapshot().context.error?.code).toMatch(/^(Init|Version)$/);
    },
  },
};

testPaths(model, driver);

describe('app properties', () => {
  it('an application error exists exactly when the app failed to load', () => {
    checkProperty('app error iff failed', {
      machine: appMachine,
      input,
      events: model.events.map((e) => e.event),
      invariant: ({ snapshot }) => (snapshot.context.error !== null) === snapshot.matches('failed'),
    });
  });
});
