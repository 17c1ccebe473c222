import type { KeyValueStorage } from '../platform/storage';

/**
 * A stored jwt on Home: the page is the signed-in home (src/views/home/HomePage.tsx), which the
 * app draws fresh instead of hydrating the pre-rendered landing page. The head's boot script
 * (src/app/bootInline.ts: it keeps the landing page out of layout and fetches the home's code)
 * and the app (src/main.tsx and src/app/mount.tsx: it draws the page and lifts that mark) decide
 * it alike, with the app's own reading of a stored jwt.
 */
export function opensSignedInHome(storage: KeyValueStorage, pathname: string): boolean {
  return pathname === '/' && storage.get('jwt') !== null;
}
