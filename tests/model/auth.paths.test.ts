import { describe, expect, it } from 'vitest';
import {
  createActor,
  fromCallback,
  fromPromise,
  setup as setupSystem,
  type AnyEventObject,
} from 'xstate';
import { SYSTEM_IDS } from '../../machines/systemIds';
import {
  selectGangsterCount,
  selectGangstersFromFriends,
} from '../../machines/auth/gang.selectors';
import { authMachine } from '../../machines/auth/auth.machine';
import { SITE_MESSAGES, SPEC_MESSAGES } from '../support/oracle';
import {
  selectAccessByFriends,
  selectEmail,
  selectHasAccess,
  selectHasJwt,
  selectInviteCode,
  selectIsRefreshing,
  selectIsSignedIn,
  selectPaymentWallet,
  selectPaymentWalletBalance,
  selectReferralClicks,
  selectReferralConfirmed,
  selectReferralRegistered,
  selectTelegramLink,
  selectWalletId,
} from '../../machines/auth/auth.selectors';
import type {
  AuthEvent,
  AuthInput,
  AuthUserData,
  RefreshInput,
  RefreshOutput,
} from '../../machines/auth/auth.types';
import { EMPTY_STORED } from '../../machines/shared/stored';
import {
  actorDriver,
  checkModelProperty,
  defineModel,
  settle,
  specExpect,
  testPaths,
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
      {
        jwt: 'jwt-8',
        refreshToken: '',
        userData: {
          ...USER_DATA,
          user_access: 1,
          user_access_via: 'invites',
          user_telegram_link: 'https://t.me/example',
        },
      },
    ],
    // §4 Access flag: only user_access === 1 grants access (2 is a value next to it).
    'auth.userLoaded': [
      {
        userData: {
          ...USER_DATA,
          user_lvl: 2,
          user_payment_wallet_balance: '0.5',
          user_ref_registered: 3,
          user_ref_confirmed: 1,
          user_data: { referral: { clicks: 7, registered: 3, confirmed: 1 } },
        },
      },
      { userData: { ...USER_DATA, user_access: 2, user_access_via: 'invites' } },
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

/**
 * What §4 says the session must hold after each step, kept by the executors from the events
 * alone (never read back from the chart): where the machine must be and what it must hold.
 */
type Expected = {
  at: 'signedOut' | 'idle' | 'refreshing';
  jwt: string | null;
  refreshToken: string | null;
  userData: AuthUserData | null;
  epoch: string | null;
  logoutReason: string | null;
};
/** §4: a stored jwt restores the session at boot (its user data is read afterwards). */
const restored: Expected = {
  at: 'idle',
  jwt: 'jwt-1',
  refreshToken: 'refresh-1',
  userData: null,
  epoch: 'jwt-1',
  logoutReason: null,
};
const loggedOut = (logoutReason: string | null): Expected => ({
  at: 'signedOut',
  jwt: null,
  refreshToken: null,
  userData: null,
  epoch: null,
  logoutReason,
});

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
  return {
    actor,
    refresh,
    storage,
    otherTab,
    revoked,
    clears: () => clears,
    expected: { ...restored },
  };
}
type Ctx = ReturnType<typeof start>;

const signedInNow = (ctx: Ctx) => ctx.expected.at !== 'signedOut';

