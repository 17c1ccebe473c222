import { describe, expect, it } from 'vitest';
import { createMachine, fromPromise, waitFor } from 'xstate';
import { SERVICES } from '../../../machines/app/app.machine';
import { createAppActor } from '../../../src/app/appActor';
import {
  selectErrorText,
  selectIsLoaded,
  selectShowLoader,
} from '../../../machines/app/app.selectors';
import { selectHasAccess, selectIsSignedIn } from '../../../machines/auth/auth.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { createApiClient } from '../../../src/api/client';
import { API_VERSION } from '../../../contract/spec';
import { SESSION_MESSAGES } from '../../../machines/session/session.messages';
import { MESSAGES } from '../../../contract/api';
import { appInput } from '../../../src/app/compose';
import { walkSessionPlan } from '../../../src/app/headBoot';
import { sessionMachine } from '../../../machines/session/session.machine';
import { sessionPlan } from '../../../machines/session/session.plan';
import { memoryStorage } from '../../support/memoryStorage';
import type { ServiceRefs } from '../../../src/app/hooks';
import type { OtherTabAuthChange } from '../../../src/platform/otherTabs';
import { createFakeFetch, USER_DATA, type FakeHandler } from '../api/fakeFetch';

/**
 * The root actor with the real auth and session wiring (src/app/compose.ts) over a fetch fake;
 * the other services are inert stand-ins. Proves the whole bootstrap: api actors find the auth
 * machine through the actor system, a 401 during user/data refreshes once, failures set the
 * application error.
 */
const inert = createMachine({});

/** Inert stand-ins for every service but `keep` (the member services' loader never settles). */
const standIns = (keep: string[]) =>
  ({
    ...Object.fromEntries(
      Object.keys(SERVICES)
        .filter((id) => !keep.includes(id))
        .map((id) => [id, inert]),
    ),
    loadMembers: fromPromise(() => new Promise<never>(() => {})),
  }) as never;

async function boot(
  handler: FakeHandler,
  stored: Record<string, string>,
  options: { head: boolean } = { head: false },
) {
  const fake = createFakeFetch(handler);
  // The page's head: the same server, its own log.
  const head = createFakeFetch(handler);
  const { storage, data } = memoryStorage(stored);
  const api = createApiClient({
    baseUrl: 'http://api.test/api/',
    getSessionToken: () => storage.get('sessionToken'),
    fetch: fake.fetch,
  });
  // As the page's inline script does (src/app/bootInline.ts): the session chart's plan walked
  // with raw fetch before the app exists.
  const walked = options.head
    ? walkSessionPlan({
        plan: sessionPlan(sessionMachine),
        post: (path, payload, jwt) =>
          head.fetch(`http://api.test/api/${path}`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              ...(jwt ? { Authorization: `Bearer ${jwt}` } : {}),
            },
            body: JSON.stringify(payload),
          }),
        storedSession: storage.get('sessionToken'),
        storedJwt: storage.get('jwt'),
        startData: () => ({ language: 'en', user_agent: 'unit' }),
        now: () => NOW_MS,
      })
    : null;
  // The site's own root actor with its auth and session wiring; the other services stand still.
  const app = await createAppActor({
    deps: walked ? { api, storage, head: walked } : { api, storage },
    input: appInput(storage, { language: 'en', user_agent: 'unit' }),
    services: standIns(['auth', 'session']),
  });
  app.start();
  const auth = app.system.get(SYSTEM_IDS.auth) as ServiceRefs['auth'];
  return {
    app,
    auth,
    fake,
    head,
    /** Where the head's walk ended: the chart's step it reached (null: not walked or stopped). */
    outcome: walked?.outcome ?? Promise.resolve(null),
    /** Every request, the head's first. */
    requests: () => [...head.requests, ...fake.requests],
    data,
    settled: waitFor(app, selectIsLoaded),
  };
}

const ok = (json: unknown) => ({ status: 200, json });
const NOW_MS = Date.UTC(2026, 10, 24, 12);
/** A jwt whose `exp` claim lies `seconds` from NOW_MS (negative: already expired). */
const jwtExpiringIn = (seconds: number) =>
  [
    'eyJhbGciOiJIUzI1NiJ9',
    Buffer.from(JSON.stringify({ sub: '1', exp: NOW_MS / 1000 + seconds })).toString('base64url'),
    'sig',
  ].join('.');
