import { createStorage } from '../../src/platform/storage';

/** The site's storage over an in-memory backing (a Map the test can read and seed). */
export function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map<string, string>(Object.entries(initial));
  const backing = {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  } as unknown as Storage;
  return { storage: createStorage(() => backing), data };
}