const events = {
  // §4: a verified sign-in (also over a running session) holds the new tokens and user data.
  'auth.signedIn': ({ ctx, event }) => {
    ctx.actor.send(event);
    ctx.expected = {
      at: 'idle',
      jwt: event.jwt,
      refreshToken: event.refreshToken || null,
      userData: event.userData,
      epoch: event.jwt,
      logoutReason: null,
    };
  },
  // User data is kept only while signed in.
  'auth.userLoaded': ({ ctx, event }) => {
    ctx.actor.send(event);
    if (signedInNow(ctx)) ctx.expected = { ...ctx.expected, userData: event.userData };
  },
  // §4 Access flag: access granted sets user_access to 1 on the user data held.
  'auth.accessGranted': ({ ctx, event }) => {
    ctx.actor.send(event);
    const user = ctx.expected.userData;
    if (signedInNow(ctx) && user)
      ctx.expected = { ...ctx.expected, userData: { ...user, user_access: 1 } };
  },
  // Exit asks the server to revoke the refresh token held at that moment (once).
  'auth.logout': ({ ctx, event }) => {
    const held = ctx.expected.refreshToken;
    const signedIn = signedInNow(ctx);
    const before = ctx.revoked.length;
    ctx.actor.send(event);
    expect(ctx.revoked.slice(before)).toEqual(signedIn ? [held] : []);
    if (signedIn) ctx.expected = loggedOut(null);
  },
  'auth.loggedOutElsewhere': ({ ctx, event }) => {
    expect(ctx.otherTab.report, 'the other-tab watch always runs').not.toBeNull();
    // The other tab removed the jwt (the key the watch follows); this tab clears the rest.
    ctx.storage.delete('jwt');
    const before = ctx.revoked.length;
    ctx.otherTab.report?.(event);
    expect(ctx.revoked.length, 'the other tab revoked its own session').toBe(before);
    if (signedInNow(ctx)) ctx.expected = loggedOut(null);
  },
  'auth.signedInElsewhere': ({ ctx, event }) => {
    expect(ctx.otherTab.report, 'the other-tab watch always runs').not.toBeNull();
    const signedIn = signedInNow(ctx);
    // Another tab signed in: its tokens are in the shared storage (this tab, when signed in,
    // keeps its own session: it would have seen the same tokens at its own sign-in).
    if (!signedIn) {
      ctx.storage.set('jwt', event.jwt);
      ctx.storage.set('refreshToken', event.refreshToken);
    }
    ctx.otherTab.report?.(event);
    // Its user data is read again by the user-data service, not taken from the other tab.
    if (!signedIn)
      ctx.expected = {
        at: 'idle',
        jwt: event.jwt,
        refreshToken: event.refreshToken || null,
        userData: null,
        epoch: event.jwt,
        logoutReason: null,
      };
  },
  // §4 Token refresh: one refresh for a 401 with the current jwt (none while one runs, none for
  // an old jwt); without a refresh token the session ends with the spec's text.
  'auth.refresh': ({ ctx, event }) => {
    const before = ctx.refresh.calls.length;
    const { at, jwt, refreshToken } = ctx.expected;
    ctx.actor.send(event);
    const starts = at === 'idle' && event.jwt === jwt;
    if (starts && refreshToken) {
      ctx.expected = { ...ctx.expected, at: 'refreshing' };
      expect(ctx.refresh.calls.slice(before), 'one refresh with the held token').toEqual([
        { refreshToken },
      ]);
    } else {
      expect(ctx.refresh.calls.length, 'no refresh started').toBe(before);
      if (starts) ctx.expected = loggedOut(SPEC_MESSAGES.noRefreshToken);
    }
  },
  // The refreshed tokens replace the old ones; the session (epoch) stays the same.
  'xstate.done.actor.refreshTokens': async ({ ctx, event }) => {
    const { output } = event as { output: RefreshOutput };
    await ctx.refresh.resolve(output);
    ctx.expected = {
      ...ctx.expected,
      at: 'idle',
      jwt: output.jwt,
      refreshToken: output.refreshToken,
    };
  },
  'xstate.error.actor.refreshTokens': async ({ ctx, event }) => {
    await ctx.refresh.reject((event as { error: unknown }).error);
    ctx.expected = loggedOut(SPEC_MESSAGES.refreshFailed);
  },
} satisfies Executors<typeof model, Ctx>;

