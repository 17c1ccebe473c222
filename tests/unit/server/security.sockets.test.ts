import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import {
  CHAT_LIMIT,
  MAX_SOCKET_SEND_BUFFER_BYTES,
  PRESENCE_TICK_MS,
  PRODUCTION_RATE_LIMITS,
} from '../../../server/limits';
import type { RunningServer } from '../../../server/app';
import { postApi, registerUser } from '../../support/api';
import { serversClosedAfterEach } from '../../support/servers';
import { peer, type Peer } from '../../support/sockets';
import { until } from '../../support/until';

/**
 * The websocket rooms under abuse, over real sockets: caps per IP and per owner, the chat limit
 * per user across sockets, and presence that stays linear in a join storm. One line each,
 * `security: what — tried / got through` (0 got through), and the load line.
 */
const figure = (what: string, tried: number, through: number) =>
  console.log(`security: ${what} — ${tried} tried / ${through} got through`);

const start = serversClosedAfterEach();

const guestSession = async (server: RunningServer): Promise<string> =>
  String(
    (await postApi(server.url, 'sess/create', { data: { language: 'en', user_agent: 'swarm' } }))
      .body.sessionToken,
  );
/** A guest socket, or null when the server refused it (429 at the upgrade, or closed at auth). */
async function tryGuest(
  server: RunningServer,
  session: string,
  localAddress?: string,
): Promise<Peer | null> {
  try {
    const p = await peer(server, { session }, localAddress ? { localAddress } : {});
    return p.frames.some((f) => f.type === 'welcome') ? p : null;
  } catch {
    return null;
  }
}

describe('socket caps', () => {
  it('one IP opens at most its cap of guest sockets, one visitor session at most its own', async () => {
    const { socketsPerIp, socketsPerOwner } = PRODUCTION_RATE_LIMITS;
    const server = await start({ rateLimits: PRODUCTION_RATE_LIMITS });
    const open: Peer[] = [];
    // Many sessions from one address, each within its own cap: the address's cap holds.
    const sessions = Math.ceil((socketsPerIp + 20) / socketsPerOwner);
    let tried = 0;
    for (let s = 0; s < sessions; s += 1) {
      const session = await guestSession(server);
      for (let i = 0; i < socketsPerOwner; i += 1) {
        tried += 1;
        const p = await tryGuest(server, session);
        if (p) open.push(p);
      }
    }
    const throughIp = Math.max(0, open.length - socketsPerIp);
    figure(
      `guest sockets beyond the per-IP cap (${socketsPerIp})`,
      tried - socketsPerIp,
      throughIp,
    );
    // One session from another address: its own cap holds, the first address's does not matter.
    const session = await guestSession(server);
    const own: Peer[] = [];
    for (let i = 0; i < socketsPerOwner + 10; i += 1) {
      const p = await tryGuest(server, session, '127.0.0.2');
      if (p) own.push(p);
    }
    const throughOwner = Math.max(0, own.length - socketsPerOwner);
    figure(`guest sockets beyond the per-session cap (${socketsPerOwner})`, 10, throughOwner);
    expect([throughIp, throughOwner]).toEqual([0, 0]);
    expect(open.length).toBe(socketsPerIp);
    expect(own.length).toBe(socketsPerOwner);
    // Closing sockets frees their places.
    for (const p of open.splice(0, 5)) p.ws.close();
    await until(
      () => server.ctx.services.realtime!.stats().connections <= socketsPerIp + socketsPerOwner - 5,
    );
    expect(await tryGuest(server, await guestSession(server))).not.toBeNull();
    for (const p of [...open, ...own]) p.ws.terminate();
  });
});

