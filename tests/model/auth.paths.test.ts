import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, type AnyEventObject } from 'xstate';
import { authMachine } from '../../machines/auth/auth.machine';
import { SPEC_MESSAGES } from '../support/oracle';
import { selectHasAccess, selectIsSignedIn } from '../../machines/auth/auth.selectors';
import type {
  AuthEvent,
  AuthInput,
  RefreshInput,
  RefreshOutput,
} from '../../machines/auth/auth.types';
import { EMPTY_STORED } from '../../machines/shared/stored';
import {
  checkProperty,
  defineModel,
  settle,
  testPaths,
  type Driver,
  type Executors,
} from '../support/paths';
import { USER_DATA } from '../unit/api/fakeFetch';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

/**
 * Generated paths of auth (§4 Auth, Token refresh, Access flag): sign-in, user data, access,
 * logout here and in another tab, and the refresh: one per current jwt, none for an old jwt,
 * logout when the refresh fails or there is no refresh token. Storage is a map the provided
 * actions write, checked against the context after every step.
 */
const input: AuthInput = { stored: { ...EMPTY_STORED, jwt: 'jwt-1', refreshToken: 'refresh-1' } };

const model = defineModel({
  name: 'auth',
  machine: authMachine,
  required: SPEC_TRANSITIONS.auth,
  input,
  events: {
    'auth.signedIn': [
      { jwt: 'jwt-9', refreshToken: 'refresh-9', userData: USER_DATA },
      { jwt: 'jwt-8', refreshToken: '', userData: { ...USER_DATA, user_access: 1 } },
    ],
    // §4 Access flag: only user_access === 1 grants access (2 is a value next to it).
    'auth.userLoaded': [
      { userData: { ...USER_DATA, user_lvl: 2 } },
      { userData: { ...USER_DATA, user_access: 2 } },
    ],
    'auth.accessGranted': [{}],
    'auth.logout': [{}],
    'auth.loggedOutElsewhere': [{}],
    'auth.signedInElsewhere': [{ jwt: 'jwt-5', refreshToken: 'refresh-5' }],
    'auth.refresh': [{ jwt: 'jwt-1' }, { jwt: 'jwt-2' }, { jwt: 'jwt-8' }, { jwt: 'jwt-old' }],
  },
  outcomes: {
    'xstate.done.actor.refreshTokens': [{ output: { jwt: 'jwt-2', refreshToken: 'refresh-2' } }],
    'xstate.error.actor.refreshTokens': [{ error: new Error('401') }],
  },
  // Simple paths explode with six event types in two states; shortest paths cover everything.
  paths: { simple: false },
});

/**
 * The refresh actor as a deferred per call; `resolve` / `reject` settle the newest call (a call
 * abandoned by leaving `refreshing` is stopped by the machine and never settled).
 */
function refreshFake() {
  const calls: RefreshInput[] = [];
  let latest: { resolve: (v: RefreshOutput) => void; reject: (e: unknown) => void } | null = null;
  return {
    calls,
    logic: fromPromise<RefreshOutput, RefreshInput>(({ input }) => {
      calls.push(input);
      return new Promise<RefreshOutput>((resolve, reject) => {
        latest = { resolve, reject };
      });
    }),
    resolve: async (output: RefreshOutput) => {
      latest?.resolve(output);
      await settle();
    },
    reject: async (error: unknown) => {
      latest?.reject(error);
      await settle();
    },
  };
}

function start() {
  const refresh = refreshFake();
  const storage = new Map<string, string>([
    ['jwt', 'jwt-1'],
    ['refreshToken', 'refresh-1'],
  ]);
  const otherTab: { report: ((event: AuthEvent) => void) | null } = { report: null };
  const revoked: (string | null)[] = [];
  let clears = 0;
  const actor = createActor(
    authMachine.provide({
      actors: {
        refreshTokens: refresh.logic,
        watchOtherTabs: fromCallback<AuthEvent>(({ sendBack }) => {
          otherTab.report = (event) => sendBack(event);
          return () => {
            otherTab.report = null;
          };
        }),
      },
      actions: {
        persistTokens: (_, p) => {
          storage.set('jwt', p.jwt);
          if (p.refreshToken) storage.set('refreshToken', p.refreshToken);
          else storage.delete('refreshToken');
        },
        revokeSession: (_, p) => {
          revoked.push(p.refreshToken);
        },
        clearStoredTokens: () => {
          clears += 1;
          storage.delete('jwt');
          storage.delete('refreshToken');
        },
      },
    }),
    { input },
  ).start();
  return { actor, refresh, storage, otherTab, revoked, clears: () => clears };
}
type Ctx = ReturnType<typeof start>;

const send = ({ ctx, event }: { ctx: Ctx; event: AnyEventObject }) =>
  void ctx.actor.send(event as never);

