import { Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { ChunkFailed } from '../common/ChunkFailed';
import { lazyView } from '../common/lazyView';
import { retryableImport } from '../../platform/retryableImport';
import { HomePage } from '../home/HomePage';
import { InviteCodeCapture } from '../signIn/InviteCodeCapture';

/** The docs page is its own chunk: the landing page never downloads it. */
const DocsPage = lazyView(
  retryableImport(
    () => import('../docs/DocsPage'),
    (m) => m.DocsPage,
  ),
  ChunkFailed,
  'docs page',
);

/** The page for routes the site does not have (the server answers them with status 404). */
const NotFoundPage = lazyView(
  retryableImport(
    () => import('./NotFoundPage'),
    (m) => m.NotFoundPage,
  ),
  ChunkFailed,
  'page',
);

/**
 * The routes of §2: Home, invite links, docs (with /docs → /docs/intro; the docs page itself
 * falls back to intro for an unknown id). The spec leaves the rest open: every other path shows a
 * Page not found page.
 */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/">
        <HomePage />
      </Route>
      <Route path="/r/:code?">{(params) => <InviteCodeCapture code={params.code ?? ''} />}</Route>
      <Route path="/ref/:code?">{(params) => <InviteCodeCapture code={params.code ?? ''} />}</Route>
      <Route path="/docs">
        <Redirect to="/docs/intro" replace />
      </Route>
      <Route path="/docs/:guide">
        <Suspense fallback={<main className="route-loading" aria-busy="true" />}>
          <DocsPage />
        </Suspense>
      </Route>
      <Route>
        <Suspense fallback={<main className="route-loading" aria-busy="true" />}>
          <NotFoundPage />
        </Suspense>
      </Route>
    </Switch>
  );
}
