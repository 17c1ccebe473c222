import { setup } from 'xstate';
import type { ServiceInput } from '../shared/stored';
import { restoredTheme, type ApplyThemeParams, type Theme, type ThemeEvent } from './theme.types';

/**
 * Starts in the stored theme (from the app's boot snapshot of storage; a missing or unknown
 * value means the default, auto), then cycles light → dark → auto → light. Each theme state
 * applies itself on entry through the provided `applyTheme` (attribute + storage).
 */
export const themeMachine = setup({
  types: {
    context: {} as { stored: Theme },
    events: {} as ThemeEvent,
    input: {} as Partial<ServiceInput>,
  },
  // Stryker disable next-line ObjectLiteral: a no-op placeholder; src/app/provide/overlays.ts provides applyTheme
  actions: {
    applyTheme: (_, _params: ApplyThemeParams) => {},
  },
  guards: {
    isStored: ({ context }, params: { theme: Theme }) => context.stored === params.theme,
  },
}).createMachine({
  id: 'theme',
  context: ({ input }) => ({ stored: restoredTheme(input.stored?.theme) }),
  initial: 'restoring',
  states: {
    /** Transient: routes to the stored theme at start. */
    restoring: {
      always: [
        { guard: { type: 'isStored', params: { theme: 'light' } }, target: 'light' },
        { guard: { type: 'isStored', params: { theme: 'dark' } }, target: 'dark' },
        { target: 'auto' },
      ],
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
