import { reloadPage } from './location';

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

/**
 * Retry of a page whose own code could not load: when the server answers again, the page is
 * loaded afresh (its code and its styles together, which a second import() alone would not
 * bring); while it does not, every failed part is asked for again, and the stand-in says so.
 */
export async function retryPage(): Promise<void> {
  try {
    const answer = await fetch(window.location.href, { method: 'HEAD', cache: 'no-store' });
    if (answer.ok) {
      reloadPage();
      return;
    }
  } catch {
    // Still unreachable: the parts are asked for again below, and fail again visibly.
  }
  retryChunks();
}

/** Page-sized stand-ins on screen (a route whose code could not load), each with its own Retry. */
let pageStandIns = 0;

/**
 * A route's stand-in takes the page: it says what failed and carries the one Retry, so the
 * corner notice steps aside while it shows (one instruction, not two). Returns the release.
 */
export function showPageStandIn(): () => void {
  pageStandIns += 1;
  emit();
  return () => {
    pageStandIns -= 1;
    emit();
  };
}

/** The corner notice shows: some part waits for Retry and no page stand-in says so already. */
export const showsCornerNotice = (): boolean => failed.size > 0 && pageStandIns === 0;
