/** The browser page: reload, query string, reduced-motion preference. */
export function reloadPage(): void {
  window.location.reload();
}

export function currentSearch(): string {
  return typeof window === 'undefined' ? '' : window.location.search;
}

export function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/** Smooth scroll to the top, instant under prefers-reduced-motion. */
export function scrollToTop(): void {
  if (typeof window === 'undefined' || typeof window.scrollTo !== 'function') return;
  window.scrollTo({ top: 0, left: 0, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
}

/** Who hears the site's own navigations and the browser's back and forward. */
const locationListeners = new Set<() => void>();
const announceLocation = () => {
  for (const listener of [...locationListeners]) listener();
};

/** Calls `listener` whenever the page's path may have changed; returns the unsubscribe. */
export function subscribeToLocation(listener: () => void): () => void {
  if (locationListeners.size === 0) window.addEventListener('popstate', announceLocation);
  locationListeners.add(listener);
  return () => {
    locationListeners.delete(listener);
    if (locationListeners.size === 0) window.removeEventListener('popstate', announceLocation);
  };
}

export function currentPath(): string {
  return window.location.pathname;
}

/**
 * Goes to `to` within the site without loading a page: a history entry pushed (or, with
 * `replace`, the current one replaced), then the router told (src/views/shell/router.tsx).
 */
export function navigateTo(to: string, { replace = false }: { replace?: boolean } = {}): void {
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  announceLocation();
}
