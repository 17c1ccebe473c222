import type { Theme } from '../../machines/theme/theme.types';

/**
 * Browser parts the overlay services use (src/app/provide/overlays.ts wires them): the
 * clipboard for Copy Error Details and the invite link, the document attribute for the theme.
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
