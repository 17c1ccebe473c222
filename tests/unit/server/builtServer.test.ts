import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../../server/dataLock';
import { postApi } from '../../support/api';
import { ROOT } from '../../support/serverProcess';
import { codeIn, startTestSmtp, type TestSmtp } from '../../support/smtp';
import { until } from '../../support/until';

/**
 * The server as a studio runs it: built to plain JavaScript (`npm run build:server`), started by
 * `npm run server` with node as the process that receives signals (the pid it prints), one
 * server per data folder.
 */
const BUNDLE = join(ROOT, 'build/server/main.mjs');
let smtp: TestSmtp;
const dataDirs: string[] = [];
const children: ChildProcess[] = [];
let built: SpawnSyncReturns<string>;

beforeAll(async () => {
  smtp = await startTestSmtp();
  // Every test here runs this build.
  built = spawnSync('npm', ['run', 'build:server'], { cwd: ROOT, encoding: 'utf8' });
}, 60_000);
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null && child.pid)
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
});
afterAll(async () => {
  await smtp.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'smw-built-'));
  dataDirs.push(dir);
  return dir;
};

/** Production as a launch runs it (real SMTP; the in-process chain, LOCAL_CHAIN=1). */
const productionEnv = (dataDir: string): NodeJS.ProcessEnv => ({
  ...process.env,
  SERVER_MODE: '',
  PORT: '0',
  DATA_DIR: dataDir,
  LOCAL_CHAIN: '1',
  SOLANA_RPC_URL: '',
  SMTP_URL: smtp.url,
  MAIL_FROM: 'Solana Mafia Wars <play@studio.test>',
  REQUEST_LOG: '0',
});

type Started = { child: ChildProcess; url: string; pid: number; output: () => string };

/** Spawns `command`, in a process group of its own, and waits for the server's start line. */
function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((done, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /is running at (http:\/\/127\.0\.0\.1:\d+)\/ \(pid (\d+)\)/.exec(output);
      if (match) done({ child, url: match[1]!, pid: Number(match[2]), output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code, signal) => fail(new Error(`exited (${code ?? signal}): ${output}`)));
  });
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done(child.exitCode);
    else child.once('exit', (code) => done(code));
  });

/** Whether any process has this pid (or, negative, any process is in this group). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A player signs in through the server (its database then has writes in its WAL). */
async function signIn(url: string, email: string) {
  expect((await postApi(url, 'auth/email/init', { data: { email } })).status).toBe(200);
  const code = codeIn((await smtp.next(email)).text)!;
  const verified = await postApi(url, 'auth/email/verify', { data: { email, code } });
  expect(verified.status).toBe(200);
}

