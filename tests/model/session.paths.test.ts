import { expect, it } from 'vitest';
import { createActor } from 'xstate';
import { sessionMachine } from '../../machines/session/session.machine';
import type {
  SessCreateOutput,
  SessInitOutput,
  SessionContext,
  SessionInput,
  UserDataOutput,
} from '../../machines/session/session.types';
import {
  selectDiscountPercent,
  selectOldPrice,
  selectSessionToken,
  selectTicketPrice,
  selectTicketPriceLamports,
} from '../../machines/session/session.selectors';
import { SPEC_LAMPORTS, SPEC_LIMITS, SPEC_MESSAGES, VERSION_EDGES } from '../support/oracle';
import {
  controllable,
  defineModel,
  specExpect,
  testPaths,
  withSpecRecord,
  type Driver,
  type Executors,
} from '../support/paths';
import { USER_DATA } from '../unit/api/fakeFetch';
import { startSessionUnderParent } from '../support/sessionParent';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

/**
 * Generated paths of the session bootstrap (§4 Session, §8): version check, stored session loaded
 * or replaced, new session created, user data when a jwt exists, and every failure's text. The
 * input variant with a stored token and a jwt reaches every state; outcome payloads pick the
 * version and error kinds.
 */
const input: SessionInput = {
  sessionToken: 'stored-token',
  hasJwt: true,
  startData: { language: 'en', user_agent: 'paths' },
};

const initOk: SessInitOutput = {
  version: SPEC_LIMITS.requiredVersion,
  data: { public_data: { price: '0.3' } },
};
/** §4: any version but exactly 0.2.0 is refused: older, a patch or minor above, and "0.2". */
const refused: SessInitOutput[] = VERSION_EDGES.refused.map((version) => ({
  version,
  data: { public_data: {} },
}));
const networkError = { kind: 'network', message: SPEC_MESSAGES.connect };
const serverError = {
  kind: 'http',
  message: 'Maintenance',
  serverMessage: 'Maintenance',
  status: 503,
};
const authError = { kind: 'auth', message: 'Token refresh failed' };
const shapeError = { kind: 'schema', message: 'unexpected answer' };
// Failures that are not the client's call errors: a plain Error, a shape without a kind, one
// without a message, nothing at all. None is a network failure; none carries a server message.
const plainError = new Error('boom');
const noKind = { message: 'No kind', serverMessage: 'Not a server answer' };
const noMessage = { kind: 'network' };

/**
 * §8 (README "Where the spec is ambiguous"): a sess/* call that got no answer reads the spec's
 * connection text; the server's own message when it sent one; otherwise 'Failed to load session'.
 */
function specSessionFailure(error: unknown): string {
  const e = error as { kind?: unknown; message?: unknown; serverMessage?: unknown } | null;
  const callError = typeof e?.kind === 'string' && typeof e.message === 'string';
  if (callError && e?.kind === 'network') return SPEC_MESSAGES.connect;
  if (callError && typeof e?.serverMessage === 'string' && e.serverMessage) return e.serverMessage;
  return SPEC_MESSAGES.sessionFailed;
}

const model = defineModel({
  name: 'session',
  machine: sessionMachine,
  required: SPEC_TRANSITIONS.session,
  input,
  events: {},
  outcomes: {
    'xstate.done.actor.sessInit': [{ output: initOk }, ...refused.map((output) => ({ output }))],
    'xstate.error.actor.sessInit': [
      { error: networkError },
      { error: serverError },
      { error: plainError },
      { error: noKind },
      { error: noMessage },
      { error: null },
    ],
    'xstate.done.actor.sessLoad': [{ output: { status: 'ok' } }],
    'xstate.error.actor.sessLoad': [{ error: serverError }],
    'xstate.done.actor.sessCreate': [{ output: { sessionToken: 'new-token' } }],
    'xstate.error.actor.sessCreate': [{ error: shapeError }, { error: networkError }],
    // §4 Access flag: the user data reaches auth as sent, a ticket holder's user_access 1 too.
    'xstate.done.actor.userData': [
      { output: { user_data: USER_DATA } },
      { output: { user_data: { ...USER_DATA, user_access: 1 } } },
    ],
    'xstate.error.actor.userData': [{ error: networkError }, { error: authError }],
  },
  // The stored token and the jwt decide the first branches: a stored token without a jwt, and
  // neither (a first visit), start paths of their own.
  inputs: [
    { ...input, hasJwt: false },
    { ...input, sessionToken: null, hasJwt: false },
  ],
});