const driver = actorDriver(model, {
  setup: start,
  events,
  clauses: {
    '*': ['§4.auth.signIn', '§4.auth.logout', '§4.auth.flag', '§4.access.flag', '§3.storage.keys'],
  },
  states: {
    // In every state: the context §4 asks for, storage in step, and what the views read.
    '*': ({ ctx }) => {
      const live = ctx.actor.getSnapshot();
      const { at, ...held } = ctx.expected;
      expect(live.matches(at === 'signedOut' ? 'signedOut' : { signedIn: at }), `in ${at}`).toBe(
        true,
      );
      expect(live.context).toEqual(held);
      specExpect('§3.storage.keys', ctx.storage.get('jwt') ?? null, 'stored jwt').toBe(held.jwt);
      specExpect(
        '§3.storage.keys',
        ctx.storage.get('refreshToken') ?? null,
        'stored refresh token',
      ).toBe(held.refreshToken);
      expect(ctx.otherTab.report, 'the other-tab watch always runs').not.toBeNull();
      expect(selectHasJwt(live)).toBe(held.jwt !== null);
      specExpect('§4.auth.flag', selectIsSignedIn(live), 'signed in (jwt and user data)').toBe(
        held.jwt !== null && held.userData !== null,
      );
      specExpect('§4.access.flag', selectHasAccess(live), 'the access flag (user_access = 1)').toBe(
        held.jwt !== null && held.userData?.user_access === 1,
      );
      expect(selectIsRefreshing(live)).toBe(at === 'refreshing');
      // §6 user data as the views read it (defaults while none is held).
      const user = held.userData;
      expect(selectEmail(live)).toBe(user?.user_email ?? '');
      expect(live.context.userData?.user_lvl ?? 0).toBe(user?.user_lvl ?? 0);
      expect(selectInviteCode(live)).toBe(user?.user_invite_code ?? '');
      expect(selectPaymentWallet(live)).toBe(user?.user_payment_wallet ?? '');
      expect(selectPaymentWalletBalance(live)).toBe(user?.user_payment_wallet_balance ?? '0');
      expect(selectWalletId(live)).toBe(user?.user_payment_wallet_data.wallet_id ?? '');
      expect(selectReferralRegistered(live)).toBe(user?.user_ref_registered ?? 0);
      expect(selectReferralConfirmed(live)).toBe(user?.user_ref_confirmed ?? 0);
      expect(selectReferralClicks(live)).toBe(user?.user_data.referral.clicks ?? 0);
      expect(selectTelegramLink(live)).toBe(user?.user_telegram_link ?? '');
      expect(selectAccessByFriends(live)).toBe(
        held.jwt !== null && user?.user_access === 1 && user.user_access_via === 'invites',
      );
      expect(live.children.refreshTokens === undefined).toBe(at !== 'refreshing');
    },
  },
});

testPaths(model, driver);

it('§4: signed in needs both a jwt and user data, and access needs the jwt too [§4.auth.flag]', () => {
  const held = (jwt: string | null) =>
    authMachine.resolveState({
      value: jwt ? { signedIn: 'idle' } : 'signedOut',
      context: {
        jwt,
        refreshToken: null,
        userData: { ...USER_DATA, user_access: 1, user_access_via: 'invites' },
        epoch: jwt,
        logoutReason: null,
      },
    });
  expect(selectIsSignedIn(held(null))).toBe(false);
  expect(selectHasAccess(held(null))).toBe(false);
  expect(selectAccessByFriends(held(null))).toBe(false);
  expect(selectIsSignedIn(held('jwt-1'))).toBe(true);
  expect(selectHasAccess(held('jwt-1'))).toBe(true);
});

