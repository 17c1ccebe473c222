import { fromPromise } from 'xstate';
import { copyFeedbackMachine } from '../../../machines/copyFeedback/copyFeedback.machine';
import { errorModalMachine } from '../../../machines/errorModal/errorModal.machine';
import { notificationsMachine } from '../../../machines/notifications/notifications.machine';
import { themeMachine } from '../../../machines/theme/theme.machine';
import { THEME_STORAGE_KEY } from '../../../machines/theme/theme.types';
import { logErrorToConsole } from '../../platform/errors';
import { navigateTo } from '../../platform/location';
import { applyThemeAttribute, writeClipboardText } from '../../platform/overlayServices';
import type { KeyValueStorage } from '../../platform/storage';

/**
 * The overlay services (notifications, errorModal, theme) with their browser parts: the site's
 * navigation (the router hears it) for toasts with a router_link, the clipboard for Copy Error
 * Details, the console for the global handler's log, the document attribute and storage for the
 * theme.
 */
export type OverlayDeps = {
  storage: KeyValueStorage;
  navigate?: (to: string) => void;
  writeClipboard?: (text: string) => Promise<void>;
  log?: typeof logErrorToConsole;
};

/** Toasts with a router_link navigate within the site (the router hears it). */
export function provideNotifications(deps: Partial<OverlayDeps> = {}) {
  const navigate = deps.navigate ?? navigateTo;
  return notificationsMachine.provide({
    actions: { navigate: (_, params) => navigate(params.to) },
  });
}

/** The global handler logs to the console; Copy Error Details writes to the clipboard. */
export function provideErrorModal(deps: Partial<OverlayDeps> = {}) {
  const writeClipboard = deps.writeClipboard ?? writeClipboardText;
  const log = deps.log ?? logErrorToConsole;
  return errorModalMachine.provide({
    actions: { logError: (_, params) => log(params.message, params.report) },
    actors: {
      copyFeedback: copyFeedbackMachine.provide({
        actors: { writeClipboard: fromPromise(({ input }) => writeClipboard(input.text)) },
      }),
    },
  });
}

/** Each theme is applied as data-theme on the document element and stored under `theme`. */
export function provideTheme(deps: Pick<OverlayDeps, 'storage'>) {
  return themeMachine.provide({
    actions: {
      applyTheme: (_, params) => {
        applyThemeAttribute(params.theme);
        deps.storage.set(THEME_STORAGE_KEY, params.theme);
      },
    },
  });
}
