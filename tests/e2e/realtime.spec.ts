import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, WebSocketRoute } from '@playwright/test';
import { MAX_FRAME_BYTES } from '../../contract/realtime';
import { REALTIME_NOTICES } from '../../server/realtime/plugin';
import type { RealtimeStats } from '../../server/realtime/rooms';
import { registerUser, type RegisteredUser } from '../support/api';
import { expect, test } from '../support/e2e';
import { ROOT, type RunningServer, type StartOptions } from '../support/local-server';

/**
 * The realtime connection in Chromium against the real local server (§4 Realtime connection,
 * §7 Realtime, §8 Realtime server error): banners pushed through the socket, reconnects after
 * server restarts with every room joined again, the 120 s stale limit, logout, and hostile frames.
 */

// Sorted: the rooms the client joins (notifications, chat, updates), as openRooms() lists them.
const ROOMS = ['chat', 'notifications', 'updates'];
const status = (page: Page) => page.getByTestId('connection-status');
const banner = (page: Page) => page.getByTestId('info-banner');

async function stats(server: { url: string }): Promise<RealtimeStats> {
  // A kept-alive connection may still point at the stopped server on the same port: retry once.
  const read = () => fetch(`${server.url}/api/dev/realtime`, { headers: { connection: 'close' } });
  const response = await read().catch(() => read());
  return (await response.json()) as RealtimeStats;
}

/** Rooms joined on the open sockets of the server, sorted. */
async function openRooms(server: { url: string }): Promise<string[]> {
  return Object.keys((await stats(server)).rooms).sort();
}

/** Stores the tokens a signed-in browser keeps (§3 storage keys), then opens the home page. */
async function openSignedIn(page: Page, server: { url: string }, user: RegisteredUser) {
  await page.addInitScript(
    (tokens) => {
      if (sessionStorage.getItem('e2e-tokens-set')) return;
      sessionStorage.setItem('e2e-tokens-set', '1');
      localStorage.setItem('jwt', tokens.jwt);
      localStorage.setItem('refreshToken', tokens.refreshToken);
      localStorage.setItem('sessionToken', tokens.sessionToken);
    },
    { jwt: user.jwt, refreshToken: user.refreshToken, sessionToken: user.sessionToken },
  );
  await page.goto(`${server.url}/`);
}

async function signedInPlayer(page: Page, server: RunningServer, email: string) {
  const user = await registerUser(server.url, email);
  await openSignedIn(page, server, user);
  // Signed in and loaded: no page request is in flight when a test stops the server.
  await expect(page.getByRole('button', { name: 'Exit' })).toBeVisible({ timeout: 10_000 });
  await page.waitForLoadState('networkidle');
  await expect.poll(() => openRooms(server), { timeout: 10_000 }).toEqual(ROOMS);
  await expect(status(page)).toHaveAttribute('data-state', 'connected');
  return user;
}

/** A server on a fixed port and data folder that can be stopped and started again. */
function restartable(freshServer: (opts?: Partial<StartOptions>) => Promise<RunningServer>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'smw-realtime-e2e-'));
  let current: RunningServer | null = null;
  let port = 0;
  return {
    async start() {
      current = await freshServer({ port, dataDir });
      port = current.port;
      return current;
    },
    async stop() {
      await current?.close();
    },
    get url() {
      return current?.url ?? '';
    },
    cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The site build the global setup made for this run (it sets E2E_SITE_DIR for the workers). */
const siteDir = () => process.env.E2E_SITE_DIR ?? join(ROOT, '.local/e2e-site');

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', () => done()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

/** The local server as its own process (`server/main.ts`), so a test can SIGKILL it. */
function serverProcess(port: number, dataDir: string) {
  let child: ChildProcess | null = null;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async start() {
      // One process (node with the tsx loader), so SIGKILL ends the server itself.
      child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          SERVER_MODE: 'development',
          PORT: String(port),
          DATA_DIR: dataDir,
          SITE_DIR: siteDir(),
        },
        stdio: 'ignore',
      });
      await expect
        .poll(
          () =>
            fetch(`${url}/api/health`).then(
              (r) => r.status,
              () => 0,
            ),
          {
            timeout: 30_000,
          },
        )
        .toBe(200);
    },
    kill() {
      child?.kill('SIGKILL');
    },
    /** SIGTERM (what a platform sends on a deploy): resolves with the process's exit code. */
    terminate(): Promise<number | null> {
      const proc = child;
      return new Promise((done) => {
        if (!proc || proc.exitCode !== null) return done(proc?.exitCode ?? null);
        proc.once('exit', (code) => done(code));
        proc.kill('SIGTERM');
      });
    },
  };
}

