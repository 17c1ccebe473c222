// @vitest-environment happy-dom
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { act, render, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChunkRetryNotice } from '../../src/views/common/ChunkRetryNotice';
import { loadedView } from '../../src/views/common/loadedView';

const CONNECT =
  'Unable to connect to the server. Please check your internet connection and try again.';

/**
 * The site's server, really listening on 127.0.0.1 or really stopped: the page asks it for the
 * file a failed chunk names, and tells "no answer" from "answered".
 */
let port = 0;
let server: Server | undefined;
const serve = () =>
  new Promise<void>((done) => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/javascript' });
      res.end();
    });
    server.listen(port, '127.0.0.1', () => {
      port = (server!.address() as AddressInfo).port;
      done();
    });
  });
const stop = () =>
  new Promise<void>((done) => {
    if (!server) return done();
    server.closeAllConnections();
    server.close(() => done());
    server = undefined;
  });
beforeAll(async () => {
  await serve();
  await stop();
});
afterAll(stop);
/** Chromium's message for a chunk that could not be fetched, naming its address. */
const chunkError = () =>
  new TypeError(
    `Failed to fetch dynamically imported module: http://127.0.0.1:${port}/assets/greeting-Ab12Cd34.js`,
  );

describe('a view in a chunk of its own', () => {
  it('with the server away shows the retry notice, and the view once Retry finds the server back', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi
      .fn<() => Promise<(p: { who: string }) => React.ReactNode>>()
      .mockRejectedValueOnce(chunkError())
      .mockResolvedValue(({ who }) => <p>hello {who}</p>);
    const View = loadedView(load, 'greeting');
    render(
      <>
        <View who="don" fallback={<p>waiting</p>} />
        <ChunkRetryNotice />
      </>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `Part of the page could not load. ${CONNECT}`,
    );
    expect(screen.getByText('waiting')).toBeInTheDocument();
    await serve();
    await act(async () => {
      screen.getByRole('button', { name: 'Retry' }).click();
    });
    expect(await screen.findByText('hello don')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
    await stop();
  });

  it('a view asked for ahead draws at once when it mounts after its chunk arrived', async () => {
    const load = vi.fn(() => Promise.resolve(({ who }: { who: string }) => <p>hello {who}</p>));
    const View = loadedView(load, 'greeting');
    await View.preload();
    await act(async () => {});
    render(<View who="don" fallback={<p>waiting</p>} />);
    // The first render is the view itself: no fallback frame.
    expect(screen.getByText('hello don')).toBeInTheDocument();
    expect(screen.queryByText('waiting')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a view not asked for ahead renders its fallback first, as the pre-rendered HTML has it', async () => {
    const load = vi.fn(() => Promise.resolve(({ who }: { who: string }) => <p>hello {who}</p>));
    const View = loadedView(load, 'greeting');
    render(<View who="don" fallback={<p>waiting</p>} />);
    expect(screen.getByText('waiting')).toBeInTheDocument();
    expect(await screen.findByText('hello don')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a view whose chunk failed when asked for ahead does not ask again when it mounts, and comes by itself once the server answers', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let failNext = true;
    const load = vi.fn(() =>
      failNext
        ? Promise.reject(chunkError())
        : Promise.resolve(({ who }: { who: string }) => <p>hello {who}</p>),
    );
    const View = loadedView(load, 'greeting');
    await View.preload();
    render(
      <>
        <View who="don" fallback={<p>waiting</p>} />
        <ChunkRetryNotice />
      </>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Part of the page could not load.');
    // Mounting did not ask again: one request, the failed one.
    expect(load).toHaveBeenCalledTimes(1);
    failNext = false;
    await serve();
    // No click: the page asks the server again on the realtime backoff (1 s, 2 s, ...).
    expect(await screen.findByText('hello don', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
    await stop();
  });
});
