import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { taglinesMachine } from '../../machines/taglines/taglines.machine';
import { selectTagline, selectTaglineSlidesIn } from '../../machines/taglines/taglines.selectors';
import { TAGLINE_ROTATION_MS, TAGLINES } from '../../machines/taglines/taglines.types';

describe('landing taglines', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('has five distinct taglines rotating every 3 s [§9.timers.tagline]', () => {
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

  it('the first tagline comes with the page; every next one slides in, the first too after a wrap', () => {
    const actor = createActor(taglinesMachine).start();
    expect(selectTaglineSlidesIn(actor.getSnapshot())).toBe(false);
    for (let i = 0; i < TAGLINES.length; i++) {
      vi.advanceTimersByTime(TAGLINE_ROTATION_MS);
      expect(selectTaglineSlidesIn(actor.getSnapshot())).toBe(true);
    }
    expect(selectTagline(actor.getSnapshot())).toBe(TAGLINES[0]);
    actor.stop();
  });
});
