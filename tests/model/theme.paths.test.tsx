// @vitest-environment happy-dom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { createActor } from 'xstate';
import { EMPTY_STORED } from '../../machines/shared/stored';
import { themeMachine } from '../../machines/theme/theme.machine';
import { selectTheme } from '../../machines/theme/theme.selectors';
import { nextTheme, type Theme } from '../../machines/theme/theme.types';
import { ThemeToggle } from '../../src/views/overlays/ThemeToggle';
import {
  checkProperty,
  defineModel,
  testPaths,
  type Driver,
  type Executors,
} from '../support/paths';

const STARTS_ELSEWHERE =
  'the model starts with nothing stored (auto); starting in a stored light or dark is a different input, covered by tests/unit/theme.machine.test.ts "starts in a stored light/dark"';

const model = defineModel({
  name: 'theme',
  machine: themeMachine,
  input: { stored: EMPTY_STORED },
  events: { 'theme.cycle': [{}] },
  uncovered: {
    'theme.restoring':
      'transient: its always transitions leave it within the start step, so no path rests in it (its exit to auto is covered)',
    'theme.restoring · always [isStored] → theme.light': STARTS_ELSEWHERE,
    'theme.restoring · always [isStored] → theme.dark': STARTS_ELSEWHERE,
  },
});

const LABEL: Record<Theme, string> = { light: 'light', dark: 'dark', auto: 'auto (system)' };

/** The machine with the real document attribute and a storage map, as the browser runs it. */
function setupActor() {
  const stored = new Map<string, string>();
  const actor = createActor(
    themeMachine.provide({
      actions: {
        applyTheme: (_, { theme }) => {
          document.documentElement.setAttribute('data-theme', theme);
          stored.set('theme', theme);
        },
      },
    }),
    { input: { stored: EMPTY_STORED } },
  );
  actor.start();
  return { actor, stored };
}
type Ctx = ReturnType<typeof setupActor>;

const expectApplied = (ctx: Ctx, theme: Theme) => {
  expect(selectTheme(ctx.actor.getSnapshot())).toBe(theme);
  expect(document.documentElement.getAttribute('data-theme')).toBe(theme);
  expect(ctx.stored.get('theme')).toBe(theme);
};

const actorDriver: Driver<typeof model, Ctx> = {
  setup: setupActor,
  teardown: ({ actor }) => {
    actor.stop();
  },
  actual: ({ actor }) => actor.getSnapshot(),
  events: {
    'theme.cycle': ({ ctx }) => ctx.actor.send({ type: 'theme.cycle' }),
  } satisfies Executors<typeof model, Ctx>,
  states: {
    light: ({ ctx }) => expectApplied(ctx, 'light'),
    dark: ({ ctx }) => expectApplied(ctx, 'dark'),
    auto: ({ ctx }) => expectApplied(ctx, 'auto'),
  },
};

testPaths(model, actorDriver);

/** The same paths through the rendered toggle: a player clicks it; its name says current and next. */
const expectToggle = (ctx: Ctx, theme: Theme) => {
  expectApplied(ctx, theme);
  expect(
    screen.getByRole('button', {
      name: `Theme: ${LABEL[theme]}. Switch to ${LABEL[nextTheme(theme)]}`,
    }),
  ).toBeInTheDocument();
};

const viewDriver: Driver<typeof model, Ctx> = {
  setup: () => {
    const ctx = setupActor();
    render(<ThemeToggle actor={ctx.actor} />);
    return ctx;
  },
  teardown: ({ actor }) => {
    actor.stop();
  },
  actual: ({ actor }) => actor.getSnapshot(),
  events: {
    'theme.cycle': () => {
      act(() => {
        fireEvent.click(screen.getByRole('button', { name: /^Theme:/ }));
      });
    },
  } satisfies Executors<typeof model, Ctx>,
  states: {
    light: ({ ctx }) => expectToggle(ctx, 'light'),
    dark: ({ ctx }) => expectToggle(ctx, 'dark'),
    auto: ({ ctx }) => expectToggle(ctx, 'auto'),
  },
};

testPaths(model, viewDriver, 'view');

it('three cycles always come back to the same theme', () => {
  checkProperty('theme: the cycle has period 3', {
    machine: themeMachine,
    input: { stored: EMPTY_STORED },
    events: model.events.map((e) => e.event),
    maxEvents: 30,
    invariant: ({ snapshot, history }) => {
      const cycles = history.filter((e) => e.type === 'theme.cycle').length;
      const expected: Theme[] = ['auto', 'light', 'dark'];
      return selectTheme(snapshot) === expected[cycles % 3];
    },
  });
});
