import { useSyncExternalStore } from 'react';

/**
 * Parts of the app that live in chunks of their own (the sign-in dialog, the overlays, the
 * signed-in home, the member services) report here when their chunk cannot load, with a way to
 * ask again; one notice on the page says so and offers Retry, which asks for each of them again.
 */
const failed = new Map<string, () => void>();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function chunkFailed(name: string, retry: () => void): void {
  failed.set(name, retry);
  emit();
}

/** Asks again for every part that could not load (the notice's Retry button). */
export function retryChunks(): void {
  const retries = [...failed.values()];
  failed.clear();
  emit();
  retries.forEach((retry) => retry());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const hasFailed = () => failed.size > 0;

export const useChunkFailed = (): boolean =>
  useSyncExternalStore(subscribe, hasFailed, () => false);
