import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postApi } from '../../support/api';
import { serverProcess } from '../../support/serverProcess';
import { codeIn, startTestSmtp, type TestSmtp } from '../../support/smtp';
import { until } from '../../support/until';

const server = serverProcess('main', 'tsx');
let dataDir: string | undefined;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(() => smtp.stop());
/** Production's mail settings, pointing at the test's own SMTP server. */
const mail = () => ({ SMTP_URL: smtp.url, MAIL_FROM: 'Solana Mafia Wars <play@studio.test>' });

afterEach(() => {
  server.dispose();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/** Runs server/main.ts as `npm run server` does and waits for the line with its URL. */
async function runMain(
  env: Record<string, string>,
): Promise<{ url: string; output: () => string }> {
  dataDir = mkdtempSync(join(tmpdir(), 'smw-main-'));
  const url = await server.start({ DATA_DIR: dataDir, ...env });
  return { url, output: () => server.output() };
}
const child = () => server.child();

const exitOf = (proc: ChildProcess) =>
  new Promise<number | null>((done) => {
    if (proc.exitCode !== null) done(proc.exitCode);
    else proc.on('exit', (code) => done(code));
  });

describe('server/main.ts', () => {
  it('prints its URL, reads API_VERSION and TICKET_PRICE_SOL, and stops cleanly on SIGTERM', async () => {
    const { url } = await runMain({
      SERVER_MODE: 'development',
      API_VERSION: '0.1.9',
      TICKET_PRICE_SOL: '0.33',
    });
    const answer = await postApi(url, 'sess/init', {});
    expect(answer.body).toMatchObject({
      version: '0.1.9',
      data: { public_data: { price: '0.33', ticket_price_lamports: '330000000' } },
    });
    child()!.kill('SIGTERM');
    expect(await exitOf(child()!)).toBe(0);
  });

  it('production is the default: without SOLANA_RPC_URL or LOCAL_CHAIN=1 it refuses to start', async () => {
    const env = { SERVER_MODE: '', SOLANA_RPC_URL: '', LOCAL_CHAIN: '' };
    await expect(runMain(env)).rejects.toThrow(/SOLANA_RPC_URL.*LOCAL_CHAIN=1/);
    expect(child()!.exitCode).not.toBe(0);
  });

  it('the default mode with LOCAL_CHAIN=1 is production: a warning, no outbox, no airdrops', async () => {
    const { url, output } = await runMain({ SERVER_MODE: '', LOCAL_CHAIN: '1', ...mail() });
    // stderr (the warning) and stdout (the start line) are two pipes: either may arrive first.
    expect(await until(() => /Warning: LOCAL_CHAIN=1/.test(output()))).toBe(true);
    expect((await fetch(`${url}/api/dev/outbox`)).status).toBe(404);
    expect((await fetch(`${url}/api/dev/wallet`, { method: 'POST' })).status).toBe(404);
    const airdrop = await fetch(`${url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'requestAirdrop',
        params: ['11111111111111111111111111111111', 1_000_000_000],
      }),
    });
    const body = (await airdrop.json()) as { error?: { code: number } };
    expect(body.error?.code).toBe(-32601);
  });

  it('SERVER_MODE=production e-mails the code over SMTP, hides the outbox and sign_code', async () => {
    const { url, output } = await runMain({
      SERVER_MODE: 'production',
      LOCAL_CHAIN: '1',
      ...mail(),
    });
    const sent = await postApi(url, 'auth/email/init', { data: { email: 'cli@site.test' } });
    expect(sent.body).toEqual({ result: true });
    const code = codeIn((await smtp.next('cli@site.test')).text);
    expect(code).toMatch(/^\d{6}$/);
    expect((await fetch(`${url}/api/dev/outbox`)).status).toBe(404);
    expect(output()).not.toContain(code!);
  });

  it('production without SMTP_URL exits non-zero with a message naming SMTP_URL', async () => {
    await expect(
      runMain({ SERVER_MODE: 'production', LOCAL_CHAIN: '1', SMTP_URL: '', MAIL_TRANSPORT: '' }),
    ).rejects.toThrow(/Could not start the server: Production mode needs SMTP_URL/);
    expect(child()!.exitCode).not.toBe(0);
  });

  it('MAIL_TRANSPORT=log starts a staging server with a loud warning', async () => {
    const { output } = await runMain({
      SERVER_MODE: 'production',
      LOCAL_CHAIN: '1',
      SMTP_URL: '',
      MAIL_TRANSPORT: 'log',
    });
    expect(
      await until(() =>
        /WARNING: MAIL_TRANSPORT=log writes every sign-in code to this log/.test(output()),
      ),
    ).toBe(true);
  });

  it('refuses an unknown SERVER_MODE with a message and a non-zero exit', async () => {
    await expect(runMain({ SERVER_MODE: 'staging' })).rejects.toThrow(/SERVER_MODE/);
    expect(child()!.exitCode).not.toBe(0);
  });
});
