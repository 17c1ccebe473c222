import type {
  ErrorModalOpenPayload,
  ErrorReport,
} from '../../../machines/errorModal/errorModal.types';
import type {
  Information,
  Notification,
} from '../../../machines/notifications/notifications.types';
import { sanitizeToastHtml } from '../../platform/sanitize';
import type { ErrorModalRef, NotificationsRef } from './refs';

/**
 * Test-only entry points of the overlays, installed on `window.__smwOverlays` in local and
 * development builds only (the caller imports this module behind a build-mode check, so a
 * production build does not contain it). The browser tests push notifications, XSS payloads and
 * errors through the same services the app uses.
 */
export type OverlayDevHooks = {
  notify: (notification: Notification) => void;
  info: (information: Information) => void;
  reportError: (report: ErrorReport) => void;
  openError: (payload: ErrorModalOpenPayload) => void;
  openVideo: (src: string, autoplay?: boolean) => void;
  sanitize: (html: string) => string;
};

declare global {
  interface Window {
    __smwOverlays?: OverlayDevHooks;
  }
}

export function installOverlayDevHooks(
  notifications: NotificationsRef,
  errorModal: ErrorModalRef,
): () => void {
  window.__smwOverlays = {
    notify: (n) => notifications.send({ type: 'notify.show', ...n }),
    info: (i) => notifications.send({ type: 'info.show', ...i }),
    reportError: (report) => errorModal.send({ type: 'error.reported', report }),
    openError: (payload) => errorModal.send({ type: 'errorModal.open', ...payload }),
    openVideo: (src, autoplay) =>
      notifications.send({
        type: 'video.open',
        src,
        ...(autoplay === undefined ? {} : { autoplay }),
      }),
    sanitize: sanitizeToastHtml,
  };
  return () => {
    delete window.__smwOverlays;
  };
}
