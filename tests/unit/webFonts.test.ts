import { describe, expect, it, vi } from 'vitest';
import {
  fetchWebFontsForNextVisit,
  WEB_FONTS_KEY,
  WEB_FONTS_READY,
} from '../../src/platform/webFonts';

const memoryStore = (initial: Record<string, string> = {}) => {
  const values = new Map(Object.entries(initial));
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
};
const face = (status: FontFaceLoadStatus) => ({ status }) as FontFace;

describe('fetchWebFontsForNextVisit', () => {
  it('fetches both faces and marks them ready for the next page load', async () => {
    const load = vi.fn(async (font: string) => (font ? [face('loaded')] : []));
    const store = memoryStore();
    expect(await fetchWebFontsForNextVisit({ load }, store)).toBe(true);
    expect(load.mock.calls.map(([font]) => font)).toEqual([
      '700 1em "Smw Display"',
      '400 1em "Smw Body"',
    ]);
    expect(store.values.get(WEB_FONTS_KEY)).toBe(WEB_FONTS_READY);
  });

  it('marks nothing when a face did not load (the system faces stay)', async () => {
    const store = memoryStore();
    const load = vi.fn(async (font: string) => (font.includes('Body') ? [] : [face('loaded')]));
    expect(await fetchWebFontsForNextVisit({ load }, store)).toBe(false);
    const failing = vi.fn(async () => {
      throw new Error('network');
    });
    expect(await fetchWebFontsForNextVisit({ load: failing }, store)).toBe(false);
    const errored = vi.fn(async () => [face('error')]);
    expect(await fetchWebFontsForNextVisit({ load: errored }, store)).toBe(false);
    expect(store.values.has(WEB_FONTS_KEY)).toBe(false);
  });

  it('asks for nothing once this browser has them, or without storage', async () => {
    const load = vi.fn(async () => [face('loaded')]);
    const ready = memoryStore({ [WEB_FONTS_KEY]: WEB_FONTS_READY });
    expect(await fetchWebFontsForNextVisit({ load }, ready)).toBe(true);
    expect(await fetchWebFontsForNextVisit({ load }, null)).toBe(false);
    expect(load).not.toHaveBeenCalled();
  });
});
