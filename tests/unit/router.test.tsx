import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Route, Router, useRoute } from 'wouter';

/**
 * The site's routes (§2 Routes) as src/views/shell/AppRoutes.tsx writes their patterns, matched
 * by the router (wouter) at a given path: the named segments, or null.
 */
function matchPath(pattern: string, path: string): Record<string, string | undefined> | null {
  let found: Record<string, string | undefined> | null = null;
  function Probe() {
    const [matches, params] = useRoute(pattern);
    found = matches
      ? Object.fromEntries(Object.entries(params).filter(([key]) => Number.isNaN(Number(key))))
      : null;
    return null;
  }
  renderToStaticMarkup(
    <Router ssrPath={path}>
      <Probe />
    </Router>,
  );
  return found;
}

describe('the site routes', () => {
  it('Home is `/` alone', () => {
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/', '/docs')).toBeNull();
    expect(matchPath('/', '/r/ABC')).toBeNull();
  });

  it('an invite link gives its code, an empty one none, and more segments do not match [§2.routes.ref]', () => {
    expect(matchPath('/r/:code?', '/r/ABC123')).toEqual({ code: 'ABC123' });
    expect(matchPath('/ref/:code?', '/ref/x-1/')).toEqual({ code: 'x-1' });
    expect(matchPath('/r/:code?', '/r')).toEqual({ code: undefined });
    expect(matchPath('/r/:code?', '/r/')).toEqual({ code: undefined });
    expect(matchPath('/r/:code?', '/r/ABC/more')).toBeNull();
    expect(matchPath('/r/:code?', '/rr')).toBeNull();
    expect(matchPath('/ref/:code?', '/r/ABC')).toBeNull();
  });

  it('a docs page gives its guide; /docs alone is its own route', () => {
    expect(matchPath('/docs/:guide', '/docs/intro')).toEqual({ guide: 'intro' });
    expect(matchPath('/docs/:guide', '/docs')).toBeNull();
    expect(matchPath('/docs/:guide', '/docs/a/b')).toBeNull();
    expect(matchPath('/docs', '/docs')).toEqual({});
    expect(matchPath('/docs', '/docs/')).toEqual({});
    expect(matchPath('/docs', '/DOCS')).toEqual({});
    expect(matchPath('/docs', '/docs/intro')).toBeNull();
    expect(matchPath('/docs', '//docs')).toBeNull();
  });

  it('a route without a pattern matches every path (the Page not found route)', () => {
    expect(
      renderToStaticMarkup(
        <Router ssrPath="/anything/else">
          <Route>not found</Route>
        </Router>,
      ),
    ).toBe('not found');
  });
});
