import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/freePort';
import { ROOT, serverProcess } from '../../support/serverProcess';
import { startTestSmtp, type TestSmtp } from '../../support/smtp';

/**
 * Production (`server/main.ts` bundled, as `npm run server` runs its build) refuses every configuration
 * mistake by name before the first player: each bad value below exits non-zero within 10 s
 * with a message naming the variable, and the path where one is involved. The base
 * configuration the cases start from does start, so each refusal is the bad value's.
 */
const LIMIT_MS = 10_000;
const FROM = 'Solana Mafia Wars <play@studio.test>';
const work = mkdtempSync(join(tmpdir(), 'smw-misconfig-'));
let smtp: TestSmtp;
let closedPort: number;
const server = serverProcess('misconfig');
beforeAll(async () => {
  await server.build();
  smtp = await startTestSmtp();
  closedPort = await freePort();
});
afterAll(async () => {
  server.dispose();
  await smtp.stop();
  chmodSync(work, 0o700);
  rmSync(work, { recursive: true, force: true });
});

type Run = { code: number | null; hung: boolean; ms: number; output: string };
let folders = 0;
const newFolder = () => mkdtempSync(join(work, `data-${(folders += 1)}-`));

/**
 * Starts production with `env` over a working configuration (a fresh data folder, the test's
 * SMTP server, the in-process chain) and waits for it to exit, at most LIMIT_MS; a server that
 * starts (prints its URL) is stopped and reported with code null.
 */
function startProduction(
  env: Record<string, string>,
  options: { args?: string[]; uid?: number } = {},
): Promise<Run> {
  const started = Date.now();
  const child = spawn(process.execPath, [...server.args(), ...(options.args ?? [])], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      SERVER_MODE: 'production',
      LOCAL_CHAIN: '1',
      SOLANA_RPC_URL: '',
      SMTP_URL: smtp.url,
      MAIL_FROM: FROM,
      MAIL_TRANSPORT: '',
      METRICS_TOKEN: '',
      SITE_DIR: '',
      DATABASE_URL: '',
      DATA_DIR_CREATE: '',
      DATA_DIR: newFolder(),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.uid } : {}),
  });
  let output = '';
  return new Promise((done) => {
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, LIMIT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Solana Mafia Wars is running at')) child.kill('SIGTERM');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ran = output.includes('Solana Mafia Wars is running at');
      done({ code: ran ? null : code, hung, ms: Date.now() - started, output });
    });
  });
}

