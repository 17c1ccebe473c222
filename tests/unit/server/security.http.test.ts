import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../server/app';
import {
  MAX_BODY_BYTES,
  MAX_RPC_BATCH,
  MAX_RPC_BODY_BYTES,
  PRODUCTION_RATE_LIMITS,
} from '../../../server/limits';
import { postApi, postApiFrom, rawPost, startTestServer } from '../../support/api';

/** One figure line per hardening: what was tried, how often, how much got through. */
const figure = (
  ...args:
    | [n: number, what: string, tried: number, through: number]
    | [what: string, tried: number, through: number]
) => {
  const [label, what, tried, through] =
    args.length === 4 ? [`security ${args[0]}`, args[1], args[2], args[3]] : ['security', ...args];
  console.log(`${label}: ${what} — ${tried} tried / ${through} got through`);
};

const rpcCall = (id: number) => ({ jsonrpc: '2.0', id, method: 'getHealth' });

describe('oversized bodies and large batches (local chain /rpc and the API)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers 413 with a JSON error to oversized /rpc and API bodies, then keeps serving', async () => {
    const big = (limit: number) =>
      Buffer.from(
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth', pad: 'x'.repeat(limit) }),
      );
    const attempts = [
      { url: `${server.url}/rpc`, body: big(MAX_RPC_BODY_BYTES), chunked: false, rpc: true },
      { url: `${server.url}/rpc`, body: big(MAX_RPC_BODY_BYTES * 4), chunked: true, rpc: true },
      {
        url: `${server.url}/api/sess/create`,
        body: big(MAX_BODY_BYTES),
        chunked: false,
        rpc: false,
      },
      {
        url: `${server.url}/api/sess/create`,
        body: big(MAX_BODY_BYTES * 4),
        chunked: true,
        rpc: false,
      },
    ];
    let through = 0;
    for (const attempt of attempts) {
      const answer = await rawPost(attempt.url, attempt.body, { chunked: attempt.chunked });
      expect(answer.status).toBe(413);
      const json = JSON.parse(answer.text) as {
        message?: string;
        error?: { code: number; message: string };
      };
      const message = attempt.rpc ? json.error?.message : json.message;
      expect(message).toMatch(/too large/i);
      if (answer.status !== 413) through += 1;
    }
    // Still serving on both paths after that.
    const health = await rawPost(`${server.url}/rpc`, Buffer.from(JSON.stringify(rpcCall(7))));
    expect(JSON.parse(health.text)).toEqual({ jsonrpc: '2.0', id: 7, result: 'ok' });
    expect((await postApi(server.url, 'sess/init', {})).status).toBe(200);
    figure(3, 'oversized bodies to /rpc and /api (declared and chunked)', attempts.length, through);
  });

  it(`refuses /rpc batches of more than ${MAX_RPC_BATCH} calls with a JSON-RPC error`, async () => {
    const batch = (size: number) =>
      Buffer.from(JSON.stringify(Array.from({ length: size }, (_, i) => rpcCall(i))));
    const allowed = await rawPost(`${server.url}/rpc`, batch(MAX_RPC_BATCH));
    expect(allowed.status).toBe(200);
    expect(JSON.parse(allowed.text)).toHaveLength(MAX_RPC_BATCH);
    const sizes = [MAX_RPC_BATCH + 1, 50, 100, 500];
    let through = 0;
    for (const size of sizes) {
      const answer = await rawPost(`${server.url}/rpc`, batch(size));
      const json = JSON.parse(answer.text) as unknown;
      if (Array.isArray(json)) through += 1;
      expect(answer.status).toBe(400);
      expect(json).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    }
    figure(3, `/rpc batches above ${MAX_RPC_BATCH} calls`, sizes.length, through);
  });
});