/** A server whose user/data refuses any jwt but the one auth/refresh gives ('jwt-2'). */
const refusesTheStoredJwt =
  (message: string): FakeHandler =>
  (r) => {
    if (r.path === 'sess/init') return INIT;
    if (r.path === 'sess/load') return ok({ status: 'ok' });
    if (r.path === 'auth/refresh') return ok({ result: true, jwt: 'jwt-2', refresh_token: 'r-2' });
    return r.bearer === 'jwt-2'
      ? ok({ result: true, user_data: USER_DATA })
      : { status: 401, json: { message } };
  };
/** A server that no longer knows the stored session: sess/create gives 'fresh'. */
const refusesTheStoredSession: FakeHandler = (r) =>
  r.path === 'sess/init'
    ? INIT
    : r.path === 'sess/load'
      ? { status: 404, json: { message: 'Session not found' } }
      : ok({ status: 'ok', sessionToken: 'fresh' });
const INIT = ok({ status: 'ok', version: '0.2.0', data: { public_data: {} } });
/** A stored session the server still knows, whose user has access. */
const storedSessionAnswers = (r: { path: string }) =>
  r.path === 'sess/init'
    ? INIT
    : r.path === 'sess/load'
      ? ok({ status: 'ok' })
      : ok({ result: true, user_data: { ...USER_DATA, user_access: 1 } });

// The same bootstrap whether the page started the session's calls ahead of the app or not: the
// same requests in the same order (§4 Session), the same outcome.
describe.each([{ head: false }, { head: true }])('app root with session and auth, %o', (mode) => {
  it('a stored jwt: user data reaches auth, the app is loaded and signed in', async () => {
    const t = await boot(
      storedSessionAnswers,
      { sessionToken: 's-1', jwt: 'jwt-1', refreshToken: 'r-1' },
      mode,
    );
    const s = await t.settled;
    expect(selectIsLoaded(s)).toBe(true);
    expect(selectShowLoader(s)).toBe(false);
    expect(selectIsSignedIn(t.auth.getSnapshot())).toBe(true);
    expect(selectHasAccess(t.auth.getSnapshot())).toBe(true);
    expect(t.requests().map((r) => [r.path, r.body.session, r.bearer])).toEqual([
      ['sess/init', 's-1', null],
      ['sess/load', 's-1', null],
      ['user/data', 's-1', 'jwt-1'],
    ]);
  });

  it('an expired stored jwt: user/data 401 → one refresh → retry → signed in', async () => {
    const t = await boot(
      refusesTheStoredJwt('jwt expired'),
      { sessionToken: 's-1', jwt: jwtExpiringIn(-60), refreshToken: 'r-1' },
      mode,
    );
    await t.settled;
    expect(t.requests().map((r) => r.path)).toEqual([
      'sess/init',
      'sess/load',
      'user/data',
      'auth/refresh',
      'user/data',
    ]);
    expect(selectIsSignedIn(t.auth.getSnapshot())).toBe(true);
    expect(t.data.get('jwt')).toBe('jwt-2');
    expect(t.data.get('refreshToken')).toBe('r-2');
  });

  it('a stored session that no longer loads: a new one is created and stored, once', async () => {
    const t = await boot(refusesTheStoredSession, { sessionToken: 's-old' }, mode);
    const s = await t.settled;
    expect(selectIsLoaded(s)).toBe(true);
    expect(t.requests().map((r) => r.path)).toEqual(['sess/init', 'sess/load', 'sess/create']);
    expect(t.data.get('sessionToken')).toBe('fresh');
  });

  it('a refresh that fails during the bootstrap loads the site signed out, storage cleared', async () => {
    const t = await boot(
      (r) =>
        r.path === 'sess/init'
          ? INIT
          : r.path === 'sess/load'
            ? ok({ status: 'ok' })
            : { status: 401, json: { message: 'expired' } },
      { sessionToken: 's-1', jwt: 'jwt-1', refreshToken: 'r-1' },
      mode,
    );
    const s = await t.settled;
    expect(s.value).toMatchObject({ boot: 'loaded' });
    expect(s.context.error).toBeNull();
    expect(t.auth.getSnapshot().matches('signedOut')).toBe(true);
    expect(t.data.has('jwt')).toBe(false);
    expect(t.data.has('refreshToken')).toBe(false);
    expect(t.data.get('sessionToken')).toBe('s-1');
  });

  it('an unreachable server sets the application error Init with the connection text', async () => {
    const t = await boot(() => ({ networkError: true }), {}, mode);
    const s = await t.settled;
    expect(s.value).toMatchObject({ boot: 'failed' });
    expect(s.context.error).toEqual({ code: 'Init', text: MESSAGES.connect });
    expect(selectShowLoader(s)).toBe(true);
    expect(selectErrorText(s)).toBe(MESSAGES.connect);
  });

  it('no stored session: sess/create with the start data, token stored', async () => {
    const t = await boot(
      (r) => (r.path === 'sess/init' ? INIT : ok({ status: 'ok', sessionToken: 'fresh' })),
      {},
      mode,
    );
    await t.settled;
    expect(t.requests()[1]).toMatchObject({
      path: 'sess/create',
      body: { data: { language: 'en', user_agent: 'unit' } },
    });
    expect(t.requests()[1]?.body.session).toBeUndefined();
    expect(t.data.get('sessionToken')).toBe('fresh');
    expect(t.auth.getSnapshot().matches('signedOut')).toBe(true);
  });
});

