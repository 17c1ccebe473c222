import { describe, expect, it } from 'vitest';
import { createActor, waitFor, type ActorRefFrom } from 'xstate';
import type { AuthMachine } from '../../../machines/auth/auth.machine';
import { EMPTY_STORED } from '../../../machines/shared/stored';
import { createApiClient } from '../../../src/api/client';
import { MESSAGES } from '../../../contract/api';
import { ApiError } from '../../../src/api/errors';
import { provideAuth } from '../../../src/app/compose';
import { authTokenSource } from '../../../src/app/tokenSource';
import { memoryStorage } from '../../support/memoryStorage';
import { deferred } from '../../support/deferred';
import { until } from '../../support/until';
import { createFakeFetch, USER_DATA, type FakeHandler } from './fakeFetch';

/**
 * The single-flight refresh (§4 Token refresh, reliability guide): the real client, the real
 * auth machine and its real wiring, against a fetch fake that counts every request.
 */
const N = 50;

function setup(
  handler: FakeHandler,
  tokens = { jwt: 'jwt-1', refreshToken: 'refresh-1' },
  withRefreshLock?: <T>(task: () => Promise<T>) => Promise<T>,
) {
  const fake = createFakeFetch(handler);
  const { storage, data } = memoryStorage();
  storage.set('jwt', tokens.jwt);
  storage.set('refreshToken', tokens.refreshToken);
  let auth: ActorRefFrom<AuthMachine> | undefined = undefined;
  const api = createApiClient({
    baseUrl: 'http://api.test/api/',
    getSessionToken: () => 'session-1',
    tokens: authTokenSource(() => auth),
    fetch: fake.fetch,
  });
  auth = createActor(
    provideAuth({ api, storage, ...(withRefreshLock ? { withRefreshLock } : {}) }),
    {
      input: { stored: { ...EMPTY_STORED, jwt: tokens.jwt, refreshToken: tokens.refreshToken } },
    },
  );
  let logouts = 0;
  let wasSignedIn = false;
  auth.subscribe((s) => {
    if (s.matches('signedIn')) wasSignedIn = true;
    if (s.matches('signedOut') && wasSignedIn) {
      logouts += 1;
      wasSignedIn = false;
    }
  });
  auth.start();
  return { api, auth, fake, data, logouts: () => logouts };
}

const userDataAnswer = { status: 200, json: { result: true, user_data: USER_DATA } } as const;
const unauthorized = { status: 401, json: { message: 'Token expired' } } as const;

const count = (requests: { path: string }[], path: string) =>
  requests.filter((r) => r.path === path).length;

