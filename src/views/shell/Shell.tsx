import { useLocation } from 'wouter';
import { PartBoundary } from '../common/PartBoundary';
import { AppRoutes } from './AppRoutes';
import { LoadingOverlay } from './LoadingOverlay';
import { Overlays } from './Overlays';
import { ScrollToTop } from './ScrollToTop';

/**
 * The shell (§2): the routed page, the global overlays, and the app loader on top until the
 * session has loaded (or as the Connection Error view when an application error is set). The page
 * renders underneath from the start, so pre-rendered HTML hydrates as it is. The loader comes
 * first in the markup: the browser may draw a frame while the pre-rendered page is still
 * arriving, and that frame shows the loader, never a half-read page without it.
 */
export function Shell() {
  return (
    <>
      <LoadingOverlay />
      <ScrollToTop />
      <RoutedPage />
      <Overlays />
    </>
  );
}

/**
 * The routed page inside a boundary of its own: whatever fails while it draws shows the page's
 * card in its place, never an empty page, and the next address (a link, Back, Forward) draws
 * afresh.
 */
function RoutedPage() {
  const [location] = useLocation();
  return (
    <PartBoundary resetKey={location} name="page" title="This page could not load" variant="page">
      <AppRoutes />
    </PartBoundary>
  );
}
