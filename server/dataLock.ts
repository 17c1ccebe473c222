import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * One data folder, one server: the SQLite file, the secrets and the in-process chain of a data
 * folder belong to one process. A server takes `DATA_DIR/server.lock` before it opens anything
 * there and removes it when it stops; a second server on the same folder refuses to start,
 * naming the folder and the process that holds it.
 *
 * The lock is taken atomically: the lock file is written whole under a name of its own, then
 * hard-linked to `server.lock`, which fails when that name exists (two servers starting at once:
 * one wins). A lock whose process is gone (a crash, SIGKILL, a power cut) is stale: the next
 * server on this machine removes it and takes the folder.
 */
export const LOCK_FILE = 'server.lock';

type LockHolder = { pid: number; host: string; startedAt: string };

export type DataLock = {
  readonly path: string;
  /** Removes the lock (only if it is still this process's). */
  release(): void;
};

class DataFolderLocked extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The data folder ${dataDir} is in use by another server (pid ${holder.pid} on ${holder.host}, started ${holder.startedAt}): one data folder serves one server. Stop that one first, or give this server a DATA_DIR of its own (its lock: ${join(dataDir, LOCK_FILE)}).`,
    );
    this.name = 'DataFolderLocked';
  }
}

function readHolder(path: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && Number.isInteger(parsed.pid) && parsed.pid > 0)
      return {
        pid: parsed.pid,
        host: typeof parsed.host === 'string' ? parsed.host : 'an unknown host',
        startedAt: typeof parsed.startedAt === 'string' ? parsed.startedAt : 'at an unknown time',
      };
  } catch {
    // Missing or unreadable: see the callers.
  }
  return undefined;
}

/**
 * Whether a process of this machine with that pid is running. A zombie (killed, its parent has
 * not collected it yet) has stopped: on Linux its state in /proc is Z.
 */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, owned by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

const sameHolder = (a: LockHolder | undefined, b: LockHolder | undefined): boolean =>
  a?.pid === b?.pid && a?.host === b?.host && a?.startedAt === b?.startedAt;

/**
 * Removes a stale lock by moving it aside (a rename: of several servers taking the same stale
 * lock, one moves it). A server that moved a lock other than the stale one it read (another
 * server took the folder meanwhile) puts it back; the next attempt then finds it live.
 */
function takeOver(path: string, aside: string, stale: LockHolder | undefined): void {
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!sameHolder(readHolder(aside), stale))
    try {
      linkSync(aside, path);
    } catch {
      // Taken by yet another server: the next attempt reads that one.
    }
  rmSync(aside, { force: true });
}

/**
 * Takes the data folder for this process or throws DataFolderLocked. A lock of another host
 * (a shared disk) is never taken over: whether its process lives cannot be known from here.
 */
export function lockDataFolder(dataDir: string): DataLock {
  const path = join(dataDir, LOCK_FILE);
  const mine: LockHolder = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
  };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const draft = join(dataDir, `${LOCK_FILE}.${process.pid}.tmp`);
  writeFileSync(draft, `${JSON.stringify(mine)}\n`, { mode: 0o644 });
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        linkSync(draft, path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readHolder(path);
      // A lock is linked whole, so one that cannot be read was torn by a crash of the machine;
      // one naming this very pid was left by an earlier life of it (a container's pid 1).
      const stale =
        holder === undefined ||
        (holder.host === mine.host && (holder.pid === process.pid || !isRunning(holder.pid)));
      if (!stale || attempt >= 3)
        throw new DataFolderLocked(
          dataDir,
          holder ?? { pid: 0, host: mine.host, startedAt: 'at an unknown time' },
        );
      takeOver(path, join(dataDir, `${LOCK_FILE}.${process.pid}.stale`), holder);
    }
  } finally {
    rmSync(draft, { force: true });
  }
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true });
    },
  };
}