function start({ input: pathInput }: { input: unknown } = { input }) {
  const sessionInput = (pathInput ?? input) as SessionInput;
  const sessInit = controllable<SessInitOutput>();
  const sessLoad = controllable<unknown, { session: string }>();
  const sessCreate = controllable<SessCreateOutput, { data: SessionInput['startData'] }>();
  const userData = controllable<UserDataOutput>();
  const storage = { persisted: [] as string[], removed: 0 };
  const session = sessionMachine.provide({
    actors: {
      sessInit: sessInit.logic,
      sessLoad: sessLoad.logic,
      sessCreate: sessCreate.logic,
      userData: userData.logic,
    },
    actions: {
      persistSessionToken: (_, params) => void storage.persisted.push(params.sessionToken),
      removeStoredSessionToken: () => void (storage.removed += 1),
    },
  });
  const { actor, toParent, toAuth } = startSessionUnderParent(session, sessionInput);
  return {
    actor,
    sessionInput,
    sessInit,
    sessLoad,
    sessCreate,
    userData,
    storage,
    toParent,
    toAuth,
    userFailedWith: null as unknown,
    /** The text the spec gives for the sess/* failure a path caused (null: none yet). */
    failure: null as string | null,
  };
}
type Ctx = ReturnType<typeof start>;
const sessionOf = (ctx: Ctx) => ctx.actor.system.get('session')!;

const events = {
  'xstate.done.actor.sessInit': async ({ ctx, event }) => {
    const { version } = (event as { output: SessInitOutput }).output;
    await ctx.sessInit.resolve((event as { output: SessInitOutput }).output);
    // The oracle, not the chart: exactly 0.2.0 goes on; anything else fails with the message.
    const s = sessionOf(ctx).getSnapshot();
    if (version === SPEC_LIMITS.requiredVersion) expect(s.matches('failed')).toBe(false);
    else
      expect(ctx.toParent, `version ${version} must be refused`).toEqual([
        {
          type: 'session.failed',
          code: 'Init',
          text: SPEC_MESSAGES.expiredVersion(SPEC_LIMITS.requiredVersion),
        },
      ]);
  },
  'xstate.error.actor.sessInit': ({ ctx, event }) => {
    ctx.failure = specSessionFailure((event as { error: unknown }).error);
    return ctx.sessInit.reject((event as { error: unknown }).error);
  },
  'xstate.done.actor.sessLoad': ({ ctx, event }) =>
    ctx.sessLoad.resolve((event as { output: unknown }).output),
  'xstate.error.actor.sessLoad': ({ ctx, event }) =>
    ctx.sessLoad.reject((event as { error: unknown }).error),
  'xstate.done.actor.sessCreate': ({ ctx, event }) =>
    ctx.sessCreate.resolve((event as { output: SessCreateOutput }).output),
  'xstate.error.actor.sessCreate': ({ ctx, event }) => {
    ctx.failure = specSessionFailure((event as { error: unknown }).error);
    return ctx.sessCreate.reject((event as { error: unknown }).error);
  },
  'xstate.done.actor.userData': ({ ctx, event }) =>
    ctx.userData.resolve((event as { output: UserDataOutput }).output),
  'xstate.error.actor.userData': ({ ctx, event }) => {
    ctx.userFailedWith = (event as { error: unknown }).error;
    ctx.failure = specSessionFailure(ctx.userFailedWith);
    return ctx.userData.reject(ctx.userFailedWith);
  },
} satisfies Executors<typeof model, Ctx>;

