import { describe, expect, it } from 'vitest';
import { createActor, createMachine, waitFor } from 'xstate';
import { appMachine, SERVICES } from '../../../machines/app/app.machine';
import {
  selectErrorText,
  selectIsLoaded,
  selectShowLoader,
} from '../../../machines/app/app.selectors';
import { selectHasAccess, selectIsSignedIn } from '../../../machines/auth/auth.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { createApiClient } from '../../../src/api/client';
import { REQUIRED_VERSION, SESSION_MESSAGES } from '../../../machines/session/session.messages';
import { MESSAGES } from '../../../contract/api';
import { appInput, provideAuth, provideSession } from '../../../src/app/compose';
import { createStorage } from '../../../src/platform/storage';
import type { ServiceRefs } from '../../../src/app/hooks';
import { createFakeFetch, USER_DATA, type FakeHandler } from '../api/fakeFetch';

/**
 * The root actor with the real auth and session wiring (src/app/compose.ts) over a fetch fake;
 * the other services are inert stand-ins. Proves the whole bootstrap: api actors find the auth
 * machine through the actor system, a 401 during user/data refreshes once, failures set the
 * application error.
 */
const inert = createMachine({});

function boot(handler: FakeHandler, stored: Record<string, string>, options = { early: false }) {
  const fake = createFakeFetch(handler);
  const data = new Map<string, string>(Object.entries(stored));
  const storage = createStorage(
    () =>
      ({
        getItem: (k: string) => data.get(k) ?? null,
        setItem: (k: string, v: string) => void data.set(k, v),
        removeItem: (k: string) => void data.delete(k),
      }) as unknown as Storage,
  );
  const api = createApiClient({
    baseUrl: 'http://api.test/api/',
    getSessionToken: () => storage.get('sessionToken'),
    fetch: fake.fetch,
  });
  // As src/app/earlyApi.ts does in the page: sess/init sent before the app exists.
  const earlySessInit = options.early ? api.call('sessInit', {}) : undefined;
  earlySessInit?.catch(() => {});
  const stand = Object.fromEntries(Object.keys(SERVICES).map((id) => [id, inert]));
  const logic = appMachine.provide({
    actors: {
      ...(stand as object),
      auth: provideAuth({ api, storage }),
      session: provideSession(earlySessInit ? { api, storage, earlySessInit } : { api, storage }),
    } as never,
  });
  const input = appInput(storage, { language: 'en', user_agent: 'unit' });
  const app = createActor(logic, { input }).start();
  const auth = app.system.get(SYSTEM_IDS.auth) as ServiceRefs['auth'];
  return { app, auth, fake, data, settled: waitFor(app, (s) => !s.matches('loading')) };
}

const ok = (json: unknown) => ({ status: 200, json });
const INIT = ok({ status: 'ok', version: '0.2.0', data: { public_data: {} } });

