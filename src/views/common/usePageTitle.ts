import { useEffect } from 'react';
import { HOME_TITLE } from '../shell/pageMeta';

/**
 * The route in view names the page in the browser's tab and history. Only the lazily loaded
 * pages (docs, Page not found) call it: leaving one gives the title back to Home, whose title
 * comes with its HTML, so the landing page's JS carries no title of its own.
 */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title;
    return () => {
      document.title = HOME_TITLE;
    };
  }, [title]);
}
