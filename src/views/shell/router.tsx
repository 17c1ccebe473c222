import {
  Children,
  createContext,
  isValidElement,
  useContext,
  useLayoutEffect,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type ComponentType,
  type ReactNode,
} from 'react';
import { currentPath, navigateTo, subscribeToLocation } from '../../platform/location';

/**
 * The site's router (§2 Routes): the page's path as state, routes matched by pattern, links that
 * stay in the single-page app. The path is the browser's (src/platform/location.ts); a page
 * rendered at build time names its path with <Router ssrPath>.
 */
const SsrPath = createContext<string | null>(null);

export function Router({ ssrPath, children }: { ssrPath: string; children: ReactNode }) {
  return <SsrPath.Provider value={ssrPath}>{children}</SsrPath.Provider>;
}

export type Navigate = typeof navigateTo;

/** The page's path and the function that goes elsewhere. */
export function useLocation(): [string, Navigate] {
  const ssrPath = useContext(SsrPath);
  // Hydrating, the page was rendered for the path it is at (src/main.tsx hydrates only then).
  const path = useSyncExternalStore(
    subscribeToLocation,
    currentPath,
    () => ssrPath ?? currentPath(),
  );
  return [path, navigateTo];
}

export type Params = Record<string, string | undefined>;

/**
 * Whether `path` matches `pattern`: literal segments (letter case aside), `:name` for any one
 * segment, `:name?` for an optional last one; a trailing slash does not matter; no pattern
 * matches every path. Gives the named segments, or null.
 */
export function matchPath(pattern: string | undefined, path: string): Params | null {
  if (pattern === undefined) return {};
  const want = pattern.split('/').slice(1);
  const got = path === '/' ? [] : path.replace(/\/$/, '').split('/').slice(1);
  if (pattern === '/') return got.length === 0 ? {} : null;
  if (got.length > want.length) return null;
  const params: Params = {};
  for (const [index, part] of want.entries()) {
    const segment = got[index];
    if (part.startsWith(':')) {
      const optional = part.endsWith('?');
      const name = part.slice(1, optional ? -1 : undefined);
      if (segment === undefined || segment === '') {
        if (!optional || index !== want.length - 1) return null;
        params[name] = undefined;
      } else params[name] = segment;
    } else if (segment?.toLowerCase() !== part.toLowerCase()) return null;
  }
  return params;
}

type RouteProps = {
  path?: string;
  component?: ComponentType;
  children?: ReactNode | ((params: Params) => ReactNode);
};

/** Draws its children (given the path's named segments) or `component` when the path matches. */
export function Route({ path, component: View, children }: RouteProps) {
  const [location] = useLocation();
  const params = matchPath(path, location);
  if (!params) return null;
  if (typeof children === 'function') return <>{children(params)}</>;
  return View ? <View /> : <>{children}</>;
}

/** The first of its <Route>s whose pattern matches the path, alone. */
export function Switch({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const routes = Children.toArray(children).filter(isValidElement<RouteProps>);
  return routes.find((route) => matchPath(route.props.path, location)) ?? null;
}

/** Goes to `to` once drawn (replacing the history entry with `replace`). */
export function Redirect({ to, replace = false }: { to: string; replace?: boolean }) {
  useLayoutEffect(() => {
    navigateTo(to, { replace });
  }, [to, replace]);
  return null;
}

/**
 * A link within the site: a plain anchor (with a modifier key or the middle button it opens a new
 * tab, as links do) that a plain click follows without loading a page.
 */
export function Link({
  href,
  onClick,
  ...anchor
}: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return (
    <a
      {...anchor}
      href={href}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey || event.button !== 0)
          return;
        onClick?.(event);
        if (event.defaultPrevented) return;
        event.preventDefault();
        navigateTo(href);
      }}
    />
  );
}