describe('app root with session and auth', () => {
  it('a stored jwt: user data reaches auth, the app is loaded and signed in', async () => {
    const t = boot(
      (r) =>
        r.path === 'sess/init'
          ? INIT
          : r.path === 'sess/load'
            ? ok({ status: 'ok' })
            : ok({ result: true, user_data: { ...USER_DATA, user_access: 1 } }),
      { sessionToken: 's-1', jwt: 'jwt-1', refreshToken: 'r-1' },
    );
    const s = await t.settled;
    expect(selectIsLoaded(s)).toBe(true);
    expect(selectShowLoader(s)).toBe(false);
    expect(selectIsSignedIn(t.auth.getSnapshot())).toBe(true);
    expect(selectHasAccess(t.auth.getSnapshot())).toBe(true);
    expect(t.fake.requests.map((r) => [r.path, r.body.session, r.bearer])).toEqual([
      ['sess/init', 's-1', null],
      ['sess/load', 's-1', null],
      ['user/data', 's-1', 'jwt-1'],
    ]);
  });

  it('an expired stored jwt: user/data 401 → one refresh → retry → signed in', async () => {
    const t = boot(
      (r) => {
        if (r.path === 'sess/init') return INIT;
        if (r.path === 'sess/load') return ok({ status: 'ok' });
        if (r.path === 'auth/refresh')
          return ok({ result: true, jwt: 'jwt-2', refresh_token: 'r-2' });
        return r.bearer === 'jwt-2'
          ? ok({ result: true, user_data: USER_DATA })
          : { status: 401, json: { message: 'jwt expired' } };
      },
      { sessionToken: 's-1', jwt: 'jwt-1', refreshToken: 'r-1' },
    );
    await t.settled;
    expect(t.fake.requests.map((r) => r.path)).toEqual([
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

  it('a refresh that fails during the bootstrap loads the site signed out, storage cleared', async () => {
    const t = boot(
      (r) =>
        r.path === 'sess/init'
          ? INIT
          : r.path === 'sess/load'
            ? ok({ status: 'ok' })
            : { status: 401, json: { message: 'expired' } },
      { sessionToken: 's-1', jwt: 'jwt-1', refreshToken: 'r-1' },
    );
    const s = await t.settled;
    expect(s.value).toBe('loaded');
    expect(s.context.error).toBeNull();
    expect(t.auth.getSnapshot().matches('signedOut')).toBe(true);
    expect(t.data.has('jwt')).toBe(false);
    expect(t.data.has('refreshToken')).toBe(false);
    expect(t.data.get('sessionToken')).toBe('s-1');
  });

  it('an unreachable server sets the application error Init with the connection text', async () => {
    const t = boot(() => ({ networkError: true }), {});
    const s = await t.settled;
    expect(s.value).toBe('failed');
    expect(s.context.error).toEqual({ code: 'Init', text: MESSAGES.connect });
    expect(selectShowLoader(s)).toBe(true);
    expect(selectErrorText(s)).toBe(MESSAGES.connect);
  });

  it('no stored session: sess/create with the start data, token stored', async () => {
    const t = boot(
      (r) => (r.path === 'sess/init' ? INIT : ok({ status: 'ok', sessionToken: 'fresh' })),
      {},
    );
    await t.settled;
    expect(t.fake.requests[1]).toMatchObject({
      path: 'sess/create',
      body: { data: { language: 'en', user_agent: 'unit' } },
    });
    expect(t.fake.requests[1]?.body.session).toBeUndefined();
    expect(t.data.get('sessionToken')).toBe('fresh');
    expect(t.auth.getSnapshot().matches('signedOut')).toBe(true);
  });

  it('an early sess/init answer is taken by the first init: one call in all', async () => {
    const t = boot(
      (r) => (r.path === 'sess/init' ? INIT : ok({ status: 'ok', sessionToken: 'fresh' })),
      {},
      { early: true },
    );
    const s = await t.settled;
    expect(selectIsLoaded(s)).toBe(true);
    expect(t.fake.requests.map((r) => r.path)).toEqual(['sess/init', 'sess/create']);
    expect(t.data.get('sessionToken')).toBe('fresh');
  });

  it('an early answer still goes through the version check', async () => {
    const t = boot(
      () => ok({ status: 'ok', version: '0.1.9', data: { public_data: {} } }),
      {},
      { early: true },
    );
    const s = await t.settled;
    expect(s.value).toBe('failed');
    expect(s.context.error).toEqual({
      code: 'Init',
      text: SESSION_MESSAGES.expiredVersion(REQUIRED_VERSION),
    });
    expect(t.fake.requests.map((r) => r.path)).toEqual(['sess/init']);
  });

  it('an early call that fails is reported by the session: the connection text, once', async () => {
    const t = boot(() => ({ networkError: true }), {}, { early: true });
    const s = await t.settled;
    expect(s.value).toBe('failed');
    expect(s.context.error).toEqual({ code: 'Init', text: MESSAGES.connect });
    expect(t.fake.requests.map((r) => r.path)).toEqual(['sess/init']);
  });
});
