/** The id of the block in which the build lists, per key, files a page may fetch ahead. */
export const PAGE_PRELOADS_ID = 'smw-tap-preloads';

/**
 * The files the build listed under `key` for this page (#smw-tap-preloads, written by
 * src/prerender/prerenderPlugin.ts): none for an unknown key, a page without the block (the dev
 * server) or a block that does not parse.
 */
export function listedFiles(key: string): string[] {
  try {
    const list = document.getElementById(PAGE_PRELOADS_ID)?.textContent;
    const files: unknown = (JSON.parse(list || '{}') as Record<string, unknown>)[key];
    return Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string') : [];
  } catch {
    return [];
  }
}
