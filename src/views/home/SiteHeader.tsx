import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { HeaderControls } from './HeaderControls';
import { SiteMark } from './SiteMark';
import './site-header.css';

/**
 * The top of every page: the skip link to the page's main content (`skipTo`), then the bar with
 * the logo home link, the docs link and the account controls.
 */
export function SiteHeader({ skipTo = '#main' }: { skipTo?: string }) {
  const ref = useRef<HTMLElement>(null);
  // Toasts sit below the header (--header-bottom), also when it wraps onto two lines.
  useEffect(() => {
    const header = ref.current;
    if (!header || typeof ResizeObserver === 'undefined') return undefined;
    const root = document.documentElement;
    const update = () => root.style.setProperty('--header-bottom', `${header.offsetHeight}px`);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(header);
    return () => observer.disconnect();
  }, []);
  return (
    <>
      <a className="skip-link" href={skipTo}>
        Skip to content
      </a>
      <header className="site-header" ref={ref}>
        <div className="container site-header-inner">
          <Link href="/" className="site-logo" aria-label="Solana Mafia Wars home">
            <SiteMark />
            <span className="site-logo-text" aria-hidden="true">
              SMW
            </span>
          </Link>
          <nav className="site-nav" aria-label="Site">
            <Link href="/docs/intro">Docs</Link>
          </nav>
          <div className="site-header-actions">
            <HeaderControls />
          </div>
        </div>
      </header>
    </>
  );
}
