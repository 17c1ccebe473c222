/** What another tab of the site did to the shared sign-in. */
export type OtherTabAuthChange =
  { type: 'signedOut' } | { type: 'signedIn'; jwt: string; refreshToken: string };

/**
 * Calls `listener` when another tab removes the jwt from storage (its logout) or stores one (its
 * sign-in or refresh), so this tab follows. `storage` events fire only in the other tabs of the
 * same origin; the refresh token is read from storage when the jwt's event arrives (the other
 * tab wrote both before any event was delivered).
 */
export function onOtherTabAuthChange(listener: (change: OtherTabAuthChange) => void): () => void {
  const handler = (event: StorageEvent) => {
    if ((event.key === 'jwt' && event.newValue === null) || event.key === null) {
      listener({ type: 'signedOut' });
    } else if (event.key === 'jwt' && event.newValue) {
      listener({
        type: 'signedIn',
        jwt: event.newValue,
        refreshToken: window.localStorage.getItem('refreshToken') ?? '',
      });
    }
  };
  window.addEventListener('storage', handler);
  return () => window.removeEventListener('storage', handler);
}
