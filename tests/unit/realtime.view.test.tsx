// @vitest-environment happy-dom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, type EventObject } from 'xstate';
import { realtimeMachine } from '../../machines/realtime/realtime.machine';
import { backoffDelay, type SocketCommand } from '../../machines/realtime/realtime.types';
import { chunkFailed } from '../../src/platform/chunkRetry';
import { ChunkRetryNotice } from '../../src/views/common/ChunkRetryNotice';
import { ConnectionStatus } from '../../src/views/realtime/ConnectionStatus';

/** The connection indicator renders what the realtime service's state means. */

function start() {
  const opened: number[] = [];
  const actor = createActor(
    realtimeMachine.provide({
      actors: {
        socket: fromCallback<SocketCommand>(() => {
          opened.push(Date.now());
        }),
        network: fromCallback<EventObject>(() => {}),
        signInWatch: fromCallback<EventObject>(() => {}),
      },
    }),
    { input: { now: () => Date.now() } },
  ).start();
  render(<ConnectionStatus actor={actor} />);
  const send = (event: Parameters<typeof actor.send>[0]) => act(() => actor.send(event));
  /** The server's welcome on the open socket. */
  const welcome = (timestamp: number) =>
    send({
      type: 'socket.received',
      frame: { type: 'welcome', timestamp },
      receivedAt: Date.now(),
    });
  return { actor, opened, send, welcome };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('connection status indicator', () => {
  it('shows nothing while signed out', () => {
    start();
    expect(screen.queryByTestId('connection-status')).toBeNull();
  });

  it('announces connecting, live, weak, reconnecting and lost states', () => {
    const { send, welcome } = start();
    send({ type: 'realtime.connect' });
    expect(screen.getByRole('status')).toHaveTextContent('Connecting to live updates');
    welcome(1);
    expect(screen.getByRole('status')).toHaveTextContent('Live updates connected');
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByRole('status')).toHaveTextContent('Live updates: weak connection');
    send({ type: 'socket.closed', code: 1006, reason: '' });
    expect(screen.getByRole('status')).toHaveTextContent('Reconnecting (attempt 1 of 5)');
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      act(() => {
        vi.advanceTimersByTime(backoffDelay(attempt));
      });
      send({ type: 'socket.closed', code: 1006, reason: '' });
    }
    expect(screen.getByRole('status')).toHaveTextContent('Live updates disconnected');
  });

  it('draws nothing for a first connect or a healthy connection; the strip shows from a loss until it is back', () => {
    const { send, welcome } = start();
    const drawn = () => !screen.getByTestId('connection-status').className.includes('--quiet');
    send({ type: 'realtime.connect' });
    expect(drawn(), 'first connect').toBe(false);
    welcome(1);
    expect(drawn(), 'healthy').toBe(false);
    send({ type: 'socket.closed', code: 1006, reason: '' });
    expect(drawn(), 'lost').toBe(true);
    act(() => {
      vi.advanceTimersByTime(backoffDelay(1));
    });
    expect(screen.getByRole('status')).toHaveTextContent('Reconnecting (attempt 1 of 5)');
    expect(drawn(), 'attempt 1 connecting').toBe(true);
    welcome(2);
    expect(drawn(), 'back').toBe(false);
  });

  it('agrees with the notice about parts: while the strip says the connection is lost, the corner notice steps aside', async () => {
    const { send, welcome } = start();
    render(<ChunkRetryNotice />);
    send({ type: 'realtime.connect' });
    welcome(1);
    // A part fails with the server away (nothing answers on port 1): the corner notice says so.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await act(async () => {
      chunkFailed(
        'toast',
        () => {},
        new TypeError(
          'Failed to fetch dynamically imported module: http://127.0.0.1:1/assets/Toast-Ab12Cd34.js',
        ),
      );
      await vi.advanceTimersByTimeAsync(0);
    });
    await act(async () => {
      await vi.waitFor(() =>
        expect(screen.queryByText(/Part of the page could not load/)).not.toBeNull(),
      );
    });
    send({ type: 'socket.closed', code: 1006, reason: '' });
    expect(screen.getByTestId('connection-status')).toHaveTextContent('Reconnecting');
    expect(screen.queryByText(/Part of the page could not load/)).toBeNull();
  });

  it('offers a Reconnect button once the attempts are spent, which opens a socket', () => {
    const { send, opened } = start();
    send({ type: 'realtime.connect' });
    send({ type: 'socket.closed', code: 4401, reason: 'unauthorized' });
    expect(opened).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Reconnect' }));
    expect(opened).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Reconnect' })).toBeNull();
  });
});
