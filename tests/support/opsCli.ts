import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './serverProcess';
import { storeEnv } from './testStore';

export type CliRun = {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
};

/**
 * Runs one of the studio's commands (`server/ops/<name>.ts`) as npm does (through tsx) in its
 * own process, with `env` over the test's environment (and the store of `env.DATA_DIR` on
 * the run's engine). `onStdout` sees the output as it comes
 * (a test may kill the process from there).
 */
export async function runOps(
  name: string,
  args: string[],
  env: Record<string, string>,
  onStdout?: (soFar: string, child: ChildProcess) => void,
): Promise<CliRun> {
  const store = await storeEnv(env.DATA_DIR);
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `server/ops/${name}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...store, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      onStdout?.(out, child);
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code, signal) => done({ code, signal, out, err }));
  });
}
