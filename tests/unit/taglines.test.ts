import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { taglinesMachine } from '../../machines/taglines/taglines.machine';
import { selectTagline } from '../../machines/taglines/taglines.selectors';
import { TAGLINE_ROTATION_MS, TAGLINES } from '../../machines/taglines/taglines.types';

describe('landing taglines', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('has five distinct taglines rotating every 3 s', () => {
    expect(TAGLINES).toHaveLength(5);
    expect(new Set(TAGLINES).size).toBe(5);
    expect(TAGLINE_ROTATION_MS).toBe(3000);
  });

  it('shows the next tagline every 3 s and wraps after the fifth', () => {
    const actor = createActor(taglinesMachine).start();
    const seen = [selectTagline(actor.getSnapshot())];
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(2999);
      expect(selectTagline(actor.getSnapshot())).toBe(seen.at(-1));
      vi.advanceTimersByTime(1);
      seen.push(selectTagline(actor.getSnapshot()));
    }
    expect(seen).toEqual([...TAGLINES, TAGLINES[0]]);
    actor.stop();
  });
});
