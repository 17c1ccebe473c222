import { Suspense, useEffect } from 'react';
import { lazyView } from '../common/lazyView';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { installGlobalErrorHandler } from '../../platform/errors';
import { InformationBanner } from './InformationBanner';
import { ThemeToggle } from './ThemeToggle';

/**
 * The overlays bound to the running app's services (mounted in the shell's Overlays slot; the
 * theme toggle in the site header).
 */
// The error and video modals render nothing until opened: like the toast, they are chunks of
// their own, requested when the shell mounts, outside the landing page's initial JS.
const LazyErrorModal = lazyView(
  () => import('./ErrorModal').then((m) => m.ErrorModal),
  () => null,
  'error modal',
);
const LazyVideoModal = lazyView(
  () => import('./VideoModal').then((m) => m.VideoModal),
  () => null,
  'video modal',
);

export function ErrorModalOverlay() {
  const actor = useService(SYSTEM_IDS.errorModal);
  return (
    <Suspense fallback={null}>
      <LazyErrorModal actor={actor} />
    </Suspense>
  );
}

export function InformationBannerOverlay() {
  return <InformationBanner actor={useService(SYSTEM_IDS.notifications)} />;
}

// The toast (with DOMPurify) is its own chunk, requested as soon as the shell mounts: it stays
// out of the landing page's initial JS (performance budget). Until it arrives the same empty
// live region stands in, so screen readers still hear the first toast.
const emptyToastRegion = <div className="toast-region" role="status" aria-live="polite" />;
const LazyToast = lazyView(
  () => import('./Toast').then((m) => m.Toast),
  () => emptyToastRegion,
  'toast',
);

export function ToastOverlay() {
  const actor = useService(SYSTEM_IDS.notifications);
  return (
    <Suspense fallback={emptyToastRegion}>
      <LazyToast actor={actor} />
    </Suspense>
  );
}

export function VideoModalOverlay() {
  const actor = useService(SYSTEM_IDS.notifications);
  return (
    <Suspense fallback={null}>
      <LazyVideoModal actor={actor} />
    </Suspense>
  );
}

export function HeaderThemeToggle() {
  return <ThemeToggle actor={useService(SYSTEM_IDS.theme)} />;
}

/**
 * Connects window `error` and `unhandledrejection` to the errorModal service for the life of the
 * app, and in non-production builds exposes the test hooks. Renders nothing.
 */
export function GlobalErrorHandler() {
  const errorModal = useService(SYSTEM_IDS.errorModal);
  const notifications = useService(SYSTEM_IDS.notifications);

  useEffect(() => installGlobalErrorHandler(errorModal), [errorModal]);

  useEffect(() => {
    if (import.meta.env.MODE === 'production') return undefined;
    let uninstall: (() => void) | undefined;
    let cancelled = false;
    void import('./devHooks').then(({ installOverlayDevHooks }) => {
      if (!cancelled) uninstall = installOverlayDevHooks(notifications, errorModal);
    });
    return () => {
      cancelled = true;
      uninstall?.();
    };
  }, [errorModal, notifications]);

  return null;
}
