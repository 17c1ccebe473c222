import { DOCS, LOADERS, type DocMeta } from 'virtual:docs-index';
import { retryableImport } from '../../platform/retryableImport';

export type { DocMeta };

/** The nine guides in reading order (§2 Routes): intro … cash. */
export const GUIDES: DocMeta[] = DOCS.filter((d) => d.section === 'guide');
/** Terms of service and privacy policy. */
export const LEGAL: DocMeta[] = DOCS.filter((d) => d.section === 'legal');

const DEFAULT_DOC_ID = 'intro';

/** Unknown doc ids fall back to intro (§2 Routes). */
export function resolveDoc(id: string | undefined): DocMeta {
  const found = DOCS.find((d) => d.id === id) ?? DOCS.find((d) => d.id === DEFAULT_DOC_ID);
  if (!found) throw new Error('docs index without the intro page');
  return found;
}

/** Previous and next guide; legal pages have neither. */
export function neighbours(doc: DocMeta): { prev: DocMeta | null; next: DocMeta | null } {
  if (doc.section !== 'guide') return { prev: null, next: null };
  const at = GUIDES.findIndex((d) => d.id === doc.id);
  return { prev: GUIDES[at - 1] ?? null, next: GUIDES[at + 1] ?? null };
}

const cache = new Map<string, Promise<string>>();
const loaders = new Map<string, () => Promise<string>>();

/**
 * The page's HTML, one cached promise per id: React's `use()` suspends on it, the prerender
 * waits for it, and hydration keeps the pre-rendered article until it resolves.
 */
export function loadDocHtml(id: string): Promise<string> {
  let pending = cache.get(id);
  if (!pending) {
    const loader = LOADERS[id];
    if (loader && !loaders.has(id))
      loaders.set(
        id,
        retryableImport(loader, (m) => m.default),
      );
    const load = loaders.get(id);
    pending = load ? load() : Promise.resolve('');
    cache.set(id, pending);
  }
  return pending;
}

/**
 * Forgets a page whose file could not load, for its boundary's retry: the next render asks again
 * (kept until then, so React's own re-render after the failure reads the same rejection).
 */
export function forgetDocHtml(id: string): void {
  cache.delete(id);
}
