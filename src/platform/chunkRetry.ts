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

/** Calls `listener` whenever a part fails or is asked for again; returns the unsubscribe. */
export const subscribeChunkFailures = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
/** Some part could not load and waits for Retry. */
export const hasFailedChunks = (): boolean => failed.size > 0;
