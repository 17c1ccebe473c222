import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outboxSchema, type UserData } from '../../contract/api';
import { startServer, type RunningServer, type StartOptions } from '../../server/app';

/**
 * The real local server on 127.0.0.1, a free port and a fresh data folder (development mode,
 * silent). `close()` also removes the data folder unless one was passed in.
 */
export async function startTestServer(opts: Partial<StartOptions> = {}): Promise<RunningServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'smw-server-'));
  // Production needs a way to mail codes: a test that is not about mail gets one that drops them.
  const needsMail =
    opts.mode === 'production' && !opts.mailer && !opts.smtpUrl && opts.mailToLog !== true;
  const server = await startServer({
    port: 0,
    mode: 'development',
    log: 'silent',
    ...(needsMail ? { mailer: async () => {} } : {}),
    ...opts,
    dataDir,
  });
  return {
    ...server,
    close: async () => {
      await server.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
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
  const newest = outboxSchema.check(await response.json(), '').messages[0];
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
): Promise<RegisteredUser> {
  const created = await postApi(baseUrl, 'sess/create', {
    data: { language: 'en', user_agent: 'tests' },
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
