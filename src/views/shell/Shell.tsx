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
      <AppRoutes />
      <Overlays />
    </>
  );
}