/**
 * The server as its own process on a data folder of its own, and `page` signed in to it with
 * every room open. While the server is down the browser reports each refused attempt itself.
 */
async function signedInUnderProcess(
  page: Page,
  allowConsoleErrors: (pattern: RegExp | string) => void,
  tag: string,
) {
  allowConsoleErrors(/WebSocket connection to .* failed/);
  allowConsoleErrors(/ERR_CONNECTION_REFUSED/);
  const dataDir = mkdtempSync(join(tmpdir(), `smw-realtime-${tag}-`));
  const server = serverProcess(await freePort(), dataDir);
  const dispose = () => {
    server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await server.start();
    const user = await registerUser(server.url, `${tag}@example.com`);
    await openSignedIn(page, server, user);
    await expect(page.getByRole('button', { name: 'Exit' })).toBeVisible({ timeout: 10_000 });
    await page.waitForLoadState('networkidle');
    await expect.poll(() => openRooms(server), { timeout: 10_000 }).toEqual(ROOMS);
  } catch (error) {
    dispose();
    throw error;
  }
  return { server, dispose };
}

/**
 * Moves the page's clock through the 5 reconnect attempts (1, 2, 4, 8, 16 s) while every attempt
 * fails, until the page rests with 'Live updates disconnected'.
 */
async function spendAttempts(page: Page) {
  await expect
    .poll(
      async () => {
        await page.clock.runFor(4_000);
        return status(page).getAttribute('data-state');
      },
      { timeout: 30_000, intervals: [250] },
    )
    .toBe('error');
}

/**
 * A signed-in page whose server stops: the page's timers are moved by the test (the 31 s of
 * backoff in seconds) until the 5 attempts are spent and the page rests.
 */
async function downUntilSpent(
  page: Page,
  server: ReturnType<typeof restartable>,
  allowConsoleErrors: (pattern: RegExp | string) => void,
  email: string,
) {
  allowConsoleErrors(/WebSocket connection to .* failed/);
  allowConsoleErrors(/Failed to load resource: net::ERR_CONNECTION_REFUSED/);
  await signedInPlayer(page, await server.start(), email);
  await page.clock.install();
  await server.stop();
  await spendAttempts(page);
}

/** Width × height of the connection status's box as drawn (0 when not in the page). */
async function drawnSize(page: Page): Promise<number> {
  const box = await status(page).boundingBox();
  return box ? box.width * box.height : 0;
}

type Overlap = { control: string; at: number };

/** The top of the page with the strip, kept for review under test-results/screenshots/. */
async function shootStrip(page: Page, when: string) {
  const dir = join(ROOT, 'test-results/screenshots');
  mkdirSync(dir, { recursive: true });
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 };
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(dir, `connection-${when}-${width}x${height}.png`) });
}

/**
 * On the Get Ticket and Invite tabs, scrolled from the top to the bottom by half a screen: the
 * connection's strip shares no pixel with any visible control (button, link, field, tab).
 */
