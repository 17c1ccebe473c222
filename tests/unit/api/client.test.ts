import { describe, expect, it } from 'vitest';
import {
  createApiClient,
  defaultBaseUrl,
  retryAfterOf,
  type TokenSource,
} from '../../../src/api/client';
import { MESSAGES } from '../../../contract/api';
import { ApiError } from '../../../src/api/errors';
import { createFakeFetch, USER_DATA, type FakeHandler } from './fakeFetch';

const initAnswer = {
  status: 'ok',
  version: '0.2.0',
  data: { public_data: { price: '0.22' } },
};

function client(handler: FakeHandler, opts: { jwt?: string | null; session?: string | null } = {}) {
  const fake = createFakeFetch(handler);
  const tokens: TokenSource = {
    getJwt: () => (opts.jwt === undefined ? 'jwt-1' : opts.jwt),
    renewJwt: () => Promise.reject(new Error('no refresh in this test')),
  };
  const api = createApiClient({
    baseUrl: 'http://api.test/api/',
    getSessionToken: () => (opts.session === undefined ? 'session-1' : opts.session),
    tokens,
    fetch: fake.fetch,
  });
  return { api, fake };
}

describe('api client', () => {
  it('adds the session token to the JSON body and no bearer on public paths', async () => {
    const { api, fake } = client(() => ({ status: 200, json: initAnswer }));
    const answer = await api.call('sessInit', {});
    expect(answer).toEqual(initAnswer);
    expect(fake.requests[0]).toMatchObject({
      path: 'sess/init',
      method: 'POST',
      bearer: null,
      body: { session: 'session-1' },
    });
  });

  it('sends no session field while there is no session token', async () => {
    const { api, fake } = client(
      () => ({ status: 200, json: { status: 'ok', sessionToken: 't' } }),
      {
        session: null,
      },
    );
    await api.call('sessCreate', { data: { language: 'en', user_agent: 'ua' } });
    expect(fake.requests[0]?.body).toEqual({ data: { language: 'en', user_agent: 'ua' } });
  });

  it('keeps an explicit session of the payload (sess/load)', async () => {
    const { api, fake } = client(() => ({ status: 200, json: { status: 'ok' } }));
    await api.call('sessLoad', { session: 'stored-token' });
    expect(fake.requests[0]?.body.session).toBe('stored-token');
  });

  it('puts the session token in the params for GET and in the form for form posts', async () => {
    const { api, fake } = client(() => ({ status: 200, json: { ok: true } }));
    await api.request('coin/info', { id: 7 }, { method: 'GET' });
    expect(fake.requests[0]?.query.get('session')).toBe('session-1');
    expect(fake.requests[0]?.query.get('id')).toBe('7');
    expect(fake.requests[0]?.bearer).toBe('jwt-1');
    await api.request('sess/upload', { name: 'x' }, { form: true });
    expect(fake.requests[1]?.form?.get('session')).toBe('session-1');
    expect(fake.requests[1]?.form?.get('name')).toBe('x');
  });

  it('sends the bearer jwt on protected paths (user/, pro/, coin/)', async () => {
    const { api, fake } = client(() => ({
      status: 200,
      json: { result: true, user_data: USER_DATA },
    }));
    await api.call('userData', {});
    await api.request('pro/anything', {});
    await api.request('coin/trending', {});
    expect(fake.requests.map((r) => r.bearer)).toEqual(['jwt-1', 'jwt-1', 'jwt-1']);
  });

  it('rejects a protected call without a jwt locally and never sends it [§6.protected]', async () => {
    const { api, fake } = client(() => ({ status: 200, json: {} }), { jwt: null });
    const error = await api.call('inviteCodes', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'auth', message: MESSAGES.noJwt });
    expect(fake.requests).toHaveLength(0);
  });

  it('turns a server error into its JSON message', async () => {
    const { api } = client(() => ({
      status: 500,
      json: { status: 'error', message: 'Database is down' },
    }));
    await expect(api.call('sessInit', {})).rejects.toMatchObject({
      kind: 'http',
      status: 500,
      message: 'Database is down',
      serverMessage: 'Database is down',
    });
  });

  it('turns a proxy HTML error page into a typed http error, not a crash', async () => {
    const { api } = client(() => ({ status: 502, text: '<html><body>Bad Gateway</body></html>' }));
    const error = await api.call('sessInit', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', status: 502 });
    expect((error as ApiError).serverMessage).toBeUndefined();
  });

  it('turns a 200 body that is not JSON into a parse error', async () => {
    const { api } = client(() => ({ status: 200, text: '{', contentType: 'application/json' }));
    await expect(api.call('sessInit', {})).rejects.toMatchObject({ kind: 'parse' });
    const html = client(() => ({ status: 200, text: '<!doctype html><p>hi</p>' }));
    await expect(html.api.call('sessInit', {})).rejects.toMatchObject({ kind: 'parse' });
  });

  it('turns JSON of the wrong shape into a schema error naming the field', async () => {
    const { api } = client(() => ({ status: 200, json: { status: 'ok', version: 2 } }));
    const error = await api.call('sessInit', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'schema' });
    expect((error as Error).message).toContain('version');
  });

  it("uses the server's message of a 200 answer of the wrong shape", async () => {
    const { api } = client(() => ({
      status: 200,
      json: { status: 'error', message: 'Session expired' },
    }));
    await expect(api.call('sessLoad', { session: 's' })).rejects.toMatchObject({
      kind: 'schema',
      serverMessage: 'Session expired',
    });
  });

  it('tells a network failure apart, with the connection text', async () => {
    const { api } = client(() => ({ networkError: true }));
    await expect(api.call('sessInit', {})).rejects.toMatchObject({
      kind: 'network',
      message: MESSAGES.connect,
    });
  });

  it('passes the AbortSignal to the request: aborting rejects with kind aborted', async () => {
    const controller = new AbortController();
    const { api } = client(async () => {
      controller.abort();
      return { status: 200, json: initAnswer };
    });
    await expect(api.call('sessInit', {}, { signal: controller.signal })).rejects.toMatchObject({
      kind: 'aborted',
    });
  });

  it('checks the request against the contract before sending', async () => {
    const { api, fake } = client(() => ({ status: 200, json: {} }));
    const bad = { data: { email: 'x'.repeat(400), code: '1' } };
    await expect(api.call('authEmailVerify', bad)).rejects.toMatchObject({ kind: 'schema' });
    expect(fake.requests).toHaveLength(0);
  });

  it('defaults to the same-origin /api/ base', () => {
    expect(defaultBaseUrl()).toBe('/api/');
  });
});

describe('Retry-After', () => {
  const answer = (status: number, value?: string) => ({
    status,
    headers: new Headers(value === undefined ? {} : { 'Retry-After': value }),
  });
  it('reads whole seconds of a 429 only', () => {
    expect(retryAfterOf(answer(429, '29'))).toBe(29);
    expect(retryAfterOf(answer(429, ' 7 '))).toBe(7);
    expect(retryAfterOf(answer(429))).toBeUndefined();
    expect(retryAfterOf(answer(429, '0'))).toBeUndefined();
    expect(retryAfterOf(answer(429, 'Wed, 21 Oct 2026 07:28:00 GMT'))).toBeUndefined();
    expect(retryAfterOf(answer(503, '29'))).toBeUndefined();
  });
});
