import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type ActorRefFrom } from 'xstate';
import type { AuthMachine } from '../../../machines/auth/auth.machine';
import { EMPTY_STORED } from '../../../machines/shared/stored';
import { createApiClient } from '../../../src/api/client';
import { MESSAGES } from '../../../contract/api';
import { provideAuth } from '../../../src/app/compose';
import { authTokenSource } from '../../../src/app/tokenSource';
import { memoryStorage } from '../../support/memoryStorage';
import { registerUser, startTestServer } from '../../support/api';

/**
 * The refresh queue against the real local server: jwts live 1 s of the server's clock, refresh
 * tokens rotate. After the jwt expires, parallel protected calls share one auth/refresh and all succeed.
 */
type Server = Awaited<ReturnType<typeof startTestServer>>;
let server: Server;
// The server's clock, moved by hand: a jwt expires exactly when a test says so, and the renewed
// jwt stays valid while the retries run (with a real 1 s clock a slow machine expires it again).
let serverNow = Date.now();
const expireJwts = () => {
  serverNow += 2_000;
};

beforeAll(async () => {
  server = await startTestServer({ jwtTtlSeconds: 1, now: () => serverNow });
});
afterAll(async () => {
  await server?.close();
});

function countingFetch() {
  const paths: { path: string; status: number }[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const response = await fetch(request);
    paths.push({
      path: new URL(request.url).pathname.replace(/^\/api\//, ''),
      status: response.status,
    });
    return response;
  };
  return { fetch: fetchImpl as typeof fetch, paths };
}

async function signedInClient(email: string) {
  const user = await registerUser(server.url, email);
  const counting = countingFetch();
  const { storage, data } = memoryStorage();
  let auth: ActorRefFrom<AuthMachine> | undefined = undefined;
  const api = createApiClient({
    baseUrl: `${server.url}/api/`,
    getSessionToken: () => user.sessionToken,
    tokens: authTokenSource(() => auth),
    fetch: counting.fetch,
  });
  auth = createActor(provideAuth({ api, storage }), {
    input: { stored: { ...EMPTY_STORED, jwt: user.jwt, refreshToken: user.refreshToken } },
  }).start();
  return { api, auth, paths: counting.paths, data, user };
}

describe('refresh queue against the local server', () => {
  it('50 parallel calls with an expired jwt → 1 refresh, 50 successful retries', async () => {
    const { api, auth, paths, data, user } = await signedInClient('queue@example.com');
    expireJwts(); // the 1 s jwt has expired
    const results = await Promise.all(Array.from({ length: 50 }, () => api.call('userData', {})));
    expect(results.every((r) => r.user_data.user_email === 'queue@example.com')).toBe(true);
    expect(paths.filter((p) => p.path === 'auth/refresh')).toHaveLength(1);
    const userCalls = paths.filter((p) => p.path === 'user/data');
    expect(userCalls.filter((p) => p.status === 401)).toHaveLength(50);
    expect(userCalls.filter((p) => p.status === 200)).toHaveLength(50);
    const jwt = auth.getSnapshot().context.jwt;
    expect(jwt).not.toBe(user.jwt);
    expect(data.get('jwt')).toBe(jwt);
    expect(data.get('refreshToken')).not.toBe(user.refreshToken);
  });

  it('a revoked refresh token → logout once, every waiter rejected, storage cleared', async () => {
    const { api, auth, paths, data, user } = await signedInClient('revoked@example.com');
    // Revoke the refresh token's family behind the client's back (an Exit in another browser):
    // the client's copy is now refused.
    const revoked = await fetch(`${server.url}/api/auth/logout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ session: user.sessionToken, refresh_token: user.refreshToken }),
    });
    expect(revoked.status).toBe(200);
    expireJwts();
    const settled = await Promise.allSettled(
      Array.from({ length: 50 }, () => api.call('userData', {})),
    );
    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
    expect(
      settled.every(
        (s) => s.status === 'rejected' && (s.reason as Error).message === MESSAGES.refreshFailed,
      ),
    ).toBe(true);
    expect(paths.filter((p) => p.path === 'auth/refresh')).toHaveLength(1);
    expect(auth.getSnapshot().matches('signedOut')).toBe(true);
    expect(data.has('jwt')).toBe(false);
    const sent = paths.length;
    await expect(api.call('userData', {})).rejects.toMatchObject({ message: MESSAGES.noJwt });
    expect(paths.length).toBe(sent);
  });
});
