import WebSocket from 'ws';
import type { ServerFrame } from '../../contract/realtime';
import type { RunningServer } from '../../server/app';
import { until } from './until';

export type Peer = { ws: WebSocket; frames: ServerFrame[]; closed: Promise<number> };

/**
 * A websocket of the test on the server's `/ws`, which sends `auth` and waits for the welcome
 * (or the server's refusal: then the socket has no welcome frame).
 */
export async function peer(
  server: RunningServer,
  auth: { jwt?: string; session?: string },
  opts: { localAddress?: string } = {},
): Promise<Peer> {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`, opts);
  const frames: ServerFrame[] = [];
  ws.on('message', (raw) => frames.push(JSON.parse(String(raw)) as ServerFrame));
  const closed = new Promise<number>((done) => ws.on('close', (code) => done(code)));
  await new Promise<void>((done, fail) => {
    ws.once('open', () => done());
    ws.once('error', fail);
  });
  ws.send(JSON.stringify({ type: 'auth', ...auth, timestamp: 1 }));
  await until(() => frames.some((f) => f.type === 'welcome') || ws.readyState !== WebSocket.OPEN);
  return { ws, frames, closed };
}
