import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../server/app';
import { postApi, rawPost, registerUser, startTestServer } from '../../support/api';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ plugins: [] });
});
afterAll(async () => {
  await server.close();
});

/** POST of a body as written (not JSON-encoded by the test): status and the parsed answer. */
async function postText(path: string, body: string, headers: Record<string, string> = {}) {
  const answer = await rawPost(`${server.url}/api/${path}`, Buffer.from(body), { headers });
  return { status: answer.status, body: JSON.parse(answer.text) as Record<string, unknown> };
}

async function expectStillServing() {
  const answer = await postApi(server.url, 'sess/init', {});
  expect(answer.status).toBe(200);
  expect(answer.body.status).toBe('ok');
}

function expectClientError(
  answer: { status: number; body: Record<string, unknown> },
  status?: number,
) {
  if (status !== undefined) expect(answer.status).toBe(status);
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(answer.body.status).toBe('error');
  expect(answer.body.result).toBe(false);
  expect(typeof answer.body.message).toBe('string');
  expect(String(answer.body.message).length).toBeGreaterThan(0);
}

describe('bad requests get a 4xx with a message and the server keeps serving', () => {
  it.each(['{', '{"data":', 'null', '[]', '42', '"text"', 'not json at all'])(
    'body %j',
    async (body) => {
      expectClientError(await postText('sess/create', body), 400);
      await expectStillServing();
    },
  );

  it.each([
    ['{', 'Malformed JSON in request body'],
    ['{"__proto__":{"admin":true}}', 'Malformed JSON in request body'],
    ['[]', 'Request body must be a JSON object'],
    [
      '{"data":{"language":5,"user_agent":"x"}}',
      'Invalid request: data.language: expected string, got number',
    ],
    [
      '{"data":{"user_agent":"x"}}',
      'Invalid request: data.language: expected string, got undefined',
    ],
    ['{"data":"en"}', 'Invalid request: data: expected object, got string'],
  ])('body %j is answered with the message %j', async (body, message) => {
    expect((await postText('sess/create', body)).body.message).toBe(message);
  });

  it('a body that is not JSON by its Content-Type gets 415 with a message', async () => {
    const answer = await postText('sess/create', 'language=en', {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expectClientError(answer, 415);
    await expectStillServing();
  });

  it.each([
    ['sess/create', {}],
    ['sess/create', { data: { language: 'en' } }],
    ['sess/load', {}],
    ['auth/email/init', { data: {} }],
    ['auth/email/verify', { data: { email: 'a@b.co' } }],
    ['auth/refresh', {}],
  ])('missing fields on %s', async (path, body) => {
    expectClientError(await postApi(server.url, path, body), 400);
    await expectStillServing();
  });

  it.each([
    ['sess/create', { data: { language: 5, user_agent: 'x' } }],
    ['sess/create', { data: 'en' }],
    ['sess/load', { session: ['x'], data: {} }],
    ['auth/email/init', { data: { email: 'a@b.co', resend: 'yes' } }],
    ['auth/email/init', { data: { email: { $ne: '' } } }],
    ['auth/email/verify', { data: { email: 'a@b.co', code: 123456 } }],
    ['auth/refresh', { refresh_token: null }],
    ['auth/refresh', { refresh_token: 12 }],
  ])('wrong types on %s: %j', async (path, body) => {
    expectClientError(await postApi(server.url, path, body), 400);
    await expectStillServing();
  });

  it('strings longer than the contract allows', async () => {
    const answer = await postApi(server.url, 'sess/create', {
      data: { language: 'x'.repeat(65), user_agent: 'y' },
    });
    expectClientError(answer, 400);
    await expectStillServing();
  });

  it('an oversized body (over 64 KB) gets 413', async () => {
    const big = JSON.stringify({ data: { language: 'en', user_agent: 'x'.repeat(70 * 1024) } });
    expectClientError(await postText('sess/create', big), 413);
    await expectStillServing();
  });

  it('an oversized body without a Content-Length (chunked) gets 413', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8) controller.close();
        else {
          sent += 1;
          controller.enqueue(chunk);
        }
      },
    });
    const response = await fetch(`${server.url}/api/sess/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { message: string }).message).toMatch(/too large/i);
    await expectStillServing();
  });

  it('an unknown API path gets 404 JSON', async () => {
    const answer = await postApi(server.url, 'nope/nothing', {});
    expectClientError(answer, 404);
    await expectStillServing();
  });

  it('a wrong method gets 405 JSON', async () => {
    const response = await fetch(`${server.url}/api/sess/init`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(((await response.json()) as { message: string }).message).toBe(
      'Method GET not allowed on /api/sess/init',
    );
    const health = await fetch(`${server.url}/api/health`, { method: 'DELETE' });
    expect(health.status).toBe(405);
    expect(health.headers.get('allow')).toBe('GET, HEAD');
    expect((await fetch(`${server.url}/api/health`, { method: 'HEAD' })).status).toBe(200);
  });

  it('a malformed URL encoding does not crash the server', async () => {
    const response = await fetch(`${server.url}/api/%E0%A4%A`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    await expectStillServing();
  });
});

describe('protected user/* paths need a valid bearer jwt', () => {
  it.each([
    ['no Authorization header', undefined],
    ['a garbage token', 'garbage'],
    [
      'a token with a forged signature',
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.AAAA',
    ],
  ])('%s → 401 JSON with a message', async (_label, jwt) => {
    for (const path of ['user/data', 'user/invite/codes']) {
      const answer = await postApi(server.url, path, {}, jwt);
      expectClientError(answer, 401);
    }
  });

  it('a jwt signed by another server (another secret) → 401', async () => {
    const other = await startTestServer({ plugins: [] });
    try {
      const { jwt } = await registerUser(other.url, 'other@server.test');
      expectClientError(await postApi(server.url, 'user/data', {}, jwt), 401);
    } finally {
      await other.close();
    }
  });

  it('a valid jwt reaches user/data and user/invite/codes', async () => {
    const { jwt, userData } = await registerUser(server.url, 'protected@site.test');
    const data = await postApi(server.url, 'user/data', {}, jwt);
    expect(data.status).toBe(200);
    expect(data.body).toEqual({ result: true, user_data: userData });
    const codes = await postApi(server.url, 'user/invite/codes', {}, jwt);
    // Invitation codes come with a confirmed ticket (§9): none before it.
    expect(codes.body).toEqual({ status: 'ok', codes: [] });
  });
});

describe('jwt expiry', () => {
  it('an expired jwt gets 401, and refreshing gives a jwt that works again', async () => {
    const clock = { ms: Date.now() };
    const short = await startTestServer({ plugins: [], jwtTtlSeconds: 1, now: () => clock.ms });
    try {
      const { jwt, refreshToken } = await registerUser(short.url, 'expiry@site.test');
      const payload = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as {
        exp: number;
        iat: number;
      };
      expect(payload.exp - payload.iat).toBe(1);
      // The server's clock moves past the 1 s lifetime; no real waiting.
      clock.ms += 1_000;
      const expired = await postApi(short.url, 'user/data', {}, jwt);
      expectClientError(expired, 401);
      expect(expired.body.message).toMatch(/expired/i);
      const refreshed = await postApi(short.url, 'auth/refresh', { refresh_token: refreshToken });
      expect(refreshed.status).toBe(200);
      expect((await postApi(short.url, 'user/data', {}, String(refreshed.body.jwt))).status).toBe(
        200,
      );
    } finally {
      await short.close();
    }
  });

  it('refuses a jwt lifetime above 15 minutes', async () => {
    await expect(startTestServer({ plugins: [], jwtTtlSeconds: 901 })).rejects.toThrow(
      /jwtTtlSeconds/,
    );
  });

  it('issues jwts that live at most 15 minutes by default', async () => {
    const { jwt } = await registerUser(server.url, 'ttl@site.test');
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as {
      exp: number;
      iat: number;
    };
    expect(payload.exp - payload.iat).toBe(900);
  });
});

describe('order of checks', () => {
  it('a protected call without a jwt gets 401 even with a malformed body', async () => {
    const answer = await postText('user/data', '{');
    expectClientError(answer, 401);
    await expectStillServing();
  });

  it('an unknown path with a large body still answers 404 and the next request works', async () => {
    const answer = await postText('nope', JSON.stringify({ pad: 'x'.repeat(50_000) }));
    expectClientError(answer, 404);
    await expectStillServing();
  });
});

describe('CORS in development mode', () => {
  it('allows the local dev server origin, with a preflight', async () => {
    const preflight = await fetch(`${server.url}/api/user/data`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
  });

  it('does not allow other origins', async () => {
    const response = await fetch(`${server.url}/api/sess/init`, {
      method: 'POST',
      body: '{}',
      headers: { Origin: 'https://evil.example' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS in production mode', () => {
  it('allows only the configured site origins', async () => {
    const prod = await startTestServer({
      plugins: [],
      mode: 'production',
      localChain: true,
      corsOrigins: ['https://site.example'],
    });
    try {
      const ask = (origin: string) =>
        fetch(`${prod.url}/api/sess/init`, {
          method: 'POST',
          body: '{}',
          headers: { Origin: origin },
        });
      expect((await ask('https://site.example')).headers.get('access-control-allow-origin')).toBe(
        'https://site.example',
      );
      expect(
        (await ask('http://localhost:5173')).headers.get('access-control-allow-origin'),
      ).toBeNull();
    } finally {
      await prod.close();
    }
  });
});
