import { createServer } from 'node:net';

/** A loopback port free now (for a process the test starts on a port it must know first). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const address = probe.address();
  await new Promise<void>((done) => probe.close(() => done()));
  return typeof address === 'object' && address ? address.port : 0;
}
