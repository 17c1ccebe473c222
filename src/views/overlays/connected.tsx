import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { PartUnavailable } from '../common/PartUnavailable';
import { loadedView } from '../common/loadedView';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { installGlobalErrorHandler } from '../../platform/errors';
import { InformationBanner } from './InformationBanner';
import { retryableImport } from '../../platform/retryableImport';

/**
 * The overlays bound to the running app's services (mounted in the shell's Overlays slot; the
 * theme toggle in the site header).
 */
// The error modal, the toast (with DOMPurify) and the video modal are chunks of their own,
// requested when the shell mounts, outside the landing page's initial JS. They open from machine
// state that can change before their chunk arrives (an error, a notification), so they are
// loadedViews, not Suspense: nothing is hydrated against build-time HTML that has since changed.
const LoadedErrorModal = loadedView(
  retryableImport(
    () => import('./ErrorModal'),
    (m) => m.ErrorModal,
  ),
  'error modal',
);
const LoadedVideoModal = loadedView(
  retryableImport(
    () => import('./VideoModal'),
    (m) => m.VideoModal,
  ),
  'video modal',
);
const LoadedToast = loadedView(
  retryableImport(
    () => import('./Toast'),
    (m) => m.Toast,
  ),
  'toast',
);

export function ErrorModalOverlay() {
  return <LoadedErrorModal actor={useService(SYSTEM_IDS.errorModal)} fallback={null} />;
}

export function InformationBannerOverlay() {
  return <InformationBanner actor={useService(SYSTEM_IDS.notifications)} />;
}

// Until the toast's chunk arrives the same empty live region stands in, so screen readers still
// hear the first toast.
const emptyToastRegion = <div className="toast-region" role="status" aria-live="polite" />;

export function ToastOverlay() {
  return <LoadedToast actor={useService(SYSTEM_IDS.notifications)} fallback={emptyToastRegion} />;
}

export function VideoModalOverlay() {
  const notifications = useService(SYSTEM_IDS.notifications);
  // Read here without the selectors module, which belongs to the modal's chunk.
  const open = useSelector(notifications, (s) => s.matches({ video: 'open' }));
  return (
    <LoadedVideoModal
      actor={notifications}
      fallback={null}
      unavailable={
        open ? (
          <PartUnavailable
            variant="dialog"
            title="The video could not load"
            onClose={() => notifications.send({ type: 'video.close' })}
          />
        ) : null
      }
    />
  );
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
