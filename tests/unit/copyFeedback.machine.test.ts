import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import {
  selectCopyFailed,
  selectIsCopied,
} from '../../machines/copyFeedback/copyFeedback.selectors';
import { COPY_FEEDBACK_MS } from '../../machines/copyFeedback/copyFeedback.types';

const start = (write: (text: string) => Promise<void>) =>
  createActor(
    copyFeedbackMachine.provide({
      actors: { writeClipboard: fromPromise(({ input }) => write(input.text)) },
    }),
  ).start();

describe('copyFeedback machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes the text, shows Copied! for exactly 2 s, then returns to idle', async () => {
    const written: string[] = [];
    const actor = start(async (text) => {
      written.push(text);
    });
    actor.send({ type: 'copyFeedback.copy', text: 'wallet-address' });
    expect(actor.getSnapshot().value).toBe('copying');
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual(['wallet-address']);
    expect(selectIsCopied(actor.getSnapshot())).toBe(true);
    expect(COPY_FEEDBACK_MS).toBe(2_000);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(selectIsCopied(actor.getSnapshot())).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('a failed write returns to idle with the failure flag, cleared by the next copy', async () => {
    let fail = true;
    const actor = start(async () => {
      if (fail) throw new Error('denied');
    });
    actor.send({ type: 'copyFeedback.copy', text: 'x' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(selectCopyFailed(actor.getSnapshot())).toBe(true);
    fail = false;
    actor.send({ type: 'copyFeedback.copy', text: 'x' });
    expect(selectCopyFailed(actor.getSnapshot())).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(selectIsCopied(actor.getSnapshot())).toBe(true);
  });

  it('copying again while Copied! shows restarts the 2 s', async () => {
    const actor = start(async () => {});
    actor.send({ type: 'copyFeedback.copy', text: 'a' });
    await vi.advanceTimersByTimeAsync(1_500);
    actor.send({ type: 'copyFeedback.copy', text: 'b' });
    await vi.advanceTimersByTimeAsync(1_500);
    expect(selectIsCopied(actor.getSnapshot())).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('without a provided clipboard the write fails instead of pretending', async () => {
    const actor = createActor(copyFeedbackMachine).start();
    actor.send({ type: 'copyFeedback.copy', text: 'x' });
    await vi.advanceTimersByTimeAsync(0);
    expect(selectCopyFailed(actor.getSnapshot())).toBe(true);
  });
});