describe("app root, the session calls sent from the page head (the chart's own plan)", () => {
  const INIT_BODY = { status: 'ok', version: '0.2.0', data: { public_data: {} } };
  const paths = (requests: { path: string }[]) => requests.map((r) => r.path);

  it('a new visitor: the head sends sess/init and sess/create at once; the app sends nothing more', async () => {
    const t = await boot(
      (r) => (r.path === 'sess/init' ? INIT : ok({ status: 'ok', sessionToken: 'from-head' })),
      {},
      { head: true },
    );
    expect(selectIsLoaded(await t.settled)).toBe(true);
    expect(await t.outcome).toBe('loaded');
    expect(paths(t.head.requests)).toEqual(['sess/init', 'sess/create']);
    expect(t.fake.requests).toEqual([]);
    expect(t.data.get('sessionToken')).toBe('from-head');
  });

  it("a stored session the head's sess/load was refused for: the head's sess/create is taken", async () => {
    const t = await boot(refusesTheStoredSession, { sessionToken: 's-old' }, { head: true });
    expect(selectIsLoaded(await t.settled)).toBe(true);
    expect(await t.outcome).toBe('loaded');
    expect(paths(t.head.requests)).toEqual(['sess/init', 'sess/load', 'sess/create']);
    expect(t.fake.requests).toEqual([]);
    expect(t.data.get('sessionToken')).toBe('fresh');
  });

  it('a head whose sess/init could not reach the server: the connection text, no retry', async () => {
    const t = await boot(() => ({ networkError: true }), {}, { head: true });
    const s = await t.settled;
    expect(s.context.error).toEqual({ code: 'Init', text: MESSAGES.connect });
    expect(await t.outcome).toBe('failed');
    expect(t.fake.requests).toEqual([]);
  });

  it("an answer from the head is checked by the chart: a wrong version fails, the head's other answers are not read", async () => {
    const t = await boot(
      (r) =>
        r.path === 'sess/init'
          ? ok({ ...INIT_BODY, version: '0.1.9' })
          : r.path === 'sess/load'
            ? ok({ status: 'ok' })
            : ok({ result: true, user_data: USER_DATA }),
      { sessionToken: 's-1', jwt: jwtExpiringIn(600), refreshToken: 'r-1' },
      { head: true },
    );
    const s = await t.settled;
    expect(s.context.error).toEqual({
      code: 'Init',
      text: SESSION_MESSAGES.expiredVersion(API_VERSION),
    });
    // The head walks the chart's branches too: the wrong version ends its walk at `failed`.
    expect(await t.outcome).toBe('failed');
    expect(paths(t.head.requests)).toEqual(['sess/init', 'sess/load', 'user/data']);
    expect(t.fake.requests).toEqual([]);
    expect(selectIsSignedIn(t.auth.getSnapshot())).toBe(false);
  });

  it("a stored, current jwt: the head's user/data, sent with sess/load, is taken: the app sends nothing", async () => {
    const t = await boot(
      storedSessionAnswers,
      { sessionToken: 's-1', jwt: jwtExpiringIn(600), refreshToken: 'r-1' },
      { head: true },
    );
    expect(selectIsLoaded(await t.settled)).toBe(true);
    expect(await t.outcome).toBe('loaded');
    expect(t.head.requests.map((r) => [r.path, r.body.session, r.bearer])).toEqual([
      ['sess/init', 's-1', null],
      ['sess/load', 's-1', null],
      ['user/data', 's-1', jwtExpiringIn(600)],
    ]);
    expect(t.fake.requests).toEqual([]);
    expect(selectIsSignedIn(t.auth.getSnapshot())).toBe(true);
    expect(selectHasAccess(t.auth.getSnapshot())).toBe(true);
  });

  it("the head's user/data refused (401): the app refreshes once and asks again with the new jwt", async () => {
    const t = await boot(
      refusesTheStoredJwt('jwt revoked'),
      { sessionToken: 's-1', jwt: jwtExpiringIn(600), refreshToken: 'r-1' },
      { head: true },
    );
    expect(selectIsLoaded(await t.settled)).toBe(true);
    // The head never refreshes: the app does, under its lock; the refused jwt is not sent twice.
    expect(paths(t.head.requests)).toEqual(['sess/init', 'sess/load', 'user/data']);
    expect(t.fake.requests.map((r) => [r.path, r.bearer])).toEqual([
      ['auth/refresh', null],
      ['user/data', 'jwt-2'],
    ]);
    expect(selectIsSignedIn(t.auth.getSnapshot())).toBe(true);
    expect(t.data.get('jwt')).toBe('jwt-2');
  });

  it('an expired stored jwt: the head does not send user/data; the app refreshes first', async () => {
    const t = await boot(
      refusesTheStoredJwt('jwt expired'),
      { sessionToken: 's-1', jwt: jwtExpiringIn(-60), refreshToken: 'r-1' },
      { head: true },
    );
    expect(selectIsLoaded(await t.settled)).toBe(true);
    // The walk stops where the head cannot make the chart's call: the app goes on.
    expect(await t.outcome).toBeNull();
    expect(paths(t.head.requests)).toEqual(['sess/init', 'sess/load']);
    expect(paths(t.fake.requests)).toEqual(['user/data', 'auth/refresh', 'user/data']);
  });

  it("the head's sess/load refused: its user/data (of the old session) is not taken, the new session's is asked", async () => {
    const t = await boot(
      (r) =>
        r.path === 'sess/init'
          ? INIT
          : r.path === 'sess/load'
            ? { status: 401, json: { message: 'Session not found or expired' } }
            : r.path === 'sess/create'
              ? ok({ status: 'ok', sessionToken: 'fresh' })
              : ok({
                  result: true,
                  user_data: { ...USER_DATA, user_access: r.body.session === 's-old' ? 1 : 0 },
                }),
      { sessionToken: 's-old', jwt: jwtExpiringIn(600), refreshToken: 'r-1' },
      { head: true },
    );
    expect(selectIsLoaded(await t.settled)).toBe(true);
    expect(paths(t.head.requests)).toEqual(['sess/init', 'sess/load', 'user/data', 'sess/create']);
    expect(t.fake.requests.map((r) => [r.path, r.body.session])).toEqual([['user/data', 'fresh']]);
    expect(selectHasAccess(t.auth.getSnapshot())).toBe(false);
  });
});