async function expectClearOfControls(page: Page, when: string) {
  for (const tab of ['Get Ticket', 'Invite']) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('tab', { name: tab }).click();
    const overlaps = await page.evaluate(() => {
      const strip = document.querySelector('[data-testid="connection-status"]');
      if (!strip) return [{ control: 'no connection status', at: 0 }];
      const found: Overlap[] = [];
      const controls = [
        ...document.querySelectorAll<HTMLElement>(
          'button, a[href], input, select, textarea, [role="tab"], [role="button"]',
        ),
      ].filter((el) => !strip.contains(el));
      const height = document.documentElement.scrollHeight;
      for (let y = 0; y <= height; y += Math.max(1, Math.floor(window.innerHeight / 2))) {
        window.scrollTo({ top: y, behavior: 'instant' });
        const s = strip.getBoundingClientRect();
        for (const el of controls) {
          const r = el.getBoundingClientRect();
          const shown =
            r.width > 0 &&
            r.height > 0 &&
            getComputedStyle(el).visibility !== 'hidden' &&
            r.bottom > 0 &&
            r.top < window.innerHeight;
          const meets =
            r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
          if (shown && meets)
            found.push({ control: el.textContent?.trim() || el.tagName, at: window.scrollY });
        }
      }
      return found;
    });
    const box = await status(page).boundingBox();
    expect(box?.height ?? 0, `${when}: the strip is drawn`).toBeGreaterThan(10);
    if (tab === 'Get Ticket') await shootStrip(page, when);
    expect(overlaps, `${when}, ${tab} tab: controls under the connection's state`).toEqual([]);
  }
}

