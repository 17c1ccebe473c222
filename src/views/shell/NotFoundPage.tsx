import { Link } from 'wouter';
import { usePageTitle } from '../common/usePageTitle';
import { SiteHeader } from '../home/SiteHeader';
import { NOT_FOUND_TITLE } from './pageMeta';
import './not-found.css';

/** Any route the site does not have: says so (the server answers 404) and leads back. */
export function NotFoundPage() {
  usePageTitle(NOT_FOUND_TITLE);
  return (
    <div className="not-found-page">
      <SiteHeader />
      <main className="container not-found" id="main">
        <p className="not-found-code" aria-hidden="true">
          404
        </p>
        <h1>Page not found</h1>
        <p>
          This street has no address in the city. The page may have moved, or the link is mistyped.
        </p>
        <nav className="not-found-links" aria-label="Where to go">
          <Link href="/" className="btn btn-primary">
            Back to Home
          </Link>
          <Link href="/docs/intro" className="btn btn-ghost">
            Read the guides
          </Link>
        </nav>
      </main>
    </div>
  );
}