describe('chat limit per user', () => {
  it(`counts ${CHAT_LIMIT.max} messages per ${CHAT_LIMIT.windowMs / 1000} s per user across 20 sockets`, async () => {
    const server = await start();
    const flooder = await registerUser(server.url, 'many-sockets@site.test');
    const reader = await registerUser(server.url, 'reader@site.test');
    const sockets = await Promise.all(
      Array.from({ length: 20 }, () => peer(server, { jwt: flooder.jwt })),
    );
    const listener = await peer(server, { jwt: reader.jwt });
    for (const p of [...sockets, listener])
      p.ws.send(JSON.stringify({ type: 'join', room: 'chat', timestamp: 1 }));
    await until(() =>
      [...sockets, listener].every((p) => p.frames.some((f) => f.type === 'joined')),
    );
    let tried = 0;
    for (const p of sockets)
      for (let i = 0; i < 5; i += 1) {
        tried += 1;
        p.ws.send(JSON.stringify({ type: 'message', room: 'chat', message: 'x', timestamp: 1 }));
      }
    // A ping answered after every socket's messages is the barrier.
    for (const p of sockets) p.ws.send(JSON.stringify({ type: 'ping', timestamp: 2 }));
    await until(() => sockets.every((p) => p.frames.some((f) => f.type === 'pong')));
    listener.ws.send(JSON.stringify({ type: 'ping', timestamp: 2 }));
    await until(() => listener.frames.some((f) => f.type === 'pong'));
    const delivered = listener.frames.filter((f) => f.type === 'room_message').length;
    const through = Math.max(0, delivered - CHAT_LIMIT.max);
    figure(`chat messages beyond ${CHAT_LIMIT.max} per 10 s per user (20 sockets)`, tried, through);
    expect(delivered).toBe(CHAT_LIMIT.max);
    for (const p of [...sockets, listener]) p.ws.terminate();
  });
});