test.describe('realtime', () => {
  test('an invitee registering with the invite code shows a banner through the socket', async ({
    page,
    freshServer,
  }) => {
    const server = await freshServer();
    const inviter = await signedInPlayer(page, server, 'boss@example.com');
    await registerUser(server.url, 'friend@example.com', inviter.userData.user_invite_code);
    await expect(banner(page)).toHaveText(REALTIME_NOTICES.inviteRegistered);
  });

  test('a granted access pushed by the server shows a banner', async ({ page, freshServer }) => {
    const server = await freshServer();
    await signedInPlayer(page, server, 'granted@example.com');
    const userId = (await stats(server)).joins[0]?.userId;
    expect(typeof userId).toBe('number');
    server.events.emit('access.granted', { userId: userId as number, via: 'ticket' });
    await expect(banner(page)).toHaveText(REALTIME_NOTICES.accessGranted);
  });

  test('after a server restart on the same port the client reconnects and rejoins its rooms [§4.realtime.rejoin]', async ({
    page,
    freshServer,
  }) => {
    const server = restartable(freshServer);
    try {
      const first = await server.start();
      await signedInPlayer(page, first, 'restart@example.com');
      // The page has fetched every chunk it loads after sign-in: the restart tests the socket,
      // not a script download cut off halfway.
      await page.waitForLoadState('networkidle');
      await server.stop();
      await expect(status(page)).toHaveAttribute('data-state', 'connecting');
      // A strip with words at the top of the page, in room the page keeps free for it.
      const roomAbove = () =>
        page.evaluate(() => parseFloat(getComputedStyle(document.body).paddingTop));
      expect(await roomAbove()).toBeGreaterThanOrEqual(
        (await status(page).boundingBox())?.height ?? Infinity,
      );
      const restartedAt = Date.now();
      const second = await server.start();
      await expect.poll(() => openRooms(second), { timeout: 10_000 }).toEqual(ROOMS);
      // The first attempt waits 1 s; the server was back before it, so one attempt suffices.
      expect(Date.now() - restartedAt).toBeLessThan(5_000);
      await expect(status(page)).toHaveAttribute('data-state', 'connected');
      await expect.poll(roomAbove).toBe(0);
      expect((await stats(second)).connections).toBe(1);
    } finally {
      server.cleanup();
    }
  });

  test('after the server process is killed and restarted the client reconnects within the schedule', async ({
    page,
    allowConsoleErrors,
  }) => {
    test.setTimeout(90_000);
    const { server, dispose } = await signedInUnderProcess(page, allowConsoleErrors, 'killed');
    try {
      const killedAt = Date.now();
      server.kill();
      await expect(status(page)).toHaveAttribute('data-state', 'connecting');
      await server.start();
      // 5 attempts wait 1 + 2 + 4 + 8 + 16 = 31 s in all: the client is back before they run out.
      await expect.poll(() => openRooms(server), { timeout: 31_000 }).toEqual(ROOMS);
      expect(Date.now() - killedAt).toBeLessThan(31_000 + 5_000);
      await expect(status(page)).toHaveAttribute('data-state', 'connected');
      expect((await stats(server)).connections).toBe(1);
    } finally {
      dispose();
    }
  });

  test('a SIGTERM restart of the server process: the open signed-in page reconnects without a reload', async ({
    page,
    allowConsoleErrors,
  }) => {
    test.setTimeout(90_000);
    const { server, dispose } = await signedInUnderProcess(page, allowConsoleErrors, 'sigterm');
    try {
      // A mark on this document: a reload would lose it.
      await page.evaluate(() => Object.assign(window, { smwBeforeRestart: 'same document' }));
      // The server stops gracefully: sockets told 1001, database checkpointed, exit code 0.
      expect(await server.terminate()).toBe(0);
      await expect(status(page)).toHaveAttribute('data-state', 'connecting');
      const restartedAt = Date.now();
      await server.start();
      await expect.poll(() => openRooms(server), { timeout: 31_000 }).toEqual(ROOMS);
      console.log(
        `sigterm restart: page connected again ${Date.now() - restartedAt} ms after the new server answered`,
      );
      await expect(status(page)).toHaveAttribute('data-state', 'connected');
      expect(
        await page.evaluate(() => (window as { smwBeforeRestart?: string }).smwBeforeRestart),
      ).toBe('same document');
      await expect(page.getByRole('button', { name: 'Exit' })).toBeVisible();
      expect((await stats(server)).connections).toBe(1);
    } finally {
      dispose();
    }
  });

  test('20 stop/start cycles in a row lose no room and leave exactly one open socket', async ({
    page,
    freshServer,
    allowConsoleErrors,
  }) => {
    test.setTimeout(180_000);
    // The server stops 20 times under the page: a request or a chunk in flight at that moment
    // fails, and the browser reports it itself.
    allowConsoleErrors(
      /Failed to load resource: net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|SOCKET_NOT_CONNECTED|INCOMPLETE_CHUNKED_ENCODING|EMPTY_RESPONSE)/,
    );
    allowConsoleErrors(/WebSocket connection to .* failed/);
    const server = restartable(freshServer);
    // Every socket the page opens is kept, to know when none is still connecting; the page clock
    // (installed once the page has loaded, running as usual) lets the test fire every pending
    // timer at the end.
    await page.addInitScript(() => {
      const Native = window.WebSocket;
      const sockets: WebSocket[] = [];
      (window as unknown as { __sockets: WebSocket[] }).__sockets = sockets;
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          sockets.push(this);
        }
      };
    });
    try {
      await signedInPlayer(page, await server.start(), 'cycles@example.com');
      await page.clock.install();
      for (let cycle = 0; cycle < 20; cycle += 1) {
        await server.stop();
        const next = await server.start();
        await expect.poll(() => openRooms(next), { timeout: 10_000 }).toEqual(ROOMS);
        const s = await stats(next);
        expect(s.connections).toBe(1);
        expect(Object.values(s.rooms)).toEqual([1, 1, 1]);
      }
      // Every reconnect timer still pending (backoff is capped at 30 s) fires now, and the test
      // waits until no socket of the page is still connecting: a second socket would be open.
      await page.clock.runFor(31_000);
      await page.waitForFunction(() =>
        (window as unknown as { __sockets: WebSocket[] }).__sockets.every(
          (socket) => socket.readyState !== WebSocket.CONNECTING,
        ),
      );
      const s = await stats({ url: server.url });
      expect(s.connections).toBe(1);
      expect(s.joins.map((j) => j.room).sort()).toEqual(ROOMS);
      await expect(status(page)).toHaveAttribute('data-state', 'connected');
    } finally {
      server.cleanup();
    }
  });

  test('a server that stops answering pings is unhealthy at 60 s and replaced after 120 s [§4.realtime.stale]', async ({
    page,
    freshServer,
  }) => {
    const server = await freshServer();
    const user = await registerUser(server.url, 'silent@example.com');
    const sockets: WebSocketRoute[] = [];
    const forwarded: string[] = [];
    let pongs = true;
    await page.routeWebSocket(/\/ws$/, (ws) => {
      sockets.push(ws);
      const upstream = ws.connectToServer();
      upstream.onMessage((message) => {
        const text = typeof message === 'string' ? message : message.toString();
        if (!pongs && text.includes('"pong"')) return;
        forwarded.push(text);
        ws.send(message);
      });
    });
    await page.clock.install();
    await openSignedIn(page, server, user);
    await expect.poll(() => openRooms(server), { timeout: 10_000 }).toEqual(ROOMS);
    // The last frames of the joins (one room_update per room) have reached the page: from here
    // on the server says nothing but pongs, which are dropped.
    await expect.poll(() => forwarded.filter((t) => t.includes('room_update')).length).toBe(3);
    await expect(status(page)).toHaveAttribute('data-state', 'connected');
    pongs = false;
    await page.clock.runFor(60_000);
    await expect(status(page)).toContainText('weak connection');
    expect(sockets).toHaveLength(1);
    await page.clock.runFor(60_000);
    await expect(status(page)).toHaveAttribute('data-state', 'connecting');
    await page.clock.runFor(1_000);
    await expect.poll(() => sockets.length).toBe(2);
    pongs = true;
    await expect(status(page)).toHaveAttribute('data-state', 'connected');
  });

  test('a server error message shows a banner with its text or the default [§8.realtime.error]', async ({
    page,
    freshServer,
  }) => {
    const server = await freshServer();
    const user = await registerUser(server.url, 'errors@example.com');
    let socket: WebSocketRoute | null = null;
    await page.routeWebSocket(/\/ws$/, (ws) => {
      socket = ws;
      ws.connectToServer();
    });
    await openSignedIn(page, server, user);
    await expect(status(page)).toHaveAttribute('data-state', 'connected');
    const send = (frame: object) => (socket as WebSocketRoute | null)?.send(JSON.stringify(frame));
    send({ type: 'error', message: 'Room is full', timestamp: Date.now() });
    await expect(banner(page)).toHaveText('Room is full');
    await banner(page).click();
    send({ type: 'error', timestamp: Date.now() });
    await expect(banner(page)).toHaveText('WebSocket error occurred');
  });

  test('logout closes the socket and no reconnect follows', async ({ page, freshServer }) => {
    const server = await freshServer();
    await signedInPlayer(page, server, 'leaving@example.com');
    // The page's clock stops here and is moved by hand: no real waiting for the backoff.
    await page.clock.install();
    const joinsBefore = (await stats(server)).joins.length;
    await page.getByRole('button', { name: 'Exit' }).click();
    await expect.poll(async () => (await stats(server)).connections).toBe(0);
    await expect(status(page)).toHaveCount(0);
    // Past every backoff delay up to the 30 s cap (1 + 2 + 4 + 8 + 16 + 30 s): still nothing.
    await page.clock.runFor(61_000);
    await expect(status(page)).toHaveCount(0);
    const after = await stats(server);
    expect(after.connections).toBe(0);
    expect(after.joins.length).toBe(joinsBefore);
  });

  test('malformed frames, unknown types and oversized messages are ignored with a log', async ({
    page,
    freshServer,
  }) => {
    const server = await freshServer();
    const user = await registerUser(server.url, 'hostile@example.com');
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await page.routeWebSocket(/\/ws$/, (ws) => {
      ws.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { type: string; room?: string };
        if (frame.type === 'auth') {
          ws.send('{"type":"welcome"');
          ws.send(JSON.stringify({ type: 'welcome', timestamp: 1 }));
          return;
        }
        if (frame.type === 'join' && frame.room === 'updates') {
          ws.send('not json at all');
          ws.send(JSON.stringify(['an', 'array']));
          ws.send(JSON.stringify({ type: 'teleport', room: 'chat' }));
          ws.send(JSON.stringify({ type: 'room_message', room: 42 }));
          ws.send(
            JSON.stringify({
              type: 'room_message',
              room: 'notifications',
              data: { type: 'info', text: 'x'.repeat(MAX_FRAME_BYTES) },
            }),
          );
          ws.send(Buffer.from([0xde, 0xad, 0xbe, 0xef]));
          ws.send(
            JSON.stringify({
              type: 'room_message',
              room: 'notifications',
              message: 'n',
              data: { type: 'warning', text: 'Still standing' },
              timestamp: 2,
            }),
          );
        }
      });
    });
    await openSignedIn(page, server, user);
    await expect(banner(page)).toHaveText('Still standing');
    await expect(status(page)).toHaveAttribute('data-state', 'connected');
    expect(warnings.filter((w) => w.includes('[realtime] ignored')).length).toBe(7);
  });

  test('after the 5 attempts are spent the page returns to live updates on its own, with no click', async ({
    page,
    freshServer,
    allowConsoleErrors,
  }) => {
    const server = restartable(freshServer);
    try {
      await downUntilSpent(page, server, allowConsoleErrors, 'recovers@example.com');
      await expect(status(page)).toContainText('Live updates disconnected');
      await expect(status(page).getByRole('button', { name: 'Reconnect' })).toBeVisible();
      const second = await server.start();
      // The rest between rounds (30 s while the tab is visible) ends in a fresh round.
      await page.clock.runFor(30_000);
      await expect.poll(() => openRooms(second), { timeout: 10_000 }).toEqual(ROOMS);
      await expect(status(page)).toHaveAttribute('data-state', 'connected');
      expect(await drawnSize(page), 'live again: nothing drawn').toBeLessThanOrEqual(1);
      expect((await stats(second)).connections).toBe(1);
    } finally {
      server.cleanup();
    }
  });

  test('a hidden tab does not retry on the timer; it starts a fresh round when it is shown again', async ({
    page,
    freshServer,
    allowConsoleErrors,
  }) => {
    const server = restartable(freshServer);
    // The tab's visibility as the page reads it (a headless tab is always visible).
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate((value) => {
        Object.defineProperty(document, 'visibilityState', { value, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
    try {
      await downUntilSpent(page, server, allowConsoleErrors, 'hidden-tab@example.com');
      await setVisibility('hidden');
      const second = await server.start();
      // Well past the rest: a hidden tab makes no attempt.
      await page.clock.runFor(90_000);
      expect((await stats(second)).connections).toBe(0);
      await expect(status(page)).toHaveAttribute('data-state', 'error');
      await setVisibility('visible');
      await expect.poll(() => openRooms(second), { timeout: 10_000 }).toEqual(ROOMS);
      await expect(status(page)).toHaveAttribute('data-state', 'connected');
    } finally {
      server.cleanup();
    }
  });

  for (const size of [
    { width: 360, height: 740 },
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ])
    test(`at ${size.width}×${size.height} the connection's state never covers a control, at any scroll`, async ({
      page,
      freshServer,
    }) => {
      await page.setViewportSize(size);
      const server = await freshServer();
      const user = await registerUser(server.url, `strip-${size.width}@example.com`);
      // Every socket of the page goes through the test: live until `drop`, then each new one
      // is closed at once, as a server that went away would.
      let drop = false;
      const live: WebSocketRoute[] = [];
      await page.routeWebSocket(/\/ws$/, (ws) => {
        if (drop) return void ws.close({ code: 1001, reason: 'going away' });
        live.push(ws);
        ws.connectToServer();
      });
      await page.clock.install();
      await openSignedIn(page, server, user);
      await expect(status(page)).toHaveAttribute('data-state', 'connected', { timeout: 10_000 });
      // Healthy: nothing drawn (the status is there for screen readers only).
      expect(await drawnSize(page)).toBeLessThanOrEqual(1);
      drop = true;
      for (const ws of live) await ws.close({ code: 1001, reason: 'going away' });
      await expect(status(page)).toContainText('Reconnecting (attempt 1 of 5)');
      // The clock stands still: the attempt's text stays while every screen is checked.
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
      await expect(status(page)).toContainText(/Reconnecting \(attempt \d of 5\)/);
      await expectClearOfControls(page, 'reconnecting');
      await spendAttempts(page);
      await expect(status(page)).toContainText('Live updates disconnected');
      await expectClearOfControls(page, 'disconnected');
      // The page goes before its server: a request of the Invite tab (the clock was moved by
      // tens of seconds) must not meet a server already stopped.
      await page.close();
    });
});