describe('per-IP rate limit on the local chain /rpc', () => {
  it(`answers at most ${PRODUCTION_RATE_LIMITS.rpcCalls.max} calls per IP per minute, batches counted call by call`, async () => {
    const { rpcCalls } = PRODUCTION_RATE_LIMITS;
    const server = await startTestServer({ rateLimits: PRODUCTION_RATE_LIMITS });
    try {
      const batch = Buffer.from(
        `  ${JSON.stringify(Array.from({ length: MAX_RPC_BATCH }, (_, i) => rpcCall(i)))}`,
      );
      // 16 clients of one address sending full batches at once, as the flood that slowed the API.
      const rounds = Math.ceil((rpcCalls.max * 2) / MAX_RPC_BATCH / 16);
      let answered = 0;
      let tried = 0;
      let limited = 0;
      for (let round = 0; round < rounds; round += 1) {
        const answers = await Promise.all(
          Array.from({ length: 16 }, () => rawPost(`${server.url}/rpc`, batch)),
        );
        for (const answer of answers) {
          tried += MAX_RPC_BATCH;
          const json = JSON.parse(answer.text) as unknown;
          if (answer.status === 200 && Array.isArray(json)) answered += json.length;
          else {
            limited += 1;
            expect(answer.status).toBe(429);
            expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
            expect(json).toMatchObject({ jsonrpc: '2.0', error: { code: -32005 } });
          }
        }
      }
      expect(limited).toBeGreaterThan(0);
      const through = Math.max(0, answered - rpcCalls.max);
      figure(
        `/rpc calls beyond the rate limit (${rpcCalls.max} per IP per ${rpcCalls.windowMs / 60_000} min)`,
        tried,
        through,
      );
      expect(through).toBe(0);
      // Another address is served meanwhile, and so is the API.
      const other = await rawPost(`${server.url}/rpc`, Buffer.from(JSON.stringify(rpcCall(1))), {
        localAddress: '127.0.0.2',
      });
      expect(JSON.parse(other.text)).toEqual({ jsonrpc: '2.0', id: 1, result: 'ok' });
      expect((await postApi(server.url, 'sess/init', {})).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('per-IP rate limits on sign-in and sessions', () => {
  it('limits invite-code look-ups per IP, 429 with Retry-After, another address still served', async () => {
    const server = await startTestServer({ rateLimits: PRODUCTION_RATE_LIMITS });
    try {
      const { inviteLookup } = PRODUCTION_RATE_LIMITS;
      const extra = 5;
      let through = 0;
      for (let i = 0; i < inviteLookup.max + extra; i += 1) {
        const answer = await postApi(server.url, 'invite/check', {
          data: { code: `GUESS${String(i).padStart(4, '0')}` },
        });
        if (i < inviteLookup.max) {
          expect(answer.status).toBe(200);
          expect(answer.body).toMatchObject({ result: true, known: false });
        } else {
          if (answer.status !== 429) through += 1;
          expect(answer.status).toBe(429);
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(String(answer.body.message)).toMatch(/too many requests/i);
        }
      }
      figure(
        `invite-code look-ups beyond ${inviteLookup.max} per IP per ${inviteLookup.windowMs / 60_000} min`,
        extra,
        through,
      );
      const other = await postApiFrom('127.0.0.2', server.url, 'invite/check', {
        data: { code: 'GUESS' },
      });
      expect(other).toMatchObject({ status: 200, body: { result: true, known: false } });
    } finally {
      await server.close();
    }
  });

  it('limits sign-in code requests and code attempts per IP, 429 with Retry-After', async () => {
    const server = await startTestServer({ plugins: [], rateLimits: PRODUCTION_RATE_LIMITS });
    try {
      const { codeRequest, codeVerify } = PRODUCTION_RATE_LIMITS;
      const extra = 5;
      let through = 0;
      for (let i = 0; i < codeRequest.max + extra; i += 1) {
        const answer = await postApi(server.url, 'auth/email/init', {
          data: { email: `limit${i}@site.test` },
        });
        if (i < codeRequest.max) expect(answer.status).toBe(200);
        else {
          if (answer.status !== 429) through += 1;
          expect(answer.status).toBe(429);
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(answer.body).toMatchObject({ status: 'error', result: false });
          expect(String(answer.body.message)).toMatch(/too many requests/i);
        }
      }
      figure(
        4,
        `sign-in code requests beyond ${codeRequest.max} per IP per ${codeRequest.windowMs / 60_000} min`,
        extra,
        through,
      );

      let verifyThrough = 0;
      for (let i = 0; i < codeVerify.max + extra; i += 1) {
        const answer = await postApi(server.url, 'auth/email/verify', {
          data: { email: 'limit0@site.test', code: String(100000 + i) },
        });
        if (i < codeVerify.max) expect(answer.status).toBe(400);
        else {
          if (answer.status !== 429) verifyThrough += 1;
          expect(answer.status).toBe(429);
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      }
      figure(
        4,
        `code attempts beyond ${codeVerify.max} per IP per ${codeVerify.windowMs / 60_000} min`,
        extra,
        verifyThrough,
      );
    } finally {
      await server.close();
    }
  });

  it('limits sess/create per IP in production mode by default', async () => {
    const server = await startTestServer({ plugins: [], mode: 'production', localChain: true });
    try {
      const { sessionCreate } = PRODUCTION_RATE_LIMITS;
      const extra = 5;
      const create = () =>
        postApi(server.url, 'sess/create', { data: { language: 'en', user_agent: 'test' } });
      for (let i = 0; i < sessionCreate.max; i += 1) expect((await create()).status).toBe(200);
      let through = 0;
      for (let i = 0; i < extra; i += 1) {
        const answer = await create();
        if (answer.status !== 429) through += 1;
        expect(answer.status).toBe(429);
        expect(answer.headers.get('retry-after')).not.toBeNull();
      }
      figure(8, `sess/create beyond ${sessionCreate.max} per IP per 10 min`, extra, through);
    } finally {
      await server.close();
    }
  });
});

describe('security headers', () => {
  it("CSP connect-src is 'self' plus configured hosts, Permissions-Policy always, HSTS only when asked", async () => {
    const siteDir = mkdtempSync(join(tmpdir(), 'smw-headers-'));
    writeFileSync(join(siteDir, 'index.html'), '<!doctype html><title>Home</title>');
    mkdirSync(join(siteDir, 'docs', 'intro'), { recursive: true });
    writeFileSync(
      join(siteDir, 'docs', 'intro', 'index.html'),
      '<!doctype html><title>Intro</title>',
    );
    const plain = await startTestServer({
      plugins: [],
      siteDir,
      mode: 'production',
      localChain: true,
      connectSrc: ['https://api.example.org'],
    });
    const tls = await startTestServer({
      plugins: [],
      siteDir,
      mode: 'production',
      hsts: true,
      localChain: true,
    });
    let tried = 0;
    let through = 0;
    try {
      for (const [server, hsts] of [
        [plain, false],
        [tls, true],
      ] as const) {
        for (const path of ['/', '/docs/intro', '/api/sess/init']) {
          const response = await fetch(`${server.url}${path}`, {
            method: path.startsWith('/api') ? 'POST' : 'GET',
          });
          tried += 1;
          const policy = response.headers.get('content-security-policy');
          const connect = policy ? /connect-src ([^;]*)/.exec(policy)?.[1]?.split(' ') : undefined;
          const ok =
            (connect === undefined ||
              connect.join(' ') ===
                ["'self'", ...(server === plain ? ['https://api.example.org'] : [])].join(' ')) &&
            (response.headers.get('permissions-policy') ?? '').includes('camera=()') &&
            (response.headers.get('strict-transport-security') !== null) === hsts;
          if (!ok) through += 1;
          if (!path.startsWith('/api')) expect(connect).toBeDefined();
          expect(connect ?? []).not.toContain('ws:');
          expect(connect ?? []).not.toContain('wss:');
          expect(ok).toBe(true);
          expect(response.headers.get('strict-transport-security')).toBe(
            hsts ? 'max-age=31536000; includeSubDomains' : null,
          );
          expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        }
      }
    } finally {
      await plain.close();
      await tls.close();
      rmSync(siteDir, { recursive: true, force: true });
    }
    figure(
      7,
      'pages and API answers checked for connect-src, Permissions-Policy and HSTS',
      tried,
      through,
    );
  });
});

describe('server packages are production dependencies', () => {
  it('every package imported under server/ is in dependencies', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ts|mjs|js)$/.test(name)) files.push(path);
      }
    };
    walk('server');
    walk('contract');
    const imported = new Set<string>();
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(/from '([^'.][^']*)'/g)) {
        const spec = match[1]!;
        if (spec.startsWith('node:')) continue;
        imported.add(
          spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!,
        );
      }
    }
    // `npm run server` runs server/main.ts through tsx.
    imported.add('tsx');
    const missing = [...imported].filter((name) => !(name in pkg.dependencies));
    figure(
      11,
      'packages the server imports checked against dependencies',
      imported.size,
      missing.length,
    );
    expect(imported.size).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});
