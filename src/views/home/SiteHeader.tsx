import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'wouter';
import { SiteMark } from './SiteMark';
import './site-header.css';

/** The top bar: the logo home link, the docs link and the slot for account controls. */
export function SiteHeader({ children }: { children?: ReactNode }) {
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
        <div className="site-header-actions">{children}</div>
      </div>
    </header>
  );
}
