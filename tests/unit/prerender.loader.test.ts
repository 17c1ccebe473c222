import { describe, expect, it } from 'vitest';
import { APP_LOADER, deferAppCode } from '../../src/prerender/prerenderPlugin';

/** The page's app loader: the built page names its scripts in data attributes, run after paint. */
const BUILT = [
  '<!doctype html><html><head>',
  '<script>theme()</script>',
  '    <script type="module" crossorigin src="/assets/index-a1.js"></script>',
  '    <link rel="modulepreload" crossorigin href="/assets/runtime-b2.js">',
  '    <link rel="modulepreload" crossorigin href="/assets/vendor-c3.js">',
  '</head><body><div id="root">page</div></body></html>',
].join('\n');

describe('deferAppCode', () => {
  it('moves the entry, its modules and the early entry into the loader at the end of the body', () => {
    const page = deferAppCode(BUILT, '/assets/early-d4.js');
    expect(page).not.toContain('<script type="module"');
    expect(page).not.toContain('<link rel="modulepreload"');
    expect(page).toContain('<script>theme()</script>');
    const loader = /<script data-early="([^"]*)" data-entry="([^"]*)" data-preload="([^"]*)">/.exec(
      page,
    );
    expect(loader?.slice(1)).toEqual([
      '/assets/early-d4.js',
      '/assets/index-a1.js',
      '/assets/runtime-b2.js /assets/vendor-c3.js',
    ]);
    expect(page.indexOf('data-entry')).toBeGreaterThan(page.indexOf('<div id="root">page</div>'));
    expect(page.indexOf(APP_LOADER)).toBeLessThan(page.indexOf('</body>'));
  });

  it('without an early entry the loader has no data-early', () => {
    const page = deferAppCode(BUILT);
    expect(page).toContain('<script data-entry="/assets/index-a1.js" data-preload=');
  });

  it('refuses a page without an entry script', () => {
    expect(() => deferAppCode('<html><head></head><body></body></html>')).toThrow(/entry/);
  });

  it('the loader text is the same on every page (one CSP hash), naming no file itself', () => {
    expect(APP_LOADER).not.toMatch(/assets\//);
    expect(APP_LOADER).toContain("'first-contentful-paint'");
  });
});
