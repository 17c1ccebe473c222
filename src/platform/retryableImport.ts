import { failedModuleUrl, serverAway } from './chunkRetry';

export { failedModuleUrl };

/**
 * `import()` of a chunk that can be asked for again after it failed (the page's Retry,
 * src/platform/chunkRetry.ts). Chromium keeps a failed module fetch in the page's module map:
 * importing the same address again fails at once, without asking the network. So after a failure
 * the next call asks for the address the failure names with a query of its own, a new entry in
 * the map; the chunk's own imports stay the page's usual modules (React, the machines).
 * `pick` takes what the caller needs from the module. While the server is known to be away the
 * chunk is not asked for at all (it would stay failed in the map): the call fails at once and
 * the part waits for the server with the others (src/platform/chunkRetry.ts).
 */
export function retryableImport<M, T = M>(
  importer: () => Promise<M>,
  pick: (module: M) => T = (module) => module as unknown as T,
): () => Promise<T> {
  let failedAt: string | null = null;
  let attempt = 0;
  return () => {
    if (serverAway()) return Promise.reject(new Error(SERVER_AWAY));
    const request: Promise<M> =
      failedAt === null
        ? importer()
        : (import(/* @vite-ignore */ `${failedAt}?retry=${(attempt += 1)}`) as Promise<M>);
    return request.then(pick, (error: unknown) => {
      failedAt = failedModuleUrl(error) ?? failedAt;
      throw error;
    });
  };
}

/** Why a part was not asked for: the server does not answer yet. */
const SERVER_AWAY = 'The server does not answer: the part waits for it.';
