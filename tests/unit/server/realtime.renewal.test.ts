import { afterEach, describe, expect, it } from 'vitest';
import { createActor, createMachine, sendTo, type AnyActorRef } from 'xstate';
import WebSocket from 'ws';
import type { RunningServer } from '../../../server/app';
import { CLOSE_UNAUTHORIZED, type ServerFrame } from '../../../contract/realtime';
import type { SocketCommand, SocketEvent } from '../../../machines/realtime/realtime.types';
import { createSocketActor } from '../../../src/platform/socket';
import { postApi, registerUser, startTestServer } from '../../support/api';
import { until } from '../../support/until';

/**
 * The page's socket actor (src/platform/socket.ts, as the browser runs it) against the real
 * server with 3 s jwts on the real clock: renewing on the open socket, it stays signed in
 * across several expiries without a close; without a way to renew, the server closes it 4401.
 */
const TTL_SECONDS = 3;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function pageSocket(url: string, jwt: string, renewJwt?: (used: string) => Promise<string>) {
  const events: SocketEvent[] = [];
  const socket = createSocketActor({
    url: `${url.replace(/^http/, 'ws')}/ws`,
    credentials: () => ({ jwt }),
    ...(renewJwt ? { renewJwt: (_system, used) => renewJwt(used) } : {}),
    WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket,
    warn: () => {},
  });
  const parent = createMachine({
    types: {} as { events: { type: 'send'; command: SocketCommand } | SocketEvent },
    invoke: { id: 'socket', src: socket },
    on: {
      send: { actions: sendTo('socket', ({ event }) => event.command) },
      '*': { actions: ({ event }) => events.push(event as SocketEvent) },
    },
  });
  const actor: AnyActorRef = createActor(parent).start();
  const frames = (type: ServerFrame['type']) =>
    events.filter((e) => e.type === 'socket.received' && e.frame.type === type).length;
  const closes = () => events.filter((e) => e.type === 'socket.closed');
  return { actor, frames, closes };
}

describe('a page socket renews its jwt on the open socket', () => {
  it(`stays signed in across 3 expiries of a ${TTL_SECONDS} s jwt; one that cannot renew is closed 4401`, async () => {
    server = await startTestServer({ jwtTtlSeconds: TTL_SECONDS });
    const url = server.url;
    const player = await registerUser(url, 'renewing-page@site.test');
    let refreshToken = player.refreshToken;
    let refreshes = 0;
    // The page's renewal: the auth service's refresh (auth/refresh with the newest token).
    const renew = async () => {
      const answer = await postApi(url, 'auth/refresh', { refresh_token: refreshToken });
      if (answer.status !== 200) throw new Error(`auth/refresh answered ${answer.status}`);
      refreshToken = String(answer.body.refresh_token);
      refreshes += 1;
      return String(answer.body.jwt);
    };
    const renewing = pageSocket(url, player.jwt, renew);
    const stuck = pageSocket(url, player.jwt);
    expect(
      await until(() => renewing.frames('welcome') === 1 && stuck.frames('welcome') === 1),
    ).toBe(true);
    // The stuck one is closed once its jwt expires (at most TTL + the sweep).
    expect(await until(() => stuck.closes().length > 0, (TTL_SECONDS + 2) * 1000)).toBe(true);
    expect(stuck.closes()[0]).toMatchObject({ code: CLOSE_UNAUTHORIZED });
    // The renewing one is still open after three lifetimes, and still answered.
    await new Promise((r) => setTimeout(r, 3 * TTL_SECONDS * 1000));
    renewing.actor.send({
      type: 'send',
      command: { type: 'socket.send', frame: { type: 'ping', timestamp: 1 } },
    });
    expect(await until(() => renewing.frames('pong') === 1)).toBe(true);
    expect(renewing.closes()).toEqual([]);
    expect(refreshes).toBeGreaterThanOrEqual(3);
    // One welcome per accepted renewal, on the same connection.
    expect(renewing.frames('welcome')).toBe(1 + refreshes);
    renewing.actor.stop();
    stuck.actor.stop();
  }, 30_000);
});