/** Exited by itself, non-zero, in time, saying `message`. */
function expectRefused(run: Run, message: RegExp): void {
  expect(run.hung, `still running after ${LIMIT_MS} ms: ${run.output}`).toBe(false);
  expect(run.code, run.output).not.toBeNull();
  expect(run.code, run.output).not.toBe(0);
  expect(run.ms).toBeLessThan(LIMIT_MS);
  expect(run.output).toMatch(message);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

describe('production refuses a misconfiguration by name', () => {
  it('the base configuration of the cases below starts', async () => {
    const run = await startProduction({});
    expect(run.hung).toBe(false);
    expect(run.code, run.output).toBeNull();
  });

  it.each([
    [
      'MAIL_FROM="not an address"',
      { MAIL_FROM: 'not an address' },
      /MAIL_FROM must be one e-mail address.*"not an address"/,
    ],
    [
      'METRICS_TOKEN=a (shorter than 32 characters)',
      { METRICS_TOKEN: 'a' },
      /METRICS_TOKEN must be at least 32 characters, got 1/,
    ],
    [
      'SOLANA_RPC_URL=foo',
      { SOLANA_RPC_URL: 'foo' },
      /SOLANA_RPC_URL must be the http:\/\/ or https:\/\/ URL .*"foo"/,
    ],
    [
      'SOLANA_RPC_URL=ftp://…',
      { SOLANA_RPC_URL: 'ftp://node.test/' },
      /SOLANA_RPC_URL must be the http:\/\/ or https:\/\//,
    ],
    [
      'METRICS_TOKEN of 31 characters',
      { METRICS_TOKEN: 'x'.repeat(31) },
      /METRICS_TOKEN must be at least 32 characters, got 31/,
    ],
  ])('%s', async (_name, env, message) => {
    expectRefused(await startProduction(env), message);
  });

  it('a METRICS_TOKEN of 32 characters is accepted', async () => {
    const run = await startProduction({ METRICS_TOKEN: 'x'.repeat(32) });
    expect(run.code, run.output).toBeNull();
  });

  it('an unreachable SMTP server: refused naming SMTP_URL and its host, never its password', async () => {
    const run = await startProduction({ SMTP_URL: `smtp://user:hunter2@127.0.0.1:${closedPort}` });
    expectRefused(run, new RegExp(`SMTP_URL=smtp://127\\.0\\.0\\.1:${closedPort} cannot be used`));
    expect(run.output).not.toContain('hunter2');
  });

  it('an unreachable chain node: refused naming SOLANA_RPC_URL', async () => {
    const run = await startProduction({
      LOCAL_CHAIN: '',
      SOLANA_RPC_URL: `http://127.0.0.1:${closedPort}`,
    });
    expectRefused(
      run,
      new RegExp(`SOLANA_RPC_URL=http://127\\.0\\.0\\.1:${closedPort} does not answer`),
    );
  });

  it('a database that cannot be reached: refused naming DATABASE_URL, never its password', async () => {
    const run = await startProduction({
      DATABASE_URL: `postgres://smw:hunter2@127.0.0.1:${closedPort}/smw`,
    });
    expectRefused(
      run,
      new RegExp(
        `DATABASE_URL=postgres://smw:…@127\\.0\\.0\\.1:${closedPort}/smw cannot be reached`,
      ),
    );
    expect(run.output).not.toContain('hunter2');
  });

  it('a typo in DATA_DIR (no such folder): refused naming it, and nothing is created', async () => {
    const typo = join(work, 'no-such-folder', 'data');
    const run = await startProduction({ DATA_DIR: typo });
    expectRefused(run, new RegExp(`DATA_DIR=${escape(typo)} does not exist .*DATA_DIR_CREATE=1`));
    expect(() => statSync(join(work, 'no-such-folder'))).toThrow();
  });

  it.each([
    ['DATA_DIR_CREATE=1', { DATA_DIR_CREATE: '1' }, []],
    ['--init', {}, ['--init']],
  ])('a new DATA_DIR is made with %s, readable by its owner only', async (_name, env, args) => {
    const fresh = join(work, `new-${String(args.length)}`, 'data');
    const run = await startProduction({ DATA_DIR: fresh, ...env }, { args });
    expect(run.code, run.output).toBeNull();
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
  });

  it.each([
    ['DATA_DIR=/proc/smw-data', {}],
    ['DATA_DIR=/proc/smw-data with DATA_DIR_CREATE=1', { DATA_DIR_CREATE: '1' }],
  ])('%s: refused at once naming the path (no hang)', async (_name, env) => {
    const run = await startProduction({ DATA_DIR: '/proc/smw-data', ...env });
    expectRefused(run, /DATA_DIR=\/proc\/smw-data is on proc, a file system that keeps no files/);
  });

  it('LOG_DIR on /proc: refused naming LOG_DIR and the path', async () => {
    expectRefused(
      await startProduction({ LOG_DIR: '/proc/smw-logs' }),
      /LOG_DIR=\/proc\/smw-logs is on proc/,
    );
  });

  it('a DATA_DIR that is a file: refused naming it', async () => {
    const file = join(work, 'a-file');
    writeFileSync(file, 'not a folder');
    expectRefused(
      await startProduction({ DATA_DIR: file }),
      new RegExp(`DATA_DIR=${escape(file)} is not a folder`),
    );
  });

  it('a data folder the server cannot write: refused naming DATA_DIR and the path', async () => {
    const folder = newFolder();
    chmodSync(folder, 0o555);
    // root writes anywhere: the server then runs as nobody, which may read the folder only.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      chmodSync(work, 0o755);
      // The bundle's own folder is made owner-only: nobody must read it to run it.
      chmodSync(dirname(server.args()[0]!), 0o755);
    }
    const run = await startProduction({ DATA_DIR: folder }, asRoot ? { uid: 65534 } : {});
    expectRefused(run, new RegExp(`DATA_DIR=${escape(folder)} is not writable by this server`));
  });

  it('a missing SITE_DIR: refused naming it and the path', async () => {
    const missing = join(work, 'dist-typo');
    expectRefused(
      await startProduction({ SITE_DIR: missing }),
      new RegExp(`SITE_DIR=${escape(missing)} does not exist`),
    );
  });

  it('a SITE_DIR without a built site: refused naming it', async () => {
    const empty = newFolder();
    expectRefused(
      await startProduction({ SITE_DIR: empty }),
      new RegExp(`SITE_DIR=${escape(empty)} holds no index.html`),
    );
  });

  it('without SITE_DIR, production says which deployment it assumes', async () => {
    const run = await startProduction({});
    expect(run.output).toMatch(
      /No SITE_DIR: this server answers the API only and assumes the site is served from another origin.*CORS_ORIGINS/,
    );
  });
});
