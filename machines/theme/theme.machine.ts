import { fromPromise, setup } from 'xstate';
import {
  DEFAULT_THEME,
  isTheme,
  type ApplyThemeParams,
  type Theme,
  type ThemeEvent,
} from './theme.types';

/**
 * restoring (reads the stored theme, provided) → light | dark | auto, then the cycle
 * light → dark → auto → light. Each theme state applies and stores itself on entry.
 * A missing, unreadable or unknown stored value means the default, auto.
 */
export const themeMachine = setup({
  types: {
    events: {} as ThemeEvent,
  },
  actors: {
    readStoredTheme: fromPromise<string | null>(async () => {
      throw new Error('readStoredTheme not provided');
    }),
  },
  actions: {
    applyTheme: (_, _params: ApplyThemeParams) => {},
  },
  guards: {
    isStored: ({ event }, params: { theme: Theme }) => {
      const stored = 'output' in event && isTheme(event.output) ? event.output : DEFAULT_THEME;
      return stored === params.theme;
    },
  },
}).createMachine({
  id: 'theme',
  initial: 'restoring',
  states: {
    restoring: {
      invoke: {
        id: 'readStoredTheme',
        src: 'readStoredTheme',
        onDone: [
          { guard: { type: 'isStored', params: { theme: 'light' } }, target: 'light' },
          { guard: { type: 'isStored', params: { theme: 'dark' } }, target: 'dark' },
          { target: 'auto' },
        ],
        onError: { target: 'auto' },
      },
    },
    light: {
      entry: { type: 'applyTheme', params: { theme: 'light' } },
      on: { 'theme.cycle': { target: 'dark' } },
    },
    dark: {
      entry: { type: 'applyTheme', params: { theme: 'dark' } },
      on: { 'theme.cycle': { target: 'auto' } },
    },
    auto: {
      entry: { type: 'applyTheme', params: { theme: 'auto' } },
      on: { 'theme.cycle': { target: 'light' } },
    },
  },
});
