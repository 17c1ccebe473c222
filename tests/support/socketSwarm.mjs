// A swarm of guest websockets in a worker thread, so the test's own event loop (and the
// server's) does not carry the clients' work. workerData: { url, session, count, room,
// concurrency }. Posts { type: 'joined', sockets } once every socket has joined, then
// { type: 'frames', frames } (frames received by all sockets) when asked with 'count', and
// closes every socket on 'close'.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, session, count, room, concurrency } = workerData;
const sockets = [];
let frames = 0;

function open() {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    sockets.push(ws);
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', session, timestamp: 1 })));
    ws.on('message', (raw) => {
      frames += 1;
      const type = JSON.parse(String(raw)).type;
      if (type === 'welcome') ws.send(JSON.stringify({ type: 'join', room, timestamp: 1 }));
      else if (type === 'joined') resolve();
    });
  });
}

let next = 0;
async function lane() {
  while (next < count) {
    next += 1;
    await open();
  }
}
await Promise.all(Array.from({ length: concurrency }, lane));
parentPort.postMessage({ type: 'joined', sockets: sockets.length });
parentPort.on('message', (message) => {
  if (message === 'count') parentPort.postMessage({ type: 'frames', frames });
  if (message === 'close') {
    for (const ws of sockets) ws.terminate();
    parentPort.postMessage({ type: 'closed' });
  }
});
