import { useEffect } from 'react';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { installGlobalErrorHandler } from '../../platform/errors';
import { ErrorModal } from './ErrorModal';
import { InformationBanner } from './InformationBanner';
import { ThemeToggle } from './ThemeToggle';
import { Toast } from './Toast';
import { VideoModal } from './VideoModal';

/**
 * The overlays bound to the running app's services (mounted in the shell's Overlays slot; the
 * theme toggle in the site header).
 */
export function ErrorModalOverlay() {
  return <ErrorModal actor={useService(SYSTEM_IDS.errorModal)} />;
}

export function InformationBannerOverlay() {
  return <InformationBanner actor={useService(SYSTEM_IDS.notifications)} />;
}

export function ToastOverlay() {
  return <Toast actor={useService(SYSTEM_IDS.notifications)} />;
}

export function VideoModalOverlay() {
  return <VideoModal actor={useService(SYSTEM_IDS.notifications)} />;
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
