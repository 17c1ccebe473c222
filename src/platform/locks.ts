/**
 * Runs `task` while holding the site's refresh lock (Web Locks API), so two tabs never send the
 * same rotating refresh token at once: the second tab waits, then finds the first tab's new
 * tokens in storage. Without the API (old browsers) the task simply runs.
 */
export function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks || typeof locks.request !== 'function') return task();
  return locks.request('smw-token-refresh', task) as Promise<T>;
}
