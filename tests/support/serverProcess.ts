import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
// esbuild comes with tsx (which runs the server in development): one bundle starts in about
// half the time tsx takes to compile the server on every start.
import { build } from 'esbuild';
import { postApi, readOutboxCode } from './api';
import { rpc } from './rpc';
import { storeEnv } from './testStore';

/**
 * The real server as a child process (server/main.ts bundled, as `npm run server` runs it) on
 * 127.0.0.1, for tests that kill it with SIGKILL and start it again on the same data folder.
 */
export const ROOT = resolve(import.meta.dirname, '../..');

/** Turns the node command and its arguments into the command to spawn. */
export type Launch = (command: string, args: string[]) => { command: string; args: string[] };

export type ServerProcess = {
  /** Builds the bundle (once per test file); nothing to build when run through tsx. */
  build(): Promise<void>;
  /** The process last started (its exit code, or a signal to send). */
  child(): ChildProcess | undefined;
  /** node's arguments that run the server (the bundle, or server/main.ts through tsx). */
  args(): string[];
  /**
   * Starts the server with `env` over the test's environment; resolves with its URL. `launch`
   * wraps the node command (to start it inside another mount namespace, say).
   */
  start(env: Record<string, string>, launch?: Launch): Promise<string>;
  /** Everything the running server printed so far (stdout and stderr). */
  output(): string;
  /** SIGKILL, resolved once the process has exited. */
  kill(): Promise<void>;
  /** Kills a running server, forgets its output and removes the bundle. */
  dispose(): void;
};

/**
 * `runner: 'bundle'` (default) starts one esbuild bundle, fast enough to start 20 times in a
 * test; `'tsx'` runs server/main.ts from its source through tsx.
 */
export function serverProcess(tag: string, runner: 'bundle' | 'tsx' = 'bundle'): ServerProcess {
  // Inside node_modules so the bundle finds the server's packages (kept external).
  const bundleDir = join(ROOT, 'node_modules/.cache', `smw-${tag}`);
  let bundle = '';
  let child: ChildProcess | undefined;
  let printed = '';
  const args = () =>
    runner === 'tsx' ? ['--import', 'tsx', join(ROOT, 'server/main.ts')] : [bundle];
  return {
    child: () => child,
    args,
    async build() {
      if (runner === 'tsx') return;
      mkdirSync(bundleDir, { recursive: true });
      bundle = join(mkdtempSync(join(bundleDir, 'server-')), 'main.mjs');
      await build({
        entryPoints: [join(ROOT, 'server/main.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        packages: 'external',
        outfile: bundle,
        logLevel: 'warning',
      });
    },
    async start(env, launch = (command, args) => ({ command, args })) {
      const store = await storeEnv(env.DATA_DIR);
      const launched = launch(process.execPath, args());
      const proc = spawn(launched.command, launched.args, {
        cwd: ROOT,
        env: { ...process.env, PORT: '0', ...store, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      let output = '';
      return new Promise((done, fail) => {
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          printed += chunk.toString();
          const match = /Solana Mafia Wars is running at (http:\/\/127\.0\.0\.1:\d+)\//.exec(
            output,
          );
          if (match) done(match[1]!);
        };
        proc.stdout.on('data', onData);
        proc.stderr.on('data', onData);
        proc.on('exit', (code) => fail(new Error(`server exited with ${code}: ${output}`)));
      });
    },
    output: () => printed,
    kill() {
      const proc = child;
      return new Promise((done) => {
        if (!proc || proc.exitCode !== null || proc.signalCode !== null) done();
        else {
          proc.once('exit', () => done());
          proc.kill('SIGKILL');
        }
      });
    },
    dispose() {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      child = undefined;
      printed = '';
      if (bundle) rmSync(join(bundle, '..'), { recursive: true, force: true });
    },
  };
}

export { rpc };
export const balanceOf = async (url: string, key: string) =>
  BigInt((await rpc<{ value: number }>(url, 'getBalance', [key])).value);

export type ProcessUser = { email: string; jwt: string; walletId: string; wallet: string };

/** Signs `email` up through the development outbox (auth/email/init, then verify). */
export async function register(url: string, email: string): Promise<ProcessUser> {
  const init = await postApi(url, 'auth/email/init', { data: { email } });
  if (init.status !== 200) throw new Error(`auth/email/init answered ${init.status}`);
  const code = await readOutboxCode(url, email);
  const verified = await postApi(url, 'auth/email/verify', { data: { email, code } });
  if (verified.status !== 200) throw new Error(`auth/email/verify answered ${verified.status}`);
  const data = verified.body.user_data as {
    user_payment_wallet: string;
    user_payment_wallet_data: { wallet_id: string };
  };
  return {
    email,
    jwt: String(verified.body.jwt),
    walletId: data.user_payment_wallet_data.wallet_id,
    wallet: data.user_payment_wallet,
  };
}
