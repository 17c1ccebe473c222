/**
 * Theme of §4: light → dark → auto → light, stored under localStorage `theme`, applied as the
 * `data-theme` attribute of the document element. Default auto.
 *
 * `auto` is applied literally (`data-theme="auto"`): the CSS tokens follow
 * `prefers-color-scheme` for it, so a system change needs no script.
 */
export type Theme = 'light' | 'dark' | 'auto';

export const DEFAULT_THEME: Theme = 'auto';

/** Storage key of §3. */
export const THEME_STORAGE_KEY = 'theme';

export type ThemeEvent =
  /** Intent: move to the next theme of the cycle. */
  { type: 'theme.cycle' };

/** Parameters of the provided `applyTheme` action (sets the attribute and stores the value). */
export type ApplyThemeParams = { theme: Theme };

/**
 * The theme to restore from a stored value: light or dark as stored; anything else (auto, nothing,
 * a value outside the cycle) is the default, auto.
 */
export const restoredTheme = (value: unknown): Theme =>
  value === 'light' || value === 'dark' ? value : DEFAULT_THEME;

export const nextTheme = (theme: Theme): Theme =>
  theme === 'light' ? 'dark' : theme === 'dark' ? 'auto' : 'light';
