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

/** How long another tab's payment counts as the one in progress (a wallet or QR payment). */
const PAYING_ELSEWHERE_MS = 15 * 60_000;

const PAYING_CHANNEL = 'smw-payment';

/**
 * The player's other tabs' word that they are paying (BroadcastChannel: no storage key), so the
 * receipt pops in the tab that paid. `announce` tells the others; `isPayingElsewhere` answers
 * whether another tab started a payment in the last PAYING_ELSEWHERE_MS and this tab has not
 * started one since.
 */
export function watchOtherTabsPaying(now: () => number = Date.now): {
  announce: () => void;
  isPayingElsewhere: () => boolean;
  stop: () => void;
} {
  let heardAt: number | null = null;
  const channel =
    typeof BroadcastChannel === 'function' ? new BroadcastChannel(PAYING_CHANNEL) : null;
  const onMessage = () => {
    heardAt = now();
  };
  channel?.addEventListener('message', onMessage);
  return {
    announce: () => {
      heardAt = null;
      channel?.postMessage('paying');
    },
    isPayingElsewhere: () => heardAt !== null && now() - heardAt < PAYING_ELSEWHERE_MS,
    stop: () => {
      channel?.removeEventListener('message', onMessage);
      channel?.close();
    },
  };
}
