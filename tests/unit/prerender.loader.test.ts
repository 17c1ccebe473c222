import { describe, expect, it } from 'vitest';
import {
  hoistImagePreloads,
  placeAppCode,
  withoutInlinedDeps,
} from '../../src/prerender/prerenderPlugin';

/** Where a built page names its scripts: the entry and the modules it imports. */
const BUILT = [
  '<!doctype html><html><head>',
  '<script>theme()</script>',
  '    <script type="module" crossorigin src="/assets/index-a1.js"></script>',
  '    <link rel="modulepreload" crossorigin href="/assets/runtime-b2.js">',
  '    <link rel="modulepreload" crossorigin href="/assets/xstate-c3.js">',
  '</head><body><div id="root">page</div></body></html>',
].join('\n');

const headOf = (page: string) => page.slice(0, page.indexOf('</head>'));

describe('placeAppCode', () => {
  it("puts the entry's modules, the entry, then a page's own modules in the head as preloads", () => {
    const page = placeAppCode(BUILT, ['/assets/docs-e5.js', '/assets/runtime-b2.js']);
    const head = headOf(page);
    expect(page).toContain('<script>theme()</script>');
    // No module runs with the document: the head's boot script runs the entry, and the entry
    // imports the rest.
    expect(page).not.toContain('<script type="module"');
    // The app's entry is fetched with the page and marked for the head's boot script
    // (src/app/bootInline.ts), after the modules it needs and before a page's own.
    const tags = [
      ...head.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)"( data-app-entry)?>/g),
    ].map((m) => `${m[1]}${m[2] ?? ''}`);
    expect(tags).toEqual([
      '/assets/runtime-b2.js',
      '/assets/xstate-c3.js',
      '/assets/index-a1.js data-app-entry',
      '/assets/docs-e5.js',
    ]);
    // Each file once: nothing left where the build had put it, nothing in the body.
    expect(page.match(/index-a1\.js/g)).toHaveLength(1);
    expect(page.match(/runtime-b2\.js/g)).toHaveLength(1);
    expect(page.slice(page.indexOf('<body>'))).not.toContain('<script');
  });

  it('without modules of its own a page still marks the entry for the boot script', () => {
    const page = placeAppCode(BUILT);
    expect(page.match(/<script type="module"/g)).toBeNull();
    expect(page.match(/data-app-entry/g)).toHaveLength(1);
  });

  it('refuses a page without an entry script', () => {
    expect(() => placeAppCode('<html><head></head><body></body></html>')).toThrow(/entry/);
  });
});

describe('hoistImagePreloads', () => {
  it("takes React's image preloads out of the markup, once each, for the head", () => {
    const markup =
      '<link rel="preload" as="image" href="/logo.svg"/><div><img src="/logo.svg"/>' +
      '<link rel="preload" as="image" href="/media/poster.svg"/>' +
      '<link rel="preload" as="image" href="/logo.svg"/></div>';
    const { markup: body, head } = hoistImagePreloads(markup);
    expect(body).toBe('<div><img src="/logo.svg"/></div>');
    expect(head).toEqual([
      '<link rel="preload" as="image" href="/logo.svg">',
      '<link rel="preload" as="image" href="/media/poster.svg">',
    ]);
  });
});

describe('withoutInlinedDeps', () => {
  const chunk = [
    'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/a-1.js","assets/index-2.css","assets/b-3.css"])))=>i.map(i=>d[i]);',
    'x(()=>import("./a-1.js"),__vite__mapDeps([0,1,2]));y(()=>import("./c.js"),__vite__mapDeps([1]));',
  ].join('\n');

  it("drops the page's inline CSS from every dynamic import's files, keeping the others", () => {
    const out = withoutInlinedDeps(chunk, ['/assets/index-2.css']);
    expect(out).toContain('__vite__mapDeps([0,2])');
    expect(out).toContain('__vite__mapDeps([])');
    // The list itself is left as it is: the indices still point at the same files.
    expect(out).toContain('m.f=["assets/a-1.js","assets/index-2.css","assets/b-3.css"]');
  });

  it('leaves a chunk without the file, or without dynamic imports, as it is', () => {
    expect(withoutInlinedDeps(chunk, ['/assets/other-9.css'])).toBe(chunk);
    expect(withoutInlinedDeps('export const a=1;', ['/assets/index-2.css'])).toBe(
      'export const a=1;',
    );
  });
});
