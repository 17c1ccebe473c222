import type { Plugin } from 'vite';

/** The bundler's helper that loads a lazily loaded part's files before importing it. */
const PRELOAD_HELPER_ID = '\0vite/preload-helper.js';

/** Where the helper adds a `<link>` for one of the part's files (its scripts and stylesheets). */
const LINK_CREATED = 'const link = document.createElement("link");';

/**
 * A part's scripts fetched ahead by `fetch()` into the HTTP cache (the assets are immutable),
 * stylesheets still by their `<link>`. A failed fetch is forgotten, so the next import of a part
 * that needs the file fetches it ahead again.
 */
const FETCH_AHEAD_SOURCE = `if (!isCss) {
					fetch(dep.href, { credentials: "same-origin" }).catch(() => { delete seen[dep.href]; });
					return;
				}
				${LINK_CREATED}`;

/**
 * A lazily loaded part's scripts are fetched ahead as plain requests, not `<link
 * rel="modulepreload">`. Chromium keeps a failed module preload in the page's module map for the
 * page's life: when the server was away as the player opened a part, every later import of that
 * part failed on the file whose preload failed, although the server was back and had it (the part
 * could never load without a reload). A failed `fetch()` leaves no trace, and a fetched file is
 * taken from the HTTP cache by the import, so the part's files still load in parallel. The helper
 * runs the part's import only after its stylesheets load, so a part asked for during an outage
 * fails before any of its scripts enters the module map. Throws when the helper no longer reads
 * as expected (a new bundler version): the rewrite is checked, not hoped.
 */
export function fetchScriptsAhead(code: string): string {
  const at = code.indexOf(LINK_CREATED);
  if (at < 0 || code.indexOf(LINK_CREATED, at + 1) >= 0 || !/\bconst seen = \{\}/.test(code))
    throw new Error(
      "fetched preloads: the bundler's preload helper no longer creates one link per file as expected",
    );
  return code.slice(0, at) + FETCH_AHEAD_SOURCE + code.slice(at + LINK_CREATED.length);
}

/** Applies `fetchScriptsAhead` to the client build's preload helper; fails the build without it. */
export function fetchedPreloadsPlugin(): Plugin {
  let rewritten = false;
  return {
    name: 'smw:fetched-preloads',
    apply: 'build',
    transform(code, id) {
      if (id !== PRELOAD_HELPER_ID) return null;
      rewritten = true;
      return { code: fetchScriptsAhead(code), map: null };
    },
    generateBundle() {
      const lazyParts = [...this.getModuleIds()].some((id) => id === PRELOAD_HELPER_ID);
      if (lazyParts && !rewritten)
        this.error('fetched preloads: the preload helper was bundled without the rewrite');
    },
  };
}
