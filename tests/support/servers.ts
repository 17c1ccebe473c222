import { afterEach } from 'vitest';
import type { RunningServer } from '../../server/app';
import { startTestServer } from './api';

/** `startTestServer` for one test file: every server it starts is closed after each test. */
export function serversClosedAfterEach(): typeof startTestServer {
  let servers: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });
  return async (...args) => {
    const server = await startTestServer(...args);
    servers.push(server);
    return server;
  };
}
