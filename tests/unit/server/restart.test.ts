import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { postApi, registerUser, startTestServer } from '../../support/api';

/**
 * A graceful stop (server/app.ts close(), what SIGTERM runs in server/main.ts): new connections
 * are refused at once, every websocket is told 1001 (going away), a request in flight finishes
 * within the grace period (and is cut after it), and the SQLite WAL is checkpointed into the
 * database file before it closes.
 */
const dirs: string[] = [];
afterEach(() => {
  warnings.length = 0;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'smw-restart-'));
  dirs.push(dir);
  return dir;
};
/** The server's warnings (a cut request is one). */
const warnings: string[] = [];
const log = {
  info: () => {},
  warn: (message: string) => warnings.push(message),
  error: (message: string) => warnings.push(message),
};
const CUT = /requests still in flight after the grace period are cut/;
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

describe('graceful stop', () => {
  it('refuses new connections, closes sockets with 1001, finishes the request in flight, checkpoints', async () => {
    const dir = dataDir();
    let slow = false;
    const server = await startTestServer({
      dataDir: dir,
      log,
      closeGraceMs: 5_000,
      // A slow mail server: the sign-in request stays in flight for 1.5 s.
      mailer: async () => {
        if (slow) await sleep(1_500);
      },
    });
    const user = await registerUser(server.url, 'open-page@restart.test');
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`);
    const closed = new Promise<number>((done) => ws.on('close', (code) => done(code)));
    await new Promise((done) => ws.once('open', done));
    const welcome = new Promise((done) =>
      ws.on('message', (raw) => String(raw).includes('"welcome"') && done(undefined)),
    );
    ws.send(JSON.stringify({ type: 'auth', jwt: user.jwt, timestamp: Date.now() }));
    await welcome;

    slow = true;
    const inFlight = postApi(server.url, 'auth/email/init', {
      data: { email: 'in-flight@restart.test' },
    });
    await sleep(200);
    const stopAt = Date.now();
    const stopped = server.close();
    expect(await closed).toBe(1001);
    const socketClosedMs = Date.now() - stopAt;
    await sleep(50);
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
    const answer = await inFlight;
    const requestDoneMs = Date.now() - stopAt;
    expect(answer.status).toBe(200);
    await stopped;
    const stopMs = Date.now() - stopAt;
    console.log(
      `graceful stop: socket told 1001 after ${socketClosedMs} ms, request in flight answered 200 after ${requestDoneMs} ms, stopped after ${stopMs} ms`,
    );
    expect(warnings.filter((w) => CUT.test(w))).toEqual([]);
    const wal = join(dir, 'site.sqlite-wal');
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
  }, 20_000);

  it('cuts a request still in flight when the grace period is over', async () => {
    const server = await startTestServer({
      dataDir: dataDir(),
      log,
      closeGraceMs: 300,
      mailer: () => sleep(30_000),
    });
    // Its outcome is taken at once: the cut rejects it while close() still runs.
    const inFlight = postApi(server.url, 'auth/email/init', {
      data: { email: 'stuck@restart.test' },
    }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    await sleep(200);
    const stopAt = Date.now();
    await server.close();
    const stopMs = Date.now() - stopAt;
    console.log(`graceful stop: a stuck request cut after ${stopMs} ms (grace 300 ms)`);
    expect(await inFlight).toBeInstanceOf(Error);
    expect(warnings.filter((w) => CUT.test(w))).toHaveLength(1);
  }, 20_000);
});