describe('presence in a join storm', () => {
  it('2000 sockets join one room: linear frames, the API keeps answering', async () => {
    const server = await start();
    const session = await guestSession(server);
    const count = 2_000;
    const timings: number[] = [];
    let storming = true;
    const probe = (async () => {
      while (storming) {
        const t0 = performance.now();
        await (await fetch(`${server.url}/api/health`)).text();
        timings.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const worker = new Worker(new URL('../../support/socketSwarm.mjs', import.meta.url), {
      workerData: {
        url: `${server.url.replace(/^http/, 'ws')}/ws`,
        session,
        count,
        room: 'chat',
        concurrency: 50,
      },
    });
    const message = (type: string) =>
      new Promise<{ sockets?: number; frames?: number }>((done, fail) => {
        const on = (m: { type: string; sockets?: number; frames?: number }) => {
          if (m.type !== type) return;
          worker.off('message', on);
          done(m);
        };
        worker.on('message', on);
        worker.once('error', fail);
      });
    const joined = await message('joined');
    expect(joined.sockets).toBe(count);
    // The last presence update goes out within a tick of the last join.
    await new Promise((r) => setTimeout(r, PRESENCE_TICK_MS * 2));
    storming = false;
    await probe;
    worker.postMessage('count');
    const { frames = 0 } = await message('frames');
    worker.postMessage('close');
    await message('closed');
    await worker.terminate();
    timings.sort((a, b) => a - b);
    const p99 = timings[Math.min(timings.length - 1, Math.floor(timings.length * 0.99))] ?? 0;
    console.log(
      `load: ${count} sockets join one room — /api/health p99 ${p99.toFixed(1)} ms, frames sent ${frames} (${timings.length} health requests)`,
    );
    expect(server.ctx.services.realtime!.stats().rooms.chat ?? 0).toBeLessThanOrEqual(count);
    expect(frames).toBeLessThan(10 * count);
  });
});

describe('slow readers', () => {
  it(`a socket that stops reading is dropped once ${MAX_SOCKET_SEND_BUFFER_BYTES / 1024 / 1024} MB wait for it`, async () => {
    const server = await start();
    const slow = await tryGuest(server, await guestSession(server));
    expect(slow).not.toBeNull();
    slow!.ws.send(JSON.stringify({ type: 'join', room: 'chat', timestamp: 1 }));
    await until(() => slow!.frames.some((f) => f.type === 'joined'));
    // The reader stops reading: its kernel buffers fill, then the server's send buffer grows.
    const raw = (slow!.ws as unknown as { _socket: { pause(): void } })._socket;
    raw.pause();
    const writers = await Promise.all(
      Array.from({ length: 80 }, async (_, i) => {
        const user = await registerUser(server.url, `writer${i}@site.test`);
        const p = await peer(server, { jwt: user.jwt });
        p.ws.send(JSON.stringify({ type: 'join', room: 'chat', timestamp: 1 }));
        await until(() => p.frames.some((f) => f.type === 'joined'));
        return p;
      }),
    );
    const big = 'x'.repeat(15_000);
    let sentBytes = 0;
    for (const w of writers)
      for (let i = 0; i < CHAT_LIMIT.max; i += 1) {
        w.ws.send(JSON.stringify({ type: 'message', room: 'chat', message: big, timestamp: 1 }));
        sentBytes += big.length;
      }
    const dropped = async () =>
      !Object.keys(server.ctx.services.realtime!.stats().socketsByUser).includes('guest');
    let gone = false;
    const end = Date.now() + 10_000;
    while (!gone && Date.now() < end) {
      gone = await dropped();
      await new Promise((r) => setTimeout(r, 50));
    }
    console.log(
      `security: slow readers kept past the send buffer — 1 tried / ${gone ? 0 : 1} got through (${(sentBytes / 1e6).toFixed(1)} MB sent to it)`,
    );
    expect(gone).toBe(true);
    for (const w of writers) w.ws.terminate();
    slow!.ws.terminate();
  });
});

describe('broadcast to a full room', () => {
  it('one chat message reaches 10,000 sockets (two client processes)', async () => {
    const server = await start();
    const perProcess = 5_000;
    const writer = await registerUser(server.url, 'announcer@site.test');
    const swarms = await Promise.all(
      [0, 1].map(async () => {
        const child = fork(
          fileURLToPath(new URL('../../support/socketSwarm.mjs', import.meta.url)),
          [
            JSON.stringify({
              url: `${server.url.replace(/^http/, 'ws')}/ws`,
              session: await guestSession(server),
              count: perProcess,
              room: 'chat',
              concurrency: 50,
            }),
          ],
          { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
        );
        return child;
      }),
    );
    // `closed` is the swarm's last word: it exits right after, and a busy parent may see the exit
    // before the message, so a clean exit answers `closed` too.
    const reply = <T>(child: ChildProcess, type: string) =>
      new Promise<T>((done, fail) => {
        const on = (m: { type: string }) => {
          if (m.type !== type) return;
          child.off('message', on);
          done(m as T);
        };
        child.on('message', on);
        child.once('exit', (code) =>
          type === 'closed' && code === 0
            ? done({ type } as T)
            : fail(new Error(`swarm exited ${code} before '${type}'`)),
        );
      });
    const joined = await Promise.all(swarms.map((c) => reply<{ sockets: number }>(c, 'joined')));
    expect(joined.map((j) => j.sockets)).toEqual([perProcess, perProcess]);
    const source = await peer(server, { jwt: writer.jwt });
    source.ws.send(JSON.stringify({ type: 'join', room: 'chat', timestamp: 1 }));
    await until(() => source.frames.some((f) => f.type === 'joined'));
    // Presence from the joins has gone out before the measured message.
    await new Promise((r) => setTimeout(r, PRESENCE_TICK_MS * 2));
    const sentAt = Date.now();
    source.ws.send(JSON.stringify({ type: 'message', room: 'chat', message: 'all', timestamp: 1 }));
    await until(() => source.frames.some((f) => f.type === 'room_message'), 10_000);
    await new Promise((r) => setTimeout(r, 2_000));
    const times: number[] = [];
    for (const c of swarms) {
      c.send('times');
      times.push(...(await reply<{ times: number[] }>(c, 'times')).times);
    }
    for (const c of swarms) {
      c.send('close');
      await reply(c, 'closed');
    }
    source.ws.terminate();
    const delays = times.map((t) => t - sentAt).sort((a, b) => a - b);
    const median = delays[Math.floor(delays.length / 2)] ?? 0;
    console.log(
      `load: broadcast to ${delays.length} sockets — median ${median} ms, last ${delays.at(-1) ?? 0} ms`,
    );
    expect(delays.length).toBe(2 * perProcess);
  }, 180_000);
});
