import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { UserData } from '../../../contract/api';
import type { RunningServer } from '../../../server/app';
import type { MailMessage } from '../../../server/mail';
import { postApi, startTestServer } from '../../support/api';
import { codeIn } from '../../support/smtp';

/**
 * GET /metrics (server/metrics.ts) of a production server: absent without METRICS_TOKEN, refused
 * without the bearer token, and with it the Prometheus text of what the test did: requests by
 * route, codes sent and failed, a ticket settled, an open socket, the chain's calls and errors.
 */
const TOKEN = 'metrics-token-of-the-test';
let server: RunningServer;
let mailDown = false;
const mails: MailMessage[] = [];

beforeAll(async () => {
  server = await startTestServer({
    mode: 'production',
    localChain: true,
    metricsToken: TOKEN,
    mailer: async (message) => {
      if (mailDown) throw new Error('SMTP 421 service not available');
      mails.push(message);
    },
  });
}, 30_000);
afterAll(() => server.close());

const scrape = (url: string, token?: string) =>
  fetch(`${url}/metrics`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});

/** The value of one sample line (`name{labels} value`), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics', () => {
  it('is not served without METRICS_TOKEN', async () => {
    const plain = await startTestServer({ mode: 'production', localChain: true });
    try {
      const answer = await scrape(plain.url, TOKEN);
      expect(answer.status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('refuses a scrape without the token or with another', async () => {
    const without = await scrape(server.url);
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await without.text()).not.toContain('smw_');
    expect((await scrape(server.url, `${TOKEN}x`)).status).toBe(401);
  });

  it('counts requests, codes sent and failed, tickets settled, sockets and RPC calls', async () => {
    const email = 'metered@studio.test';
    const session = String(
      (await postApi(server.url, 'sess/create', { data: { language: 'en', user_agent: 't' } })).body
        .sessionToken,
    );
    expect(
      (await postApi(server.url, 'auth/email/init', { session, data: { email } })).status,
    ).toBe(200);
    const code = codeIn(mails.at(-1)?.text)!;
    const verified = await postApi(server.url, 'auth/email/verify', {
      session,
      data: { email, code },
    });
    const jwt = String(verified.body.jwt);
    const user = verified.body.user_data as UserData;
    mailDown = true;
    const failed = await postApi(server.url, 'auth/email/init', {
      data: { email: 'unlucky@studio.test' },
    });
    mailDown = false;
    expect(failed.status).toBeGreaterThanOrEqual(500);

    const price = BigInt(
      (
        (await postApi(server.url, 'sess/init', {})).body.data as {
          public_data: { ticket_price_lamports: string };
        }
      ).public_data.ticket_price_lamports,
    );
    server.ctx.services.chain!.airdrop(user.user_payment_wallet, price);
    const paid = await postApi(
      server.url,
      'user/wallet/balance',
      { session, data: { wallet_id: user.user_payment_wallet_data.wallet_id } },
      jwt,
    );
    expect(paid.body.access_granted).toBe(true);
    // A chain call that fails (the node refuses the address) counts as an error.
    await expect(server.ctx.services.rpc!.getBalance('not-an-address')).rejects.toThrow();

    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`);
    await new Promise((done) => ws.once('open', done));
    const welcome = new Promise((done) =>
      ws.on('message', (raw) => {
        if (String(raw).includes('"welcome"')) done(undefined);
      }),
    );
    ws.send(JSON.stringify({ type: 'auth', jwt, timestamp: Date.now() }));
    await welcome;

    const answer = await scrape(server.url, TOKEN);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await answer.text();
    ws.terminate();
    console.log(
      `metrics: ${text.split('\n').filter((l) => l && !l.startsWith('#')).length} samples, ${text.length} bytes`,
    );
    expect(
      sample(
        text,
        'smw_http_requests_total{method="POST",route="/api/auth/email/verify",status="200"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'smw_http_requests_total{method="POST",route="/api/auth/email/init",status="200"}',
      ),
    ).toBe(1);
    expect(
      sample(text, 'smw_http_requests_total{method="GET",route="/metrics",status="401"}'),
    ).toBe(2);
    expect(
      sample(
        text,
        'smw_http_request_duration_seconds_count{method="POST",route="/api/user/wallet/balance"}',
      ),
    ).toBe(1);
    expect(sample(text, 'smw_codes_sent_total{via="mail"}')).toBe(1);
    expect(sample(text, 'smw_codes_failed_total')).toBe(1);
    expect(sample(text, 'smw_tickets_settled_total{tier="after_launch"}')).toBe(1);
    expect(sample(text, 'smw_sockets_open')).toBe(1);
    expect(
      sample(text, 'smw_rpc_calls_total{method="getBalance",outcome="ok"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'smw_rpc_calls_total{method="getBalance",outcome="error"}')).toBe(1);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    // Nothing secret in the labels.
    expect(text).not.toContain(email);
    expect(text).not.toContain(jwt);
  });
});
