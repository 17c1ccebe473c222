/** The browser page: reload, query string, reduced-motion preference. */
export function reloadPage(): void {
  window.location.reload();
}

export function currentSearch(): string {
  return typeof window === 'undefined' ? '' : window.location.search;
}

function prefersReducedMotion(): boolean {
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

/**
 * Goes to `to` within the site without loading a page: a history entry pushed (or, with
 * `replace`, the current one replaced). The router (wouter) hears both: it wraps the history's
 * pushState and replaceState to announce them.
 */
export function navigateTo(to: string, { replace = false }: { replace?: boolean } = {}): void {
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
}