it('§9: 2 Gangsters with entry, by ticket or by friends, +1 for each friend who bought', () => {
  const held = (access: number, via: string | undefined, confirmed: number) =>
    authMachine.resolveState({
      value: { signedIn: 'idle' },
      context: {
        jwt: 'jwt-1',
        refreshToken: null,
        userData: {
          ...USER_DATA,
          user_access: access,
          user_access_via: via,
          user_ref_confirmed: confirmed,
        },
        epoch: 'jwt-1',
        logoutReason: null,
      },
    });
  // [access, via, friends who bought] → Gangsters, friends' Gangsters (the spec's figures).
  const table: [number, string | undefined, number, number, number][] = [
    [0, undefined, 0, 2, 0],
    [0, undefined, 1, 3, 1],
    [1, 'ticket', 0, 2, 0],
    [1, 'ticket', 1, 3, 1],
    [1, 'invites', 2, 4, 2],
    [1, 'invites', 3, 5, 3],
  ];
  for (const [access, via, confirmed, gangsters, fromFriends] of table) {
    const s = held(access, via, confirmed);
    expect(selectGangsterCount(s), `access ${access} via ${via}, ${confirmed} friends`).toBe(
      gangsters,
    );
    expect(selectGangstersFromFriends(s)).toBe(fromFriends);
  }
});

describe('auth properties', () => {
  it('signed out holds nothing; a refresh runs only with a refresh token; the epoch tracks the session', () => {
    checkModelProperty('auth invariants', model, {
      input,
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

/**
 * What auth tells the services beside it (a system like the app's, with recording stand-ins):
 * another tab's sign-out reaches this tab's banner; another tab's sign-in closes this tab's
 * sign-in dialog.
 */
describe('what the auth service hands the sign-in and banner services', () => {
  function inSystem(stored: AuthInput['stored']) {
    const toSignIn: AnyEventObject[] = [];
    const toBanner: AnyEventObject[] = [];
    const otherTab: { report: ((event: AuthEvent) => void) | null } = { report: null };
    const recorder = (into: AnyEventObject[]) =>
      fromCallback<AnyEventObject>(({ receive }) => receive((event) => void into.push(event)));
    const root = createActor(
      setupSystem({
        actors: {
          signIn: recorder(toSignIn),
          notifications: recorder(toBanner),
          auth: authMachine.provide({
            actors: {
              refreshTokens: fromPromise<RefreshOutput, RefreshInput>(() => new Promise(() => {})),
              watchOtherTabs: fromCallback<AuthEvent>(({ sendBack }) => {
                otherTab.report = (event) => sendBack(event);
              }),
            },
            actions: {
              persistTokens: () => {},
              revokeSession: () => {},
              clearStoredTokens: () => {},
            },
          }),
        },
      }).createMachine({
        invoke: [
          { id: 'signIn', systemId: SYSTEM_IDS.signIn, src: 'signIn' },
          { id: 'notifications', systemId: SYSTEM_IDS.notifications, src: 'notifications' },
          { id: 'auth', systemId: SYSTEM_IDS.auth, src: 'auth', input: { stored } },
        ],
      }),
    ).start();
    return { root, toSignIn, toBanner, otherTab };
  }

  it('another tab signed out: the banner says so, the dialog hears nothing [§4.auth.logout]', () => {
    const t = inSystem(input.stored);
    t.otherTab.report?.({ type: 'auth.loggedOutElsewhere' });
    specExpect('§4.auth.logout', t.toBanner, 'what the banner service heard').toEqual([
      { type: 'info.show', message: SITE_MESSAGES.signedOutElsewhere, messageType: 'info' },
    ]);
    specExpect('§4.auth.logout', t.toSignIn, 'what the sign-in service heard').toEqual([]);
    t.root.stop();
  });

  it("another tab signed in: this tab's sign-in dialog is told, the banner hears nothing [§4.auth.signIn]", () => {
    const t = inSystem(EMPTY_STORED);
    t.otherTab.report?.({
      type: 'auth.signedInElsewhere',
      jwt: 'jwt-5',
      refreshToken: 'refresh-5',
    });
    specExpect('§4.auth.signIn', t.toSignIn, 'what the sign-in service heard').toEqual([
      { type: 'signIn.signedInElsewhere' },
    ]);
    specExpect('§4.auth.signIn', t.toBanner, 'what the banner service heard').toEqual([]);
    t.root.stop();
  });
});
