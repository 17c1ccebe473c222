import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../server/app';
import { READY_PATH, type ReadinessAnswer } from '../../../server/ready';
import { startTestServer } from '../../support/api';
import { startTestSmtp, type TestSmtp } from '../../support/smtp';

/**
 * `/api/ready` tells whether this instance can serve a player: 503 naming the part when the
 * chain's JSON-RPC or the mail transport cannot be reached, 200 when both answer; `/api/health`
 * stays liveness (200 while the process answers). The parts are real: the test's SMTP server
 * (stopped and started again) and another server's local chain behind SOLANA_RPC_URL (stopped).
 */
let smtp: TestSmtp;
let chain: RunningServer;
let server: RunningServer;
const warnings: string[] = [];

beforeAll(async () => {
  smtp = await startTestSmtp();
  // A development server's in-process chain is the production server's "Solana node".
  chain = await startTestServer({ mode: 'development' });
  server = await startTestServer({
    mode: 'production',
    rpcUrl: `${chain.url}/rpc`,
    smtpUrl: smtp.url,
    mailFrom: 'Solana Mafia Wars <play@studio.test>',
    // Every probe asks the parts again (the cache is the next test's).
    readyCacheMs: 0,
    log: { info: () => {}, warn: (m) => warnings.push(m), error: () => {} },
  });
}, 30_000);
afterAll(async () => {
  await server.close();
  await chain.close().catch(() => {});
  await smtp.stop();
});

async function ready(url: string): Promise<{ status: number; body: ReadinessAnswer }> {
  const response = await fetch(`${url}${READY_PATH}`);
  return { status: response.status, body: (await response.json()) as ReadinessAnswer };
}
const health = async (url: string) => (await fetch(`${url}/api/health`)).status;

describe('/api/ready', () => {
  it('200 with the chain and the mail reachable; 503 naming mail, then chain, when each is stopped', async () => {
    expect(await ready(server.url)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', chain: 'ok', mail: 'ok' }, failing: [] },
    });

    await smtp.stop();
    const noMail = await ready(server.url);
    expect(noMail.status).toBe(503);
    expect(noMail.body).toMatchObject({
      status: 'not ready',
      checks: { chain: 'ok', mail: 'unreachable' },
      failing: ['mail'],
    });
    expect(noMail.body.message).toMatch(/^Not ready: mail \(the mail transport \(SMTP_URL\)/);
    // Liveness is not readiness.
    expect(await health(server.url)).toBe(200);
    expect(warnings.filter((w) => w.includes('mail transport'))).toHaveLength(1);

    await smtp.start();
    expect((await ready(server.url)).status).toBe(200);

    await chain.close();
    const noChain = await ready(server.url);
    expect(noChain.status).toBe(503);
    expect(noChain.body).toMatchObject({
      status: 'not ready',
      checks: { chain: 'unreachable', mail: 'ok' },
      failing: ['chain'],
    });
    expect(noChain.body.message).toMatch(/chain RPC \(SOLANA_RPC_URL\) cannot be reached/);
    expect(await health(server.url)).toBe(200);

    await smtp.stop();
    const neither = await ready(server.url);
    expect(neither.status).toBe(503);
    expect(neither.body.failing).toEqual(['chain', 'mail']);
    // The reasons (addresses, error codes) stay in the log, not in the public answer.
    expect(JSON.stringify(neither.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    expect(warnings.some((w) => /ECONNREFUSED/.test(w))).toBe(true);
    await smtp.start();
  });

  it('an outcome stands for a while: ten probes in a row make one SMTP session', async () => {
    const cached = await startTestServer({
      mode: 'production',
      localChain: true,
      smtpUrl: smtp.url,
      mailFrom: 'Solana Mafia Wars <play@studio.test>',
    });
    try {
      const before = smtp.connections();
      const answers = await Promise.all(Array.from({ length: 5 }, () => ready(cached.url)));
      for (let i = 0; i < 5; i += 1) answers.push(await ready(cached.url));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      // The in-process chain is part of this process: only the mail is checked.
      expect(answers[0]!.body.checks).toEqual({ database: 'ok', mail: 'ok' });
      expect(smtp.connections() - before).toBe(1);
    } finally {
      await cached.close();
    }
  });
});
