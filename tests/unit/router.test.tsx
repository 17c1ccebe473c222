import { describe, expect, it } from 'vitest';
import { matchPath } from '../../src/views/shell/router';

/** The site's routes (§2 Routes) as src/views/shell/AppRoutes.tsx names them. */
describe('matchPath', () => {
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
    expect(matchPath(undefined, '/anything/else')).toEqual({});
  });
});
