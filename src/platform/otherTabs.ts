/**
 * Calls `listener` when another tab removes the jwt from storage (its logout), so this tab logs
 * out too. `storage` events fire only in the other tabs of the same origin.
 */
export function onOtherTabJwtRemoved(listener: () => void): () => void {
  const handler = (event: StorageEvent) => {
    if ((event.key === 'jwt' && event.newValue === null) || event.key === null) listener();
  };
  window.addEventListener('storage', handler);
  return () => window.removeEventListener('storage', handler);
}