describe('refresh queue', () => {
  it('a request cancelled while it waits for the refresh rejects as cancelled; the others get the new jwt', async () => {
    const refreshAnswer = deferred();
    const bothFailed = deferred();
    let firstTries = 0;
    const { api, auth } = setup(async (req) => {
      if (req.path === 'auth/refresh') {
        await refreshAnswer.promise;
        return { status: 200, json: { result: true, jwt: 'jwt-2', refresh_token: 'refresh-2' } };
      }
      if (req.bearer === 'jwt-2') return userDataAnswer;
      firstTries += 1;
      if (firstTries === 2) bothFailed.resolve();
      return unauthorized;
    });
    const controller = new AbortController();
    const cancelled = api.call('userData', {}, { signal: controller.signal });
    const kept = api.call('userData', {});
    await bothFailed.promise;
    await until(() => auth.getSnapshot().matches({ signedIn: 'refreshing' }));
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ kind: 'aborted' });
    refreshAnswer.resolve();
    await expect(kept).resolves.toMatchObject({ result: true });
    expect(auth.getSnapshot().context.jwt).toBe('jwt-2');
  });

  it('a request waiting for the refresh when the auth service stops is refused, not left hanging', async () => {
    const { api, auth } = setup(async (req) => {
      if (req.path === 'auth/refresh') return new Promise(() => {});
      return unauthorized;
    });
    const waiting = api.call('userData', {});
    await until(() => auth.getSnapshot().matches({ signedIn: 'refreshing' }));
    auth.stop();
    await expect(waiting).rejects.toBeInstanceOf(ApiError);
  });

  it(`${N} parallel 401s → exactly 1 refresh and ${N} retries, all with the new token`, async () => {
    const allFailed = deferred();
    let firstTries = 0;
    const { api, fake, data } = setup(async (req) => {
      if (req.path === 'auth/refresh') {
        await allFailed.promise; // the refresh answers only after every request saw its 401
        return {
          status: 200,
          json: { result: true, jwt: 'jwt-2', refresh_token: 'refresh-2' },
        };
      }
      if (req.bearer === 'jwt-2') return userDataAnswer;
      firstTries += 1;
      if (firstTries === N) setTimeout(() => allFailed.resolve(), 0);
      return unauthorized;
    });

    const results = await Promise.all(Array.from({ length: N }, () => api.call('userData', {})));

    expect(results).toHaveLength(N);
    for (const r of results) expect(r.user_data.user_email).toBe(USER_DATA.user_email);
    expect(count(fake.requests, 'auth/refresh')).toBe(1);
    const refresh = fake.requests.find((r) => r.path === 'auth/refresh');
    expect(refresh?.body.refresh_token).toBe('refresh-1');
    expect(refresh?.bearer).toBeNull();
    const userCalls = fake.requests.filter((r) => r.path === 'user/data');
    expect(userCalls).toHaveLength(2 * N);
    expect(userCalls.filter((r) => r.bearer === 'jwt-1')).toHaveLength(N);
    expect(userCalls.filter((r) => r.bearer === 'jwt-2')).toHaveLength(N);
    expect(data.get('jwt')).toBe('jwt-2');
    expect(data.get('refreshToken')).toBe('refresh-2');
  });

  it('a 401 to a request sent with the old token after the refresh finished → resend, 0 extra refreshes', async () => {
    const lateAnswer = deferred();
    let first = true;
    const { api, auth, fake } = setup(async (req) => {
      if (req.path === 'auth/refresh')
        return { status: 200, json: { result: true, jwt: 'jwt-2', refresh_token: 'refresh-2' } };
      if (req.bearer === 'jwt-2') return userDataAnswer;
      if (req.body.tag === 'late' && first) {
        first = false;
        await lateAnswer.promise; // held back until the other request's refresh is done
      }
      return unauthorized;
    });

    const late = api.request('user/data', { tag: 'late' });
    // Sent with the old token before the other request starts (a condition, not a pause).
    expect(await until(() => fake.requests.some((r) => r.body.tag === 'late'))).toBe(true);
    await api.call('userData', {});
    expect(auth.getSnapshot().context.jwt).toBe('jwt-2');
    expect(count(fake.requests, 'auth/refresh')).toBe(1);

    lateAnswer.resolve();
    await expect(late).resolves.toMatchObject({ result: true });
    expect(count(fake.requests, 'auth/refresh')).toBe(1);
    const lateCalls = fake.requests.filter((r) => r.body.tag === 'late');
    expect(lateCalls.map((r) => r.bearer)).toEqual(['jwt-1', 'jwt-2']);
  });

  it(`refresh fails → logout exactly once, all ${N} rejected, storage cleared, 0 requests after`, async () => {
    const allFailed = deferred();
    let firstTries = 0;
    const { api, auth, fake, data, logouts } = setup(async (req) => {
      if (req.path === 'auth/refresh') {
        await allFailed.promise;
        return { status: 401, json: { message: 'Refresh token revoked' } };
      }
      firstTries += 1;
      if (firstTries === N) setTimeout(() => allFailed.resolve(), 0);
      return unauthorized;
    });

    const settled = await Promise.allSettled(
      Array.from({ length: N }, () => api.call('userData', {})),
    );

    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
    for (const s of settled) {
      const reason = (s as PromiseRejectedResult).reason as ApiError;
      expect(reason).toBeInstanceOf(ApiError);
      expect(reason.kind).toBe('auth');
      expect(reason.message).toBe(MESSAGES.refreshFailed);
    }
    expect(logouts()).toBe(1);
    expect(auth.getSnapshot().matches('signedOut')).toBe(true);
    expect(auth.getSnapshot().context).toMatchObject({
      jwt: null,
      refreshToken: null,
      userData: null,
    });
    expect(data.has('jwt')).toBe(false);
    expect(data.has('refreshToken')).toBe(false);
    const before = fake.requests.length;
    expect(count(fake.requests, 'auth/refresh')).toBe(1);
    expect(count(fake.requests, 'user/data')).toBe(N);

    // Signed out: a protected call is rejected locally and never sent.
    await expect(api.call('userData', {})).rejects.toMatchObject({ message: MESSAGES.noJwt });
    expect(fake.requests.length).toBe(before);
  });

  it('a failed refresh leaves nothing stuck: after a new sign-in the next 401 refreshes again', async () => {
    let refreshes = 0;
    const { api, auth, fake } = setup(async (req) => {
      if (req.path === 'auth/refresh') {
        refreshes += 1;
        return refreshes === 1
          ? { status: 500, json: { message: 'boom' } }
          : { status: 200, json: { result: true, jwt: 'jwt-4', refresh_token: 'refresh-4' } };
      }
      return req.bearer === 'jwt-4' ? userDataAnswer : unauthorized;
    });
    await expect(api.call('userData', {})).rejects.toMatchObject({
      message: MESSAGES.refreshFailed,
    });
    auth.send({
      type: 'auth.signedIn',
      jwt: 'jwt-3',
      refreshToken: 'refresh-3',
      userData: USER_DATA,
    });
    await expect(api.call('userData', {})).resolves.toMatchObject({ result: true });
    expect(count(fake.requests, 'auth/refresh')).toBe(2);
    expect(fake.requests.filter((r) => r.path === 'auth/refresh')[1]?.body.refresh_token).toBe(
      'refresh-3',
    );
  });

  it('auth/* and sess/* calls never trigger a refresh', async () => {
    const { api, auth, fake } = setup(() => ({ status: 401, json: { message: 'Invalid code' } }));
    await expect(
      api.call('authEmailVerify', { data: { email: 'a@b.co', code: '123456' } }),
    ).rejects.toMatchObject({ kind: 'http', status: 401, message: 'Invalid code' });
    await expect(api.call('sessInit', {})).rejects.toMatchObject({ status: 401 });
    await expect(api.call('sessLoad', { session: 's' })).rejects.toMatchObject({ status: 401 });
    expect(count(fake.requests, 'auth/refresh')).toBe(0);
    expect(auth.getSnapshot().context.jwt).toBe('jwt-1');
  });

  it('a refresh answer arriving after logout is dropped and its waiters are rejected', async () => {
    const refreshAnswer = deferred();
    const { api, auth, data } = setup(async (req) => {
      if (req.path === 'auth/refresh') {
        await refreshAnswer.promise;
        return { status: 200, json: { result: true, jwt: 'jwt-2', refresh_token: 'refresh-2' } };
      }
      return req.bearer === 'jwt-2' ? userDataAnswer : unauthorized;
    });
    const waiting = api.call('userData', {});
    await waitFor(auth, (snap) => snap.matches({ signedIn: 'refreshing' }));
    auth.send({ type: 'auth.logout' });
    refreshAnswer.resolve();
    await expect(waiting).rejects.toMatchObject({ kind: 'auth' });
    // One turn of the event loop: any write the late refresh answer would make has been made.
    await new Promise((r) => setImmediate(r));
    expect(auth.getSnapshot().context.jwt).toBeNull();
    expect(data.has('jwt')).toBe(false);
  });

  it('without a refresh token the 401 logs out with "No refresh token available"', async () => {
    const { api, auth, fake } = setup(() => unauthorized, { jwt: 'jwt-1', refreshToken: '' });
    await expect(api.call('userData', {})).rejects.toMatchObject({
      kind: 'auth',
      message: MESSAGES.noRefreshToken,
    });
    expect(count(fake.requests, 'auth/refresh')).toBe(0);
    expect(auth.getSnapshot().matches('signedOut')).toBe(true);
  });

  it('a retry that gets 401 again is rejected without a second refresh', async () => {
    const { api, fake } = setup((req) =>
      req.path === 'auth/refresh'
        ? { status: 200, json: { result: true, jwt: 'jwt-2', refresh_token: 'refresh-2' } }
        : unauthorized,
    );
    await expect(api.call('userData', {})).rejects.toMatchObject({ status: 401 });
    expect(count(fake.requests, 'auth/refresh')).toBe(1);
    expect(count(fake.requests, 'user/data')).toBe(2);
  });

  it('runs the refresh under the shared lock and uses tokens another tab already rotated', async () => {
    let locked = 0;
    const lock = async <T>(task: () => Promise<T>) => {
      locked += 1;
      return task();
    };
    const { api, auth, fake, data } = setup(
      (req) =>
        req.path === 'auth/refresh'
          ? { status: 200, json: { result: true, jwt: 'jwt-2', refresh_token: 'refresh-2' } }
          : req.bearer === 'jwt-5'
            ? userDataAnswer
            : unauthorized,
      undefined,
      lock,
    );
    // Another tab refreshed meanwhile: storage now holds its rotated tokens.
    data.set('jwt', 'jwt-5');
    data.set('refreshToken', 'refresh-5');
    await expect(api.call('userData', {})).resolves.toMatchObject({ result: true });
    expect(locked).toBe(1);
    expect(count(fake.requests, 'auth/refresh')).toBe(0);
    expect(auth.getSnapshot().context).toMatchObject({ jwt: 'jwt-5', refreshToken: 'refresh-5' });
  });
});
