import { fromPromise } from 'xstate';
import { navigate as browserNavigate } from 'wouter/use-browser-location';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { errorModalMachine } from '../../machines/errorModal/errorModal.machine';
import { notificationsMachine } from '../../machines/notifications/notifications.machine';
import { themeMachine } from '../../machines/theme/theme.machine';
import { THEME_STORAGE_KEY, type Theme } from '../../machines/theme/theme.types';
import { logErrorToConsole } from './errors';
import type { KeyValueStorage } from './storage';

/**
 * Browser implementations of the overlay services (notifications, errorModal, theme): wouter's
 * navigation for toasts with a router_link, the clipboard for Copy Error Details, the console
 * for the global handler's log, the document attribute and storage for the theme.
 */

/** Writes text to the clipboard; falls back to a hidden textarea where the async API is missing. */
export async function writeClipboardText(text: string): Promise<void> {
  if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('Clipboard is not available');
}

/** Sets `data-theme` on the document element (auto included: the tokens follow the system for it). */
export function applyThemeAttribute(
  theme: Theme,
  root: HTMLElement = document.documentElement,
): void {
  root.setAttribute('data-theme', theme);
}

export type OverlayDeps = {
  storage: KeyValueStorage;
  navigate?: (to: string) => void;
  writeClipboard?: (text: string) => Promise<void>;
  log?: typeof logErrorToConsole;
};

const defaultNavigate = (to: string) => browserNavigate(to);

/** Toasts with a router_link navigate with wouter's browser navigation. */
export function provideNotifications(deps: Partial<OverlayDeps> = {}) {
  const navigate = deps.navigate ?? defaultNavigate;
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
