import { useEffect, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, video[controls], [tabindex]:not([tabindex="-1"])';

/**
 * Focus handling of a modal dialog while it is open: focus moves into it, Tab and Shift+Tab stay
 * inside, Escape asks to close, and focus returns to where it was when the dialog closes.
 */
export function useDialogFocus(
  dialog: RefObject<HTMLElement | null>,
  open: boolean,
  onEscape: () => void,
): void {
  useEffect(() => {
    const node = dialog.current;
    if (!open || !node) return undefined;
    // Where focus goes back to: for a dialog opened by a tap held before the app ran (its frame
    // had focus meanwhile), the tapped control; else the control focused when it opened.
    const active = document.activeElement;
    const previous =
      window.__smwTapShell?.takeReturn() ?? (active instanceof HTMLElement ? active : null);
    const focusables = () => Array.from(node.querySelectorAll<HTMLElement>(FOCUSABLE));
    (focusables()[0] ?? node).focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onEscape();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables();
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) {
        event.preventDefault();
        node.focus();
        return;
      }
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !node.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !node.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      if (previous && previous.isConnected) previous.focus();
    };
  }, [dialog, open, onEscape]);
}
