import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { getBase58Decoder } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserData } from '../../../contract/api';
import type { RunningServer } from '../../../server/app';
import type { MailMessage } from '../../../server/mail';
import { postApi, query, startTestServer } from '../../support/api';
import { serverProcess } from '../../support/serverProcess';
import { codeIn, startTestSmtp } from '../../support/smtp';

/**
 * Production's request log: one JSON line per request (id, method, route, status, duration),
 * and never a secret. A whole production sign-in (code e-mail, verify, refresh), a payment on the
 * in-process chain settled through the balance call, and a sign-out are made over HTTP; then
 * every line the server wrote is searched for each code, jwt, refresh token, session token and
 * the payment wallet's secret key in every encoding the server holds it.
 */
let server: RunningServer;
const lines: string[] = [];
const mails: MailMessage[] = [];

beforeAll(async () => {
  server = await startTestServer({
    mode: 'production',
    localChain: true,
    mailer: async (message) => {
      mails.push(message);
    },
    requestLog: { write: (line) => lines.push(...line.split('\n').filter(Boolean)) },
  });
}, 30_000);
afterAll(() => server.close());

describe('request log', () => {
  it('one JSON line per request, and no code, jwt, token or wallet secret in any of them', async () => {
    const secrets: Record<string, string> = {};
    let requests = 0;
    const post = (path: string, body: unknown, jwt?: string) => {
      requests += 1;
      return postApi(server.url, path, body, jwt);
    };
    const email = 'logged@studio.test';

    const created = await post('sess/create', { data: { language: 'en', user_agent: 'tests' } });
    const session = String(created.body.sessionToken);
    secrets.session = session;
    expect((await post('auth/email/init', { session, data: { email } })).status).toBe(200);
    const code = codeIn(mails.at(-1)?.text)!;
    secrets.code = code;
    const wrong = code === '000000' ? '111111' : '000000';
    secrets.wrongCode = wrong;
    expect(
      (await post('auth/email/verify', { session, data: { email, code: wrong } })).status,
    ).toBe(400);
    const verified = await post('auth/email/verify', { session, data: { email, code } });
    expect(verified.status).toBe(200);
    const jwt = String(verified.body.jwt);
    secrets.jwt = jwt;
    secrets.refresh = String(verified.body.refresh_token);
    const user = verified.body.user_data as UserData;

    const refreshed = await post('auth/refresh', { refresh_token: secrets.refresh });
    expect(refreshed.status).toBe(200);
    secrets.jwt2 = String(refreshed.body.jwt);
    secrets.refresh2 = String(refreshed.body.refresh_token);
    const jwt2 = secrets.jwt2;

    expect(
      (
        await post(
          'user/tools/solana/blockhash',
          { session, data: { wallet_type: 'phantom' } },
          jwt2,
        )
      ).status,
    ).toBe(200);
    const price = BigInt(
      (
        (await post('sess/init', {})).body.data as {
          public_data: { ticket_price_lamports: string };
        }
      ).public_data.ticket_price_lamports,
    );
    // The player's payment arrives on the in-process chain.
    expect(server.ctx.services.chain!.airdrop(user.user_payment_wallet, price).ok).toBe(true);
    const paid = await post(
      'user/wallet/balance',
      { session, data: { wallet_id: user.user_payment_wallet_data.wallet_id } },
      jwt2,
    );
    expect(paid.body.access_granted).toBe(true);
    expect((await post('user/data', { session }, jwt2)).status).toBe(200);
    // A query string is never logged (a token pasted in a URL).
    requests += 1;
    expect((await fetch(`${server.url}/api/nowhere?token=${secrets.refresh2}`)).status).toBe(404);
    requests += 1;
    expect(
      (await fetch(`${server.url}/api/user/data`, { headers: { Authorization: `Bearer ${jwt}` } }))
        .status,
    ).toBe(405);
    expect((await post('auth/logout', { refresh_token: secrets.refresh2 })).status).toBe(200);

    // The payment wallet's secret in every form the server holds it.
    const row = (await server.ctx.users.findByEmail(email))!;
    const secretKey = await server.ctx.users.paymentSecretKey(row.id);
    expect(Keypair.fromSecretKey(secretKey).publicKey.toBase58()).toBe(user.user_payment_wallet);
    secrets.walletBase58 = getBase58Decoder().decode(secretKey);
    secrets.walletBase64 = Buffer.from(secretKey).toString('base64');
    secrets.walletHex = Buffer.from(secretKey).toString('hex');
    secrets.walletSealed = row.payment_wallet_secret;
    // The server's own secrets, as its store holds them.
    for (const { name, value } of await query<{ name: string; value: string }>(
      server,
      'SELECT name, value FROM server_secrets',
    ))
      secrets[name] = value;

    await new Promise((done) => setTimeout(done, 50));
    const log = lines.join('\n');
    console.log(
      `request log: ${lines.length} lines for ${requests} requests and the server's own chain calls, ${Object.keys(secrets).length} secrets searched, ${log.length} bytes`,
    );
    // Every request has its line: the test's, and the server's own calls to its chain's /rpc.
    // (Besides them, Fastify's own start line: 'Server listening at …'.)
    const perRequest = lines.filter((l) => !l.includes('"msg":"Server listening at'));
    const own = perRequest.filter((l) => l.includes('"route":"/rpc"'));
    expect(own.length).toBeGreaterThan(0);
    expect(perRequest.length - own.length).toBe(requests);
    for (const line of perRequest) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      expect(entry).toMatchObject({ msg: 'request', level: 30 });
      expect(Object.keys(entry)).toEqual(
        expect.arrayContaining(['reqId', 'method', 'route', 'path', 'status', 'responseTime']),
      );
      expect(typeof entry.responseTime).toBe('number');
    }
    const routes = perRequest.map((l) => {
      const e = JSON.parse(l) as { method: string; route: string | null; status: number };
      return `${e.method} ${e.route} ${e.status}`;
    });
    expect(routes).toContain('POST /api/auth/email/verify 400');
    expect(routes).toContain('POST /api/user/wallet/balance 200');
    expect(routes).toContain('GET /api/user/data 405');
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThanOrEqual(6);
      expect(log.includes(secret), `${name} is in the request log`).toBe(false);
    }
    expect(log).not.toContain(email);
  });
});

describe('server/main.ts in production', () => {
  const main = serverProcess('request-log', 'tsx');
  afterAll(() => main.dispose());

  it('writes the request lines to stdout (REQUEST_LOG=0 turns them off)', async () => {
    const smtp = await startTestSmtp();
    try {
      const { mkdtempSync, rmSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const dataDir = mkdtempSync(join(tmpdir(), 'smw-reqlog-'));
      const env = {
        DATA_DIR: dataDir,
        SERVER_MODE: '',
        LOCAL_CHAIN: '1',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Solana Mafia Wars <play@studio.test>',
      };
      const url = await main.start(env);
      await postApi(url, 'sess/init', {});
      await new Promise((done) => setTimeout(done, 100));
      const line = main
        .output()
        .split('\n')
        .find((l) => l.includes('"route":"/api/sess/init"'));
      expect(JSON.parse(line!)).toMatchObject({ method: 'POST', status: 200, msg: 'request' });
      await main.kill();
      const quietUrl = await main.start({ ...env, REQUEST_LOG: '0' });
      const before = main.output();
      await postApi(quietUrl, 'sess/init', {});
      await new Promise((done) => setTimeout(done, 100));
      expect(main.output().slice(before.length)).not.toContain('"route"');
      rmSync(dataDir, { recursive: true, force: true });
    } finally {
      await smtp.stop();
    }
  }, 60_000);
});