describe('the built server', () => {
  it('npm run build:server writes plain JavaScript that node runs', () => {
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toMatch(/build:server: build\/server\/main\.mjs \(\d+ KiB\)/);
    const check = spawnSync(process.execPath, ['--check', BUNDLE], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    const code = readFileSync(BUNDLE, 'utf8');
    expect(code).not.toMatch(/from ['"]tsx|\.ts['"]\)?;?$/m);
    // npm run server rebuilds only what changed: right after a build, nothing.
    const before = statSync(BUNDLE).mtimeMs;
    const again = spawnSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(again.status).toBe(0);
    expect(statSync(BUNDLE).mtimeMs).toBe(before);
    // A source newer than the bundle: built again.
    const source = join(ROOT, 'server/ready.ts');
    const { atime, mtime } = statSync(source);
    utimesSync(source, atime, new Date(before + 5_000));
    try {
      const stale = spawnSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(stale.status).toBe(0);
      expect(stale.stdout).toMatch(/build:server: build\/server\/main\.mjs/);
      expect(statSync(BUNDLE).mtimeMs).toBeGreaterThan(before);
    } finally {
      utimesSync(source, atime, mtime);
    }
  });

  it('SIGTERM to the pid npm run server prints stops it gracefully and leaves no process behind', async () => {
    const dataDir = newDataDir();
    const started = await startProcess('npm', ['run', 'server'], productionEnv(dataDir));
    const npmPid = started.child.pid!;
    // The pid printed is node running the bundle itself, not npm or a shell.
    expect(started.pid).not.toBe(npmPid);
    const argv = readFileSync(`/proc/${started.pid}/cmdline`, 'utf8').split('\0');
    expect(argv[0]).toMatch(/node$/);
    expect(argv).toContain('build/server/main.mjs');
    expect(argv.join(' ')).not.toMatch(/tsx|npm/);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(true);

    await signIn(started.url, 'built@studio.test');
    expect(statSync(join(dataDir, 'site.sqlite-wal')).size).toBeGreaterThan(0);

    process.kill(started.pid, 'SIGTERM');
    expect(await exitOf(started.child)).toBe(0);
    expect(started.output()).toMatch(/SIGTERM: stopping/);
    expect(alive(started.pid)).toBe(false);
    // Nothing of npm's process group is left.
    expect(alive(-npmPid)).toBe(false);
    // The WAL was checkpointed into the database and the folder is free again.
    const wal = join(dataDir, 'site.sqlite-wal');
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });

  it("SIGTERM to npm's own pid (a supervisor running npm run server) reaches the server too", async () => {
    const dataDir = newDataDir();
    const started = await startProcess('npm', ['run', 'server'], productionEnv(dataDir));
    const npmPid = started.child.pid!;
    process.kill(npmPid, 'SIGTERM');
    await exitOf(started.child);
    expect(await until(() => !alive(started.pid))).toBe(true);
    expect(started.output()).toMatch(/SIGTERM: stopping/);
    expect(alive(-npmPid)).toBe(false);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });
});

/** Runs the built server on `dataDir` to its end (a refusal exits at once). */
const startRefused = (dataDir: string, env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [BUNDLE], {
    cwd: ROOT,
    env: { ...productionEnv(dataDir), ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });

describe('TRUST_PROXY', () => {
  it('an entry that is not an address or a CIDR refuses to start, naming it', () => {
    const dataDir = newDataDir();
    const refused = startRefused(dataDir, { TRUST_PROXY: '127.0.0.1, proxy.internal' });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('TRUST_PROXY must list proxy addresses or CIDR ranges');
    expect(refused.stderr).toContain('got proxy.internal');
  });
});

describe('one data folder, one server', () => {
  it('a second server on the same data folder refuses to start, naming the folder and the first', async () => {
    const dataDir = newDataDir();
    const first = await startProcess(process.execPath, [BUNDLE], productionEnv(dataDir));
    const second = startRefused(dataDir);
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`The data folder ${dataDir} is in use by another server`);
    expect(second.stderr).toContain(`pid ${first.pid}`);
    // The first one was not disturbed.
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
    process.kill(first.pid, 'SIGTERM');
    expect(await exitOf(first.child)).toBe(0);
  });

  it('the lock of a server that died (SIGKILL) is stale: the next server takes the folder', async () => {
    const dataDir = newDataDir();
    const first = await startProcess(process.execPath, [BUNDLE], productionEnv(dataDir));
    process.kill(first.pid, 'SIGKILL');
    await exitOf(first.child);
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: first.pid,
    });
    const next = await startProcess(process.execPath, [BUNDLE], productionEnv(dataDir));
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: next.pid,
    });
    process.kill(next.pid, 'SIGTERM');
    expect(await exitOf(next.child)).toBe(0);
  });

  it('a server killed but not yet collected by its parent (a zombie) holds the folder no more', async () => {
    const dataDir = newDataDir();
    // sh starts the server, then becomes `sleep`: a parent that never collects its child.
    const held = await startProcess(
      'sh',
      ['-c', `"${process.execPath}" "${BUNDLE}" & exec sleep 120`],
      productionEnv(dataDir),
    );
    process.kill(held.pid, 'SIGKILL');
    const state = () => {
      const stat = readFileSync(`/proc/${held.pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    };
    expect(await until(() => state() === 'Z')).toBe(true);
    const next = await startProcess(process.execPath, [BUNDLE], productionEnv(dataDir));
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: next.pid,
    });
    process.kill(next.pid, 'SIGTERM');
    expect(await exitOf(next.child)).toBe(0);
  });

  it('four servers starting at once on a stale lock: one takes the folder, three refuse', async () => {
    const dataDir = newDataDir();
    const gone = spawnSync('true').pid;
    writeFileSync(
      join(dataDir, LOCK_FILE),
      JSON.stringify({ pid: gone, host: hostname(), startedAt: '2026-12-01T00:00:00.000Z' }),
    );
    const starts = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        startProcess(process.execPath, [BUNDLE], productionEnv(dataDir)),
      ),
    );
    const running = starts.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const refused = starts.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
    expect(running).toHaveLength(1);
    expect(refused).toHaveLength(3);
    for (const reason of refused)
      expect(reason).toContain(`The data folder ${dataDir} is in use by another server`);
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: running[0]!.pid,
    });
    process.kill(running[0]!.pid, 'SIGTERM');
    expect(await exitOf(running[0]!.child)).toBe(0);
  });

  it('a torn lock (empty after a power cut) is stale too; a live one of another host is never taken', async () => {
    const dataDir = newDataDir();
    writeFileSync(join(dataDir, LOCK_FILE), '');
    const next = await startProcess(process.execPath, [BUNDLE], productionEnv(dataDir));
    process.kill(next.pid, 'SIGTERM');
    expect(await exitOf(next.child)).toBe(0);

    writeFileSync(
      join(dataDir, LOCK_FILE),
      JSON.stringify({ pid: 999_999, host: 'other-host', startedAt: '2026-12-01T00:00:00.000Z' }),
    );
    const refused = startRefused(dataDir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('pid 999999 on other-host');
  });
});
