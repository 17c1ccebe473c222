import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fetchScriptsAhead } from '../../src/prerender/fetchedPreloads';

/** The bundler's own preload helper, as the installed version writes it into a build. */
function installedHelperSource(): string {
  const chunks = join(import.meta.dirname, '../../node_modules/vite/dist/node/chunks');
  for (const file of readdirSync(chunks)) {
    const text = readFileSync(join(chunks, file), 'utf8');
    const start = text.indexOf('function preload(baseModule, deps, importerUrl) {');
    if (start < 0) continue;
    const end = text.indexOf('\nfunction getPreloadCode', start);
    return `const seen = {};${text.slice(start, end)}`;
  }
  throw new Error("the bundler's preload helper was not found in node_modules/vite");
}

describe("a lazily loaded part's files fetched ahead", () => {
  it("rewrites the installed bundler's helper: scripts by fetch(), stylesheets still by a link", () => {
    const rewritten = fetchScriptsAhead(installedHelperSource());
    expect(rewritten).toContain('fetch(dep.href, { credentials: "same-origin" })');
    // A failed fetch is forgotten, so the next import of the part fetches the file again.
    expect(rewritten).toContain('delete seen[dep.href]');
    // The script branch returns before any link is made; the stylesheet's link stays.
    const scriptBranch = rewritten.indexOf('if (!isCss) {');
    expect(scriptBranch).toBeGreaterThan(0);
    expect(rewritten.indexOf('document.createElement("link")')).toBeGreaterThan(scriptBranch);
    expect(rewritten).toContain('link.rel = isCss ? "stylesheet" : scriptRel;');
  });

  it('refuses a helper that no longer reads as expected, instead of building without the rewrite', () => {
    expect(() => fetchScriptsAhead('const seen = {}; function preload() {}')).toThrow(
      /no longer creates one link per file/,
    );
  });
});
