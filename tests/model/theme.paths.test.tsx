// @vitest-environment happy-dom
import { act, fireEvent, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { createActor } from 'xstate';
import { EMPTY_STORED } from '../../machines/shared/stored';
import { themeMachine } from '../../machines/theme/theme.machine';
import { selectTheme } from '../../machines/theme/theme.selectors';
import type { Theme } from '../../machines/theme/theme.types';
import { provideTheme } from '../../src/app/provide/overlays';
import type { KeyValueStorage } from '../../src/platform/storage';
import { ThemeToggle } from '../../src/views/overlays/ThemeToggle';
import {
  actorDriver,
  checkModelProperty,
  defineModel,
  specExpect,
  testPaths,
  withSpecRecord,
  withView,
  type Executors,
  type SpecRecord,
} from '../support/paths';
import { SPEC_THEME } from '../support/oracle';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

const model = defineModel({
  name: 'theme',
  machine: themeMachine,
  required: SPEC_TRANSITIONS.theme,
  input: { stored: EMPTY_STORED },
  // A stored light or dark theme restores it at start.
  inputs: [
    { stored: { ...EMPTY_STORED, theme: 'light' } },
    { stored: { ...EMPTY_STORED, theme: 'dark' } },
    { stored: { ...EMPTY_STORED, theme: 'auto' } },
    // Not a theme of the cycle, or nothing stored at all: the default.
    { stored: { ...EMPTY_STORED, theme: 'neon' } },
    {},
  ],
  events: { 'theme.cycle': [{}] },
});

const LABEL: Record<Theme, string> = { light: 'light', dark: 'dark', auto: 'auto (system)' };

/** The app's own theme machine (document attribute and storage), over a storage map. */
function setupActor({ input }: { input: unknown } = { input: undefined }) {
  const stored = new Map<string, string>();
  const storage: KeyValueStorage = {
    get: (key) => stored.get(key) ?? null,
    set: (key, value) => void stored.set(key, value),
    remove: (key) => void stored.delete(key),
  };
  const actor = createActor(provideTheme({ storage }), {
    input: (input as { stored: typeof EMPTY_STORED } | undefined) ?? { stored: EMPTY_STORED },
  });
  actor.start();
  // §4: the stored theme is restored at start; nothing (or nothing valid) stored means auto.
  const storedTheme = (input as { stored?: { theme?: unknown } } | undefined)?.stored?.theme;
  const restored = SPEC_THEME.cycle.find((t) => t === storedTheme) ?? SPEC_THEME.default;
  expect(selectTheme(actor.getSnapshot()), '§4 the stored theme at start, default auto').toBe(
    restored,
  );
  expect(stored.get(SPEC_THEME.storageKey), '§4 the theme at start is applied and stored').toBe(
    restored,
  );
  expect(document.documentElement.getAttribute('data-theme'), '§4 applied as data-theme').toBe(
    restored,
  );
  return { actor, stored };
}
type Ctx = ReturnType<typeof setupActor>;

/** The same check in each state of the cycle (the state is named by its theme), for §4's cycle. */
const eachTheme = (check: (ctx: Ctx, theme: Theme) => void) => ({
  clauses: Object.fromEntries(SPEC_THEME.cycle.map((theme) => [theme, ['§4.theme.cycle']])),
  states: Object.fromEntries(
    SPEC_THEME.cycle.map((theme) => [theme, ({ ctx }: { ctx: Ctx }) => check(ctx, theme)]),
  ),
});

const expectApplied = (ctx: Ctx, theme: Theme) => {
  expect(selectTheme(ctx.actor.getSnapshot())).toBe(theme);
  expect(document.documentElement.getAttribute('data-theme')).toBe(theme);
  expect(ctx.stored.get(SPEC_THEME.storageKey)).toBe(theme);
};

/**
 * §4 Theme cycle from the events alone: the stored theme (one of the cycle) or auto at start,
 * then light → dark → auto → light; stored under `theme` and applied as data-theme.
 */
const themeRecord: SpecRecord<Ctx, { theme: Theme }, { type: 'theme.cycle' }> = {
  clauses: ['§4.theme.cycle', '§3.storage.keys'],
  start: ({ input }) => {
    const stored = (input as { stored?: { theme?: unknown } } | undefined)?.stored?.theme;
    return { theme: SPEC_THEME.cycle.find((t) => t === stored) ?? SPEC_THEME.default };
  },
  next: (x) => ({ theme: SPEC_THEME.next[x.theme] }),
  check: (ctx, x) => {
    specExpect('§4.theme.cycle', selectTheme(ctx.actor.getSnapshot()), 'the theme').toBe(x.theme);
    specExpect(
      '§4.theme.cycle',
      document.documentElement.getAttribute('data-theme'),
      'data-theme on the document',
    ).toBe(x.theme);
    specExpect('§3.storage.keys', ctx.stored.get(SPEC_THEME.storageKey), 'stored theme').toBe(
      x.theme,
    );
  },
};

const actorPaths = actorDriver(model, {
  setup: setupActor,
  events: {
    'theme.cycle': ({ ctx }) => ctx.actor.send({ type: 'theme.cycle' }),
  } satisfies Executors<typeof model, Ctx>,
  ...eachTheme(expectApplied),
});

testPaths(model, withSpecRecord(model, actorPaths, themeRecord));

/** The same paths through the rendered toggle: a player clicks it; its name says current and next. */
const expectToggle = (ctx: Ctx, theme: Theme) => {
  expectApplied(ctx, theme);
  expect(
    screen.getByRole('button', {
      name: `Theme: ${LABEL[theme]}. Switch to ${LABEL[SPEC_THEME.next[theme]]}`,
    }),
  ).toBeInTheDocument();
};

/** The actor's setup, then the views that read it, rendered. */
const renderedView = withView(setupActor, (ctx) => <ThemeToggle actor={ctx.actor} />);

const viewDriver = actorDriver(model, {
  setup: renderedView,
  events: {
    'theme.cycle': () => {
      act(() => {
        fireEvent.click(screen.getByRole('button', { name: /^Theme:/ }));
      });
    },
  } satisfies Executors<typeof model, Ctx>,
  ...eachTheme(expectToggle),
});

testPaths(model, withSpecRecord(model, viewDriver, themeRecord), 'view');

it('three cycles always come back to the same theme', () => {
  checkModelProperty('theme: the cycle has period 3', model, {
    input: { stored: EMPTY_STORED },
    maxEvents: 30,
    invariant: ({ snapshot, history }) => {
      const cycles = history.filter((e) => e.type === 'theme.cycle').length;
      const expected: Theme[] = ['auto', 'light', 'dark'];
      return selectTheme(snapshot) === expected[cycles % 3];
    },
  });
});
