/**
 * The site's own faces (src/styles/fonts.css) are used from the page load after this browser has
 * them: the head's first script sets `data-fonts="ready"` on <html> when this key says so
 * (index.html), and only then do the design tokens name the faces (src/styles/tokens.css).
 *
 * On a first visit the page is drawn in the system faces, the same ones a throttled phone got
 * with `font-display: optional` (the face never arrived in time), but without the cost of the
 * face pending during the first layout: Chromium lays the page out again when the face's short
 * block period ends, about 0.2 s of a slow phone's main thread while the session's answers
 * wait (`npm run bench`). Once the app has started, the faces are fetched in the background and
 * this key set; they are never swapped into the page on view, so no text shifts. The landing's
 * first screen is the exception: it is set in the few display glyphs its page carries inline
 * (src/prerender/firstScreenFace.ts), there before its first layout.
 */
export const WEB_FONTS_KEY = 'fonts';
export const WEB_FONTS_READY = 'ready';

/** Whether this browser has the site's faces: the key set once they were fetched. */
export function webFontsCached(
  store: Pick<Storage, 'getItem'> | null = safeLocalStorage(),
): boolean {
  try {
    return store?.getItem(WEB_FONTS_KEY) === WEB_FONTS_READY;
  } catch {
    // blocked storage: the system faces
    return false;
  }
}

/** One weight of each face: loading it fetches the face's only file. */
const FACES = ['700 1em "Smw Display"', '400 1em "Smw Body"'] as const;

export async function fetchWebFontsForNextVisit(
  fonts: Pick<FontFaceSet, 'load'> | undefined = globalThis.document?.fonts,
  store: Pick<Storage, 'getItem' | 'setItem'> | null = safeLocalStorage(),
): Promise<boolean> {
  if (!fonts || !store) return false;
  try {
    if (webFontsCached(store)) return true;
    const loaded = await Promise.all(FACES.map((face) => fonts.load(face)));
    if (!loaded.every((faces) => faces.some((face) => face.status === 'loaded'))) return false;
    store.setItem(WEB_FONTS_KEY, WEB_FONTS_READY);
    return true;
  } catch {
    // blocked storage, or a face that failed: the system faces stay
    return false;
  }
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
