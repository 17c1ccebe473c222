// @vitest-environment happy-dom
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backoffDelay, REALTIME } from '../../machines/realtime/realtime.types';
import {
  chunkFailed,
  partsState,
  probe,
  probeDelay,
  retryNow,
} from '../../src/platform/chunkRetry';

/**
 * Issue 52: when a part cannot load, the page tells "the server answered without it" (a new
 * release: the update offer) from "no answer" (the connection message, retried on the realtime
 * backoff), asking a real server on 127.0.0.1.
 */
type Answer = { status: number } | 'stopped';
let answer: Answer = { status: 200 };
let server: Server;
let base = '';
const asked: string[] = [];
beforeAll(
  () =>
    new Promise<void>((done) => {
      server = createServer((req, res) => {
        // The test's document is on another origin than this server: its CORS preflight.
        if (req.method === 'OPTIONS') {
          res.writeHead(204, {
            'Access-Control-Allow-Origin': '*',
            'Access-Control-Allow-Methods': 'HEAD, GET',
          });
          res.end();
          return;
        }
        asked.push(`${req.method} ${req.url}`);
        if (answer === 'stopped') {
          req.socket.destroy();
          return;
        }
        res.writeHead(answer.status, { 'Access-Control-Allow-Origin': '*' });
        res.end();
      });
      server.listen(0, '127.0.0.1', () => {
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        done();
      });
    }),
);
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const failure = (name: string) =>
  new TypeError(`Failed to fetch dynamically imported module: ${base}/assets/${name}-Ab12Cd34.js`);

describe('which case a part that cannot load is in', () => {
  it('asks the server again on the realtime backoff: 1, 2, 4, 8, 16 s, then every 30 s', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7].map(probeDelay);
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    // The same numbers as the realtime connection's (one schedule about the connection).
    for (let n = 1; n <= REALTIME.maxAttempts; n += 1) expect(probeDelay(n)).toBe(backoffDelay(n));
    expect(probeDelay(REALTIME.maxAttempts + 1)).toBe(REALTIME.restingRetryMs);
  });

  it('reads an answer: the file is there, a 404 or 410 is a new release, a proxy’s 502–504 or none is no answer', async () => {
    const url = () => `${base}/assets/x-Ab12Cd34.js`;
    answer = { status: 200 };
    expect(await probe(url())).toBe('has it');
    answer = { status: 404 };
    expect(await probe(url())).toBe('replaced');
    answer = { status: 410 };
    expect(await probe(url())).toBe('replaced');
    for (const status of [502, 503, 504]) {
      answer = { status };
      expect(await probe(url())).toBe('no answer');
    }
    answer = 'stopped';
    expect(await probe(url())).toBe('no answer');
    expect(await probe('http://127.0.0.1:1/assets/x.js')).toBe('no answer');
    // It asks the server itself (HEAD), for the file that failed.
    expect(asked.at(-1)).toBe('HEAD /assets/x-Ab12Cd34.js');
  });

  it('no answer: the outage, then a retry by itself once the server answers; a blip is retried at once', async () => {
    answer = 'stopped';
    const retried = vi.fn();
    chunkFailed('sign-in dialog', retried, failure('SignInModal'));
    await vi.waitFor(() => expect(partsState()).toBe('outage'));
    expect(retried).not.toHaveBeenCalled();
    // Back: the next probe (1 s on the backoff) finds it and asks for the part again.
    answer = { status: 200 };
    await vi.waitFor(() => expect(retried).toHaveBeenCalledTimes(1), { timeout: 5_000 });
    expect(partsState()).toBe('ok');

    // The server had the file (a blip): the part is asked for again at once.
    const blip = vi.fn();
    chunkFailed('docs page', blip, failure('DocsPage'));
    await vi.waitFor(() => expect(blip).toHaveBeenCalledTimes(1));
    expect(partsState()).toBe('ok');

    // Retry asks at once, even while still away.
    answer = 'stopped';
    chunkFailed('video', vi.fn(), failure('VideoModal'));
    await vi.waitFor(() => expect(partsState()).toBe('outage'));
    const before = asked.length;
    retryNow();
    await vi.waitFor(() => expect(asked.length).toBeGreaterThan(before));
    answer = { status: 200 };
    retryNow();
    await vi.waitFor(() => expect(partsState()).toBe('ok'));
  });

  it('answered without the file: a new release replaced it, and the page stays in the update offer', async () => {
    answer = { status: 404 };
    const retried = vi.fn();
    chunkFailed('QR code', retried, failure('SolanaPayQr'));
    await vi.waitFor(() => expect(partsState()).toBe('replaced'));
    expect(retried).not.toHaveBeenCalled();
    // Nothing brings the old file back: the offer stays (Reload is the way on).
    answer = { status: 200 };
    retryNow();
    chunkFailed('trailer', vi.fn(), failure('VideoModal'));
    await new Promise((done) => setTimeout(done, 50));
    expect(partsState()).toBe('replaced');
  });
});
