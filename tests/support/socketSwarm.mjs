// A swarm of guest websockets, run as a worker thread or a forked process so the test's own
// event loop (and the server's) does not carry the clients' work. Options (workerData, or the
// first argument as JSON): { url, session, count, room, concurrency }. Posts
// { type: 'joined', sockets } once every socket has joined the room; answers 'count' with
// { type: 'frames', frames } (frames received by all sockets), 'times' with
// { type: 'times', times } (when each socket received its first room_message, Date.now ms),
// and 'close' by closing every socket, then { type: 'closed' }.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const port = parentPort ?? {
  postMessage: (message) => process.send(message),
  on: (event, listener) => process.on(event, listener),
};
const { url, session, count, room, concurrency } = workerData ?? JSON.parse(process.argv[2]);
const sockets = [];
const times = [];
let frames = 0;

function open() {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    let heard = false;
    sockets.push(ws);
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', session, timestamp: 1 })));
    ws.on('message', (raw) => {
      frames += 1;
      const type = JSON.parse(String(raw)).type;
      if (type === 'welcome') ws.send(JSON.stringify({ type: 'join', room, timestamp: 1 }));
      else if (type === 'joined') resolve();
      else if (type === 'room_message' && !heard) {
        heard = true;
        times.push(Date.now());
      }
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
port.on('message', (message) => {
  if (message === 'count') port.postMessage({ type: 'frames', frames });
  if (message === 'times') port.postMessage({ type: 'times', times });
  if (message === 'close') {
    for (const ws of sockets) ws.terminate();
    port.postMessage({ type: 'closed' });
    if (!parentPort) process.disconnect();
  }
});
await Promise.all(Array.from({ length: concurrency }, lane));
port.postMessage({ type: 'joined', sockets: sockets.length });