const events = {
  'auth.signedIn': send,
  'auth.userLoaded': send,
  'auth.accessGranted': send,
  // Exit asks the server to revoke the refresh token held at that moment (once).
  'auth.logout': ({ ctx, event }) => {
    const held = ctx.actor.getSnapshot().context.refreshToken;
    const signedIn = ctx.actor.getSnapshot().matches('signedIn');
    const before = ctx.revoked.length;
    ctx.actor.send(event);
    expect(ctx.revoked.slice(before)).toEqual(signedIn ? [held] : []);
  },
  'auth.loggedOutElsewhere': ({ ctx, event }) => {
    expect(ctx.otherTab.report, 'the other-tab watch always runs').not.toBeNull();
    // The other tab removed the tokens from the shared storage.
    ctx.storage.delete('jwt');
    ctx.storage.delete('refreshToken');
    const before = ctx.revoked.length;
    ctx.otherTab.report?.(event);
    expect(ctx.revoked.length, 'the other tab revoked its own session').toBe(before);
  },
  'auth.signedInElsewhere': ({ ctx, event }) => {
    expect(ctx.otherTab.report, 'the other-tab watch always runs').not.toBeNull();
    const signedIn = ctx.actor.getSnapshot().matches('signedIn');
    // Another tab signed in: its tokens are in the shared storage (this tab, when signed in,
    // keeps its own session: it would have seen the same tokens at its own sign-in).
    if (!signedIn) {
      ctx.storage.set('jwt', event.jwt);
      ctx.storage.set('refreshToken', event.refreshToken);
    }
    ctx.otherTab.report?.(event);
    const live = ctx.actor.getSnapshot();
    if (!signedIn) {
      expect(live.matches('signedIn')).toBe(true);
      expect(live.context).toMatchObject({ jwt: event.jwt, refreshToken: event.refreshToken });
      // Its user data is read again by the user-data service, not taken from the other tab.
      expect(live.context.userData).toBeNull();
    }
  },
  'auth.refresh': ({ ctx, event }) => {
    const before = ctx.refresh.calls.length;
    const current = ctx.actor.getSnapshot().context.jwt;
    ctx.actor.send(event as never);
    // §4 Token refresh: a 401 for a jwt that is no longer the current one starts no refresh.
    if ((event as { jwt: string }).jwt !== current)
      expect(ctx.refresh.calls.length, 'refresh for an old jwt').toBe(before);
  },
  'xstate.done.actor.refreshTokens': ({ ctx, event }) =>
    ctx.refresh.resolve((event as { output: RefreshOutput }).output),
  'xstate.error.actor.refreshTokens': ({ ctx, event }) =>
    ctx.refresh.reject((event as { error: unknown }).error),
} satisfies Executors<typeof model, Ctx>;

const driver: Driver<typeof model, Ctx> = {
  setup: start,
  teardown: ({ actor }) => void actor.stop(),
  actual: ({ actor }) => actor.getSnapshot(),
  events,
  states: {
    signedOut: ({ ctx, snapshot }) => {
      const c = ctx.actor.getSnapshot().context;
      expect(c).toMatchObject({ jwt: null, refreshToken: null, userData: null });
      expect(c.logoutReason).toBe(snapshot.context.logoutReason);
      expect([null, SPEC_MESSAGES.noRefreshToken, SPEC_MESSAGES.refreshFailed]).toContain(
        c.logoutReason,
      );
      expect(ctx.storage.has('jwt')).toBe(false);
      expect(ctx.storage.has('refreshToken')).toBe(false);
      expect(ctx.otherTab.report).not.toBeNull();
      expect(selectIsSignedIn(ctx.actor.getSnapshot())).toBe(false);
      expect(selectHasAccess(ctx.actor.getSnapshot())).toBe(false);
    },
    signedIn: ({ ctx, snapshot }) => {
      const live = ctx.actor.getSnapshot();
      expect(live.context).toEqual(snapshot.context);
      expect(ctx.storage.get('jwt')).toBe(live.context.jwt);
      expect(ctx.storage.get('refreshToken') ?? null).toBe(live.context.refreshToken);
      expect(selectIsSignedIn(live)).toBe(live.context.userData !== null);
      expect(selectHasAccess(live)).toBe(live.context.userData?.user_access === 1);
    },
    'signedIn.idle': ({ ctx }) => {
      expect(ctx.actor.getSnapshot().children.refreshTokens).toBeUndefined();
    },
    'signedIn.refreshing': ({ ctx }) => {
      expect(ctx.actor.getSnapshot().children.refreshTokens).toBeDefined();
      expect(ctx.refresh.calls.at(-1)).toEqual({
        refreshToken: ctx.actor.getSnapshot().context.refreshToken,
      });
    },
  },
};

testPaths(model, driver);

describe('auth properties', () => {
  it('signed out holds nothing; a refresh runs only with a refresh token; the epoch tracks the session', () => {
    checkProperty('auth invariants', {
      machine: authMachine,
      input,
      events: model.events.map((e) => e.event),
      invariant: ({ snapshot }) => {
        const c = snapshot.context;
        if (snapshot.matches('signedOut')) {
          expect(c).toMatchObject({ jwt: null, refreshToken: null, userData: null, epoch: null });
        } else {
          expect(c.jwt).not.toBeNull();
          expect(c.epoch).not.toBeNull();
          expect(c.logoutReason).toBeNull();
        }
        if (snapshot.matches({ signedIn: 'refreshing' })) expect(c.refreshToken).toBeTruthy();
        expect(selectIsSignedIn(snapshot)).toBe(c.jwt !== null && c.userData !== null);
      },
    });
  });
});
