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
});
