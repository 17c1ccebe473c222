import type { SnapshotFrom } from 'xstate';
import type { themeMachine } from './theme.machine';
import { DEFAULT_THEME, nextTheme, type Theme } from './theme.types';

export type ThemeSnapshot = SnapshotFrom<typeof themeMachine>;

export const selectTheme = (s: ThemeSnapshot): Theme =>
  s.matches('light') ? 'light' : s.matches('dark') ? 'dark' : DEFAULT_THEME;

export const selectNextTheme = (s: ThemeSnapshot): Theme => nextTheme(selectTheme(s));
