// @vitest-environment happy-dom
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ChunkRetryNotice } from '../../src/views/common/ChunkRetryNotice';
import { loadedView } from '../../src/views/common/loadedView';

const CONNECT =
  'Unable to connect to the server. Please check your internet connection and try again.';

describe('a view in a chunk of its own', () => {
  it('shows the retry notice when its chunk fails, and the view once Retry loads it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi
      .fn<() => Promise<(p: { who: string }) => React.ReactNode>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
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
    await act(async () => {
      screen.getByRole('button', { name: 'Retry' }).click();
    });
    expect(await screen.findByText('hello don')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
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

  it('a view whose chunk failed when asked for ahead waits for Retry instead of asking again when it mounts', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let failNext = true;
    const load = vi.fn(() =>
      failNext
        ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
        : Promise.resolve(({ who }: { who: string }) => <p>hello {who}</p>),
    );
    const View = loadedView(load, 'greeting');
    // The test's clock from before the first request: no timer the view sets can run unseen.
    vi.useFakeTimers();
    try {
      await View.preload();
      render(
        <>
          <View who="don" fallback={<p>waiting</p>} />
          <ChunkRetryNotice />
        </>,
      );
      await act(async () => {
        await vi.advanceTimersByTimeAsync(0);
      });
      expect(screen.getByRole('alert')).toHaveTextContent('Part of the page could not load.');
      // A minute later the view has not asked again on its own: one request, the failed one.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(60_000);
      });
    } finally {
      vi.useRealTimers();
    }
    expect(load).toHaveBeenCalledTimes(1);
    failNext = false;
    await act(async () => {
      screen.getByRole('button', { name: 'Retry' }).click();
    });
    expect(await screen.findByText('hello don')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
