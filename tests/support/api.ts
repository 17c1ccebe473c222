import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outboxSchema, type UserData } from '../../contract/api';
import { startServer, type RunningServer, type StartOptions } from '../../server/app';
import * as v from 'valibot';
import { databaseUrlFor, dropDatabaseFor } from './testStore';

/**
 * The real local server on 127.0.0.1, a free port and a fresh data folder (development mode,
 * silent), its store on the test run's engine (the data folder's SQLite, or a Postgres database
 * of its own). `close()` also removes the data folder and its database unless one was passed in.
 */
export async function startTestServer(opts: Partial<StartOptions> = {}): Promise<RunningServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'smw-server-'));
  // Production needs a way to mail codes: a test that is not about mail gets one that drops them.
  const needsMail =
    opts.mode === 'production' && !opts.mailer && !opts.smtpUrl && opts.mailToLog !== true;
  const databaseUrl = opts.databaseUrl ?? (await databaseUrlFor(dataDir));
  const server = await startServer({
    port: 0,
    mode: 'development',
    log: 'silent',
    ...(needsMail ? { mailer: async () => {} } : {}),
    ...opts,
    ...(databaseUrl ? { databaseUrl } : {}),
    dataDir,
  });
  return {
    ...server,
    close: async () => {
      await server.close();
      if (!opts.dataDir) {
        rmSync(dataDir, { recursive: true, force: true });
        if (!opts.databaseUrl) await dropDatabaseFor(dataDir);
      }
    },
  };
}

export type ApiAnswer = { status: number; headers: Headers; body: Record<string, unknown> };

/** POST /api/<path> with a JSON body (and a bearer jwt when given); never throws on 4xx/5xx. */
export async function postApi(
  baseUrl: string,
  path: string,
  body: unknown,
  jwt?: string,
): Promise<ApiAnswer> {
  const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/api/${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(jwt ? { Authorization: `Bearer ${jwt}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** The newest sign-in code the development outbox holds for `email`. */
export async function readOutboxCode(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(
    `${baseUrl.replace(/\/+$/, '')}/api/dev/outbox?email=${encodeURIComponent(email)}`,
  );
  if (!response.ok) throw new Error(`dev outbox answered ${response.status}`);
  const newest = v.parse(outboxSchema, await response.json()).messages[0];
  if (!newest) throw new Error(`no code in the outbox for ${email}`);
  return newest.code;
}

export type RegisteredUser = {
  sessionToken: string;
  jwt: string;
  refreshToken: string;
  userData: UserData;
};

/** Signs an e-mail in over real HTTP: sess/create → auth/email/init → outbox → auth/email/verify. */
export async function registerUser(
  baseUrl: string,
  email: string,
  inviteCode?: string,
  /** More of the visitor session: another user agent, UTM fields. */
  visit: Record<string, string> = {},
): Promise<RegisteredUser> {
  const created = await postApi(baseUrl, 'sess/create', {
    data: { language: 'en', user_agent: 'tests', ...visit },
  });
  const sessionToken = String(created.body.sessionToken);
  const init = await postApi(baseUrl, 'auth/email/init', {
    session: sessionToken,
    data: { email, ...(inviteCode ? { code_invite: inviteCode } : {}) },
  });
  if (init.status !== 200)
    throw new Error(`auth/email/init answered ${init.status}: ${String(init.body.message)}`);
  const code = await readOutboxCode(baseUrl, email);
  const verified = await postApi(baseUrl, 'auth/email/verify', {
    session: sessionToken,
    data: { email, code },
  });
  if (verified.status !== 200)
    throw new Error(
      `auth/email/verify answered ${verified.status}: ${String(verified.body.message)}`,
    );
  return {
    sessionToken,
    jwt: String(verified.body.jwt),
    refreshToken: String(verified.body.refresh_token),
    userData: verified.body.user_data as UserData,
  };
}

/** user/wallet/balance of `user`'s own payment wallet: the server reads the chain and settles. */
export const walletBalance = (baseUrl: string, user: RegisteredUser) =>
  postApi(
    baseUrl,
    'user/wallet/balance',
    {
      session: user.sessionToken,
      data: { wallet_id: user.userData.user_payment_wallet_data.wallet_id },
    },
    user.jwt,
  );

/** A raw POST over one keep-alive agentless socket: status, headers and the body as text. */
export function rawPost(
  url: string,
  body: Buffer,
  opts: { chunked?: boolean; localAddress?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        ...(opts.localAddress ? { localAddress: opts.localAddress } : {}),
        headers: {
          'Content-Type': 'application/json',
          ...(opts.chunked ? {} : { 'Content-Length': body.length }),
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    // The server may answer before reading everything: that is the point, not an error.
    req.on('error', reject);
    if (opts.chunked) {
      for (let at = 0; at < body.length; at += 16 * 1024)
        req.write(body.subarray(at, at + 16 * 1024));
      req.end();
    } else req.end(body);
  });
}

/**
 * POST /api/<path> from another loopback address (127.0.0.2, …): the server sees a second
 * network, as a stranger's requests would be. Never throws on 4xx/5xx.
 */
export async function postApiFrom(
  localAddress: string,
  baseUrl: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = `${baseUrl.replace(/\/+$/, '')}/api/${path}`;
  const answer = await rawPost(url, Buffer.from(JSON.stringify(body)), { localAddress });
  return { status: answer.status, body: JSON.parse(answer.text) as Record<string, unknown> };
}

/** A raw statement on a test server's store (`?` placeholders, either engine). */
export const query = <R = Record<string, unknown>>(
  server: RunningServer,
  text: string,
  ...params: unknown[]
): Promise<R[]> => server.store.raw<R>(server.store.db, text, params);