const driver: Driver<typeof model, Ctx> = {
  setup: start,
  teardown: ({ actor }) => void actor.stop(),
  actual: (ctx) => sessionOf(ctx).getSnapshot(),
  events,
  clauses: {
    '*': ['§4.session.load', '§4.session.create'],
    failed: ['§4.session.version', '§8.session.errors'],
    loadingUser: ['§4.session.userData'],
    loaded: ['§4.session.userData'],
  },
  states: {
    // In every state, through the selectors the views read: loaded only once the parent heard
    // so; the session token is the stored one until sess/load refuses it (then none) or
    // sess/create gives a new one; the cookie notice only for a new session.
    '*': ({ ctx }) => {
      const live = sessionOf(ctx).getSnapshot();
      expect(live.matches('loaded')).toBe(ctx.toParent.some((e) => e.type === 'session.loaded'));
      const created = ctx.storage.persisted.at(-1);
      const stored = ctx.storage.removed > 0 ? '' : (ctx.sessionInput.sessionToken ?? '');
      expect(selectSessionToken(live)).toBe(created ?? stored);
      expect(live.context.cookieConsentNeeded).toBe(created !== undefined);
    },
    initializing: ({ ctx }) => {
      expect(ctx.sessInit.pending()).toBe(1);
      expect(ctx.sessLoad.calls).toEqual([]);
      expect(ctx.toParent).toEqual([]);
    },
    loadingSession: ({ ctx }) => {
      expect(ctx.sessLoad.calls.at(-1)).toEqual({ session: 'stored-token' });
    },
    creatingSession: ({ ctx }) => {
      expect(ctx.sessCreate.calls.at(-1)).toEqual({ data: input.startData });
      // A failed sess/load removed the stored token first.
      if (ctx.sessLoad.calls.length > 0) expect(ctx.storage.removed).toBe(1);
      expect(selectSessionToken(sessionOf(ctx).getSnapshot())).toBe('');
    },
    loadingUser: ({ ctx }) => {
      expect(ctx.userData.pending()).toBe(1);
    },
    loaded: ({ ctx }) => {
      const live = sessionOf(ctx).getSnapshot();
      // The parent hears the public data sess/init answered (the launch calendar among it).
      expect(ctx.toParent).toEqual([
        { type: 'session.loaded', publicData: live.context.publicData },
      ]);
      // What auth heard is the record's (withRecord below): exactly the user user/data answered.
      if (ctx.userData.calls.length > 0 && ctx.toAuth.length === 0) {
        expect(ctx.userFailedWith).toEqual(authError);
      }
      // sess/init's public data: its price (0.3) is the ticket price.
      expect(selectTicketPrice(live)).toBe('0.3');
      const created = ctx.sessCreate.calls.length > 0;
      expect(ctx.storage.persisted).toEqual(created ? ['new-token'] : []);
      expect(live.context.cookieConsentNeeded).toBe(created);
    },
    failed: ({ ctx }) => {
      const text = ctx.failure ?? SPEC_MESSAGES.expiredVersion(SPEC_LIMITS.requiredVersion);
      expect(ctx.toParent).toEqual([{ type: 'session.failed', code: 'Init', text }]);
    },
  },
};

/**
 * What §4 Session and §8 say the bootstrap does, kept from the outcomes alone: where it is, the
 * public data sess/init answered, and exactly what its parent (the app) and the auth service
 * heard, in order.
 */
type SessionStep =
  'initializing' | 'loadingSession' | 'creatingSession' | 'loadingUser' | 'loaded' | 'failed';
type SessionRecord = {
  at: SessionStep;
  hasJwt: boolean;
  storedToken: boolean;
  publicData: unknown;
  toParent: unknown[];
  toAuth: unknown[];
};
const ended = (x: SessionRecord, at: 'loaded' | 'failed', text?: string): SessionRecord => ({
  ...x,
  at,
  toParent: [
    ...x.toParent,
    at === 'loaded'
      ? { type: 'session.loaded', publicData: x.publicData }
      : { type: 'session.failed', code: 'Init', text },
  ],
});
/** §4: "When a jwt exists the user data is then fetched." */
const afterSession = (x: SessionRecord): SessionRecord =>
  x.hasJwt ? { ...x, at: 'loadingUser' } : ended(x, 'loaded');

const withRecord = withSpecRecord(model, driver, {
  clauses: ['§4.session.load', '§4.session.create', '§4.session.userData', '§8.session.errors'],
  start: ({ input: pathInput }): SessionRecord => {
    const i = (pathInput ?? input) as SessionInput;
    return {
      at: 'initializing',
      hasJwt: i.hasJwt,
      storedToken: Boolean(i.sessionToken),
      publicData: {},
      toParent: [],
      toAuth: [],
    };
  },
  next: (x, event): SessionRecord => {
    switch (event.type) {
      case 'xstate.done.actor.sessInit': {
        const output = event.output as SessInitOutput;
        if (output.version !== SPEC_LIMITS.requiredVersion)
          return ended(x, 'failed', SPEC_MESSAGES.expiredVersion(SPEC_LIMITS.requiredVersion));
        const withData = { ...x, publicData: output.data.public_data };
        return { ...withData, at: x.storedToken ? 'loadingSession' : 'creatingSession' };
      }
      case 'xstate.done.actor.sessLoad':
        return afterSession(x);
      // §4: "on failure the stored token is removed and a new session is created".
      case 'xstate.error.actor.sessLoad':
        return { ...x, at: 'creatingSession', storedToken: false };
      case 'xstate.done.actor.sessCreate':
        return afterSession(x);
      case 'xstate.error.actor.sessInit':
      case 'xstate.error.actor.sessCreate':
        return ended(x, 'failed', specSessionFailure((event as { error: unknown }).error));
      // session → auth: the user data user/data answered, once.
      case 'xstate.done.actor.userData': {
        const output = event.output as UserDataOutput;
        const told = { ...x, toAuth: [{ type: 'auth.userLoaded', userData: output.user_data }] };
        return ended(told, 'loaded');
      }
      // A jwt that cannot be renewed: auth has logged out itself; the site loads signed out.
      case 'xstate.error.actor.userData': {
        const error = (event as { error: unknown }).error;
        return error === authError
          ? ended(x, 'loaded')
          : ended(x, 'failed', specSessionFailure(error));
      }
    }
    return x;
  },
  check: (ctx, x) => {
    const live = sessionOf(ctx).getSnapshot();
    const clause =
      x.at === 'loadingUser' || x.toAuth.length > 0
        ? '§4.session.userData'
        : x.at === 'failed'
          ? '§8.session.errors'
          : x.at === 'creatingSession'
            ? '§4.session.create'
            : '§4.session.load';
    specExpect(clause, live.value, 'the bootstrap step').toBe(x.at);
    specExpect('§4.session.userData', ctx.toAuth, 'what the auth service heard').toEqual(x.toAuth);
    specExpect(clause, ctx.toParent, 'what the app heard').toEqual(x.toParent);
  },
});

