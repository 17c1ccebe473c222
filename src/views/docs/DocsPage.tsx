import { Suspense, use, useEffect, useRef, useState, type MouseEvent, type RefObject } from 'react';
import { Link, useLocation } from 'wouter';
import { PartBoundary } from '../common/PartBoundary';
import { usePageTitle } from '../common/usePageTitle';
import { docsTitle } from '../shell/pageMeta';
import { SiteHeader } from '../home/SiteHeader';
import {
  forgetDocHtml,
  GUIDES,
  LEGAL,
  loadDocHtml,
  neighbours,
  resolveDoc,
  type DocMeta,
} from './docsIndex';
import './docs.css';

/** The card in the article's place when its text cannot load (the sidebar stays). */
const GUIDE_FAILED = 'This page of the docs could not load';

function docIdOf(path: string): string | undefined {
  return /^\/docs\/([^/?#]+)/.exec(path)?.[1];
}

function ArticleBody({ id }: { id: string }) {
  const html = use(loadDocHtml(id));
  return <div className="docs-body" dangerouslySetInnerHTML={{ __html: html }} />;
}

function SidebarList({
  title,
  docs,
  current,
  onChoose,
}: {
  title: string;
  docs: DocMeta[];
  current: string;
  onChoose: () => void;
}) {
  const headingId = `docs-${title.toLowerCase()}`;
  return (
    <div className="docs-sidebar-group">
      <h2 id={headingId} className="docs-sidebar-title">
        {title}
      </h2>
      <ul aria-labelledby={headingId}>
        {docs.map((d) => (
          <li key={d.id}>
            <Link
              href={`/docs/${d.id}`}
              aria-current={d.id === current ? 'page' : undefined}
              className="docs-sidebar-link"
              onClick={onChoose}
            >
              {d.title}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The docs' sidebar. On a phone (under 900 px) the lists fold behind a Contents button, so each
 * guide opens on its text with the contents one tap away; a wider screen shows them always (the
 * button is not drawn). Keyed by the guide: a new guide starts folded.
 */
function DocsSidebar({
  current,
  currentTitle,
  landOnHeading,
}: {
  current: string;
  currentTitle: string;
  landOnHeading: RefObject<boolean>;
}) {
  const [open, setOpen] = useState(false);
  const choose = () => (landOnHeading.current = true);
  return (
    <nav className="docs-sidebar" aria-label="Docs" data-open={open ? 'true' : 'false'}>
      <div className="docs-sidebar-bar">
        <Link href="/" className="docs-back">
          <span aria-hidden="true">←</span> Back to Home
        </Link>
        <button
          type="button"
          className="docs-contents-toggle"
          aria-expanded={open}
          aria-controls="docs-contents"
          onClick={() => setOpen(!open)}
        >
          Contents<span className="docs-contents-current"> · {currentTitle}</span>
          <span aria-hidden="true" className="docs-contents-chevron">
            ▾
          </span>
        </button>
      </div>
      <div id="docs-contents" className="docs-sidebar-lists">
        <SidebarList title="Contents" docs={GUIDES} current={current} onChoose={choose} />
        <SidebarList title="Legal" docs={LEGAL} current={current} onChoose={choose} />
      </div>
    </nav>
  );
}

/** The docs page (§2 Docs page): sidebar, article with read time, previous / next guides. */
export function DocsPage() {
  const [location, navigate] = useLocation();
  const doc = resolveDoc(docIdOf(location));
  const { prev, next } = neighbours(doc);
  usePageTitle(docsTitle(doc.title));
  // A guide chosen from the pager or the contents opens on its heading: focused, so reading
  // (and the next Tab) carries on in the new text, not where the link was.
  const heading = useRef<HTMLHeadingElement>(null);
  const landOnHeading = useRef(false);
  useEffect(() => {
    if (!landOnHeading.current) return;
    landOnHeading.current = false;
    heading.current?.focus({ preventScroll: true });
  }, [doc.id]);

  // Links inside the compiled article stay in the single-page app.
  const onArticleClick = (event: MouseEvent<HTMLElement>) => {
    const anchor = (event.target as HTMLElement).closest('a');
    const href = anchor?.getAttribute('href');
    if (!anchor || !href?.startsWith('/') || anchor.target === '_blank') return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    landOnHeading.current = true;
    navigate(href);
  };

  return (
    <div className="docs">
      <SiteHeader skipTo="#docs-article" />
      <div className="container docs-layout">
        <DocsSidebar
          key={doc.id}
          current={doc.id}
          currentTitle={doc.title}
          landOnHeading={landOnHeading}
        />
        <main id="docs-article" className="docs-main">
          <article className="docs-article" onClick={onArticleClick}>
            <header className="docs-article-header">
              <p className="docs-kicker">{doc.section === 'legal' ? 'Legal' : 'Guide'}</p>
              <h1 className="docs-title" ref={heading} tabIndex={-1}>
                {doc.title}
              </h1>
              <p className="docs-read-time">{doc.readMinutes} min read</p>
            </header>
            <PartBoundary
              key={doc.id}
              name={`guide ${doc.id}`}
              title={GUIDE_FAILED}
              variant="panel"
              onRetry={() => forgetDocHtml(doc.id)}
            >
              <Suspense fallback={<div className="docs-body docs-body-loading">Loading…</div>}>
                <ArticleBody id={doc.id} />
              </Suspense>
            </PartBoundary>
          </article>
          {doc.section === 'guide' && (
            <nav className="docs-pager" aria-label="Previous and next guides">
              <PagerLink doc={prev} rel="prev" landOnHeading={landOnHeading} />
              <PagerLink doc={next} rel="next" landOnHeading={landOnHeading} />
            </nav>
          )}
        </main>
      </div>
    </div>
  );
}

/** One side of the guides' pager: the neighbouring guide, or an empty cell to keep the grid. */
function PagerLink({
  doc,
  rel,
  landOnHeading,
}: {
  doc: DocMeta | null;
  rel: 'prev' | 'next';
  landOnHeading: RefObject<boolean>;
}) {
  if (!doc) return <span />;
  return (
    <Link
      href={`/docs/${doc.id}`}
      className={`docs-pager-link docs-pager-${rel}`}
      rel={rel}
      onClick={() => (landOnHeading.current = true)}
    >
      <span className="docs-pager-dir">{rel === 'prev' ? 'Previous' : 'Next'}</span>
      <span className="docs-pager-title">{doc.title}</span>
    </Link>
  );
}