describe('app root, another tab signs the player in', () => {
  it("the sign-in dialog open in this tab closes (auth tells the sign-in service) and stays closed after the other tab's Exit", async () => {
    let otherTab: ((change: OtherTabAuthChange) => void) | undefined;
    const fake = createFakeFetch(() => ok({ status: 'ok', result: true, user_data: USER_DATA }));
    const { storage } = memoryStorage();
    const api = createApiClient({
      baseUrl: 'http://api.test/api/',
      getSessionToken: () => storage.get('sessionToken'),
      fetch: fake.fetch,
    });
    const app = await createAppActor({
      deps: {
        api,
        storage,
        onOtherTabAuthChange: (listener) => {
          otherTab = listener;
          return () => {};
        },
      },
      input: appInput(storage, { language: 'en', user_agent: 'unit' }),
      services: standIns(['auth', 'signIn']),
    });
    app.start();
    const signIn = app.system.get(SYSTEM_IDS.signIn) as ServiceRefs['signIn'];
    const auth = app.system.get(SYSTEM_IDS.auth) as ServiceRefs['auth'];
    signIn.send({ type: 'signIn.open' });
    signIn.send({ type: 'signIn.emailChanged', email: 'typed@example.com' });
    expect(signIn.getSnapshot().matches('open')).toBe(true);
    otherTab?.({ type: 'signedIn', jwt: jwtExpiringIn(3600), refreshToken: 'r1' });
    expect(auth.getSnapshot().matches('signedIn')).toBe(true);
    expect(signIn.getSnapshot().matches('closed')).toBe(true);
    otherTab?.({ type: 'signedOut' });
    expect(auth.getSnapshot().matches('signedOut')).toBe(true);
    expect(signIn.getSnapshot().matches('closed')).toBe(true);
    app.stop();
  });
});