testPaths(model, withRecord);

it('§9 ticket price: 0.22 SOL when the server gives none, old price 0.55, lamports at 1e9 per SOL', () => {
  const loaded = (publicData: SessionContext['publicData']) => {
    const actor = createActor(sessionMachine, { input: {} as SessionInput });
    const initial = actor.getSnapshot();
    return sessionMachine.resolveState({
      value: 'loaded',
      context: { ...initial.context, publicData },
    });
  };
  const none = loaded({});
  specExpect('§9.prices', selectTicketPrice(none), 'price with none from the server').toBe(
    String(SPEC_LIMITS.defaultTicketSol),
  );
  specExpect('§9.prices', selectOldPrice(none), 'old price').toBe(String(SPEC_LIMITS.oldTicketSol));
  specExpect('§9.lamports', selectTicketPriceLamports(none), 'lamports of 0.22 SOL').toBe(
    String(SPEC_LAMPORTS[0.22]),
  );
  // (0.55 − 0.22) / 0.55 = 60 % off.
  specExpect('§9.prices', selectDiscountPercent(none), 'percent off').toBe(60);
  for (const sol of SPEC_LIMITS.ticketPricesSol) {
    const priced = loaded({ ticket_price: String(sol) });
    specExpect('§9.prices', selectTicketPrice(priced), `price of ${sol} SOL`).toBe(String(sol));
    specExpect('§9.lamports', selectTicketPriceLamports(priced), `lamports of ${sol} SOL`).toBe(
      String(SPEC_LAMPORTS[sol]),
    );
  }
  // What the server may send, and what the page must show: a price is a decimal number of SOL
  // above zero (exact to the lamport, 1e9 per SOL); anything else falls back to §9's defaults.
  // The discount is the whole percent off the old price, 0 when the price is not below it.
  const cases: [SessionContext['publicData'], string, string, string, number][] = [
    // publicData                                 price           lamports        old     % off
    [{ ticket_price: '0.33' }, '0.33', '330000000', '0.55', 40],
    [{ ticket_price: ' 0.55 ' }, '0.55', '550000000', '0.55', 0],
    [{ price: '0.3' }, '0.3', '300000000', '0.55', 45],
    [{ ticket_price: '0.3', price: '0.4' }, '0.3', '300000000', '0.55', 45],
    [{ ticket_price: '1', old_price: '2' }, '1', '1000000000', '2', 50],
    [{ ticket_price: '5' }, '5', '5000000000', '0.55', 0],
    [{ ticket_price: '10.5' }, '10.5', '10500000000', '0.55', 0],
    [{ ticket_price: '0' }, '0.22', '220000000', '0.55', 60],
    [{ ticket_price: '-0.1' }, '0.22', '220000000', '0.55', 60],
    [{ ticket_price: 'abc' }, '0.22', '220000000', '0.55', 60],
    [{ ticket_price: '0.1x' }, '0.22', '220000000', '0.55', 60],
    [{ ticket_price: 'x0.1' }, '0.22', '220000000', '0.55', 60],
    [{ ticket_price: '0.3', old_price: '0' }, '0.3', '300000000', '0.55', 45],
    [{ ticket_price: '0.3', old_price: 'soon' }, '0.3', '300000000', '0.55', 45],
  ];
  for (const [publicData, price, lamports, old, off] of cases) {
    const s = loaded(publicData);
    const what = JSON.stringify(publicData);
    specExpect('§9.prices', selectTicketPrice(s), `${what}: price`).toBe(price);
    specExpect('§9.lamports', selectTicketPriceLamports(s), `${what}: lamports`).toBe(lamports);
    specExpect('§9.prices', selectOldPrice(s), `${what}: old price`).toBe(old);
    specExpect('§9.prices', selectDiscountPercent(s), `${what}: percent off`).toBe(off);
  }
});
