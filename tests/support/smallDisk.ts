import { spawn, spawnSync } from 'node:child_process';
import type { Launch } from './serverProcess';

/**
 * A small file system of its own for a data folder: a tmpfs of `sizeMb` mounted over `dir` in a
 * private mount namespace (`unshare -m`), held open by a sleeping process. Nothing outside the
 * namespace sees the mount (the host's `dir` stays an empty folder); a server started through
 * `launch` (nsenter into the namespace) writes its data there, and `sh` runs a command inside
 * (to fill the disk or free it). Needs root (CAP_SYS_ADMIN): without it the promise rejects with
 * a message that says so, and the test fails.
 */
export type SmallDisk = {
  launch: Launch;
  /** Runs a shell script inside the namespace (`$1` is the folder); its stdout. */
  sh(script: string): string;
  /** Kilobytes used and available on the mount. */
  usage(): { usedKb: number; availableKb: number };
  /** Ends the namespace: the mount and everything on it go. */
  stop(): void;
};

export function mountSmallDisk(dir: string, sizeMb: number): Promise<SmallDisk> {
  const holder = spawn(
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      'sh',
      '-c',
      `mount -t tmpfs -o size=${sizeMb}m smw-small-disk "$1" && echo mounted && exec sleep 3600`,
      'sh',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stop = () => {
    if (holder.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL');
  };
  const inside = (args: string[]) => {
    const run = spawnSync('nsenter', ['-t', String(holder.pid), '-m', '--', ...args], {
      encoding: 'utf8',
    });
    if (run.error) throw run.error;
    return run;
  };
  const disk: SmallDisk = {
    launch: (command, args) => ({
      command: 'nsenter',
      args: ['-t', String(holder.pid), '-m', '--', command, ...args],
    }),
    sh: (script) => inside(['sh', '-c', script, 'sh', dir]).stdout,
    usage() {
      const line = inside(['df', '-Pk', dir]).stdout.trim().split('\n').pop() ?? '';
      const [, , used = 'NaN', available = 'NaN'] = line.split(/\s+/);
      return { usedKb: Number(used), availableKb: Number(available) };
    },
    stop,
  };
  return new Promise((done, fail) => {
    let said = '';
    const failed = (why: string) =>
      fail(
        new Error(
          `full disk: cannot make a ${sizeMb} MB data folder (a tmpfs in a private mount namespace: unshare -m, mount -t tmpfs; run as root with CAP_SYS_ADMIN): ${why}`,
        ),
      );
    holder.stdout.on('data', (chunk: Buffer) => {
      if (String(chunk).includes('mounted')) done(disk);
    });
    holder.stderr.on('data', (chunk: Buffer) => (said += String(chunk)));
    holder.on('error', (error) => failed(error.message));
    holder.on('exit', (code) => failed(`exited ${code}: ${said.trim()}`));
  });
}
