import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { EMPTY_STORED } from '../../machines/shared/stored';
import { themeMachine } from '../../machines/theme/theme.machine';
import { selectNextTheme, selectTheme } from '../../machines/theme/theme.selectors';
import { THEME_STORAGE_KEY, type Theme } from '../../machines/theme/theme.types';

const start = (stored: string | null) => {
  const applied: Theme[] = [];
  const actor = createActor(
    themeMachine.provide({
      actions: { applyTheme: (_, params) => void applied.push(params.theme) },
    }),
    { input: { stored: { ...EMPTY_STORED, theme: stored } } },
  ).start();
  return { actor, applied };
};

describe('theme machine', () => {
  it('is stored under the key theme', () => {
    expect(THEME_STORAGE_KEY).toBe('theme');
  });

  it('defaults to auto when nothing is stored', () => {
    const { actor, applied } = start(null);
    expect(selectTheme(actor.getSnapshot())).toBe('auto');
    expect(applied).toEqual(['auto']);
  });

  it('defaults to auto without any input', () => {
    const actor = createActor(themeMachine, { input: {} }).start();
    expect(selectTheme(actor.getSnapshot())).toBe('auto');
  });

  it.each(['light', 'dark', 'auto'] as const)('starts in a stored %s', (theme) => {
    const { actor, applied } = start(theme);
    expect(selectTheme(actor.getSnapshot())).toBe(theme);
    expect(applied).toEqual([theme]);
  });

  it('treats an unknown stored value as auto', () => {
    const { actor } = start('purple');
    expect(selectTheme(actor.getSnapshot())).toBe('auto');
  });

  it('cycles light → dark → auto → light, applying each', () => {
    const { actor, applied } = start('light');
    expect(selectNextTheme(actor.getSnapshot())).toBe('dark');
    actor.send({ type: 'theme.cycle' });
    expect(selectTheme(actor.getSnapshot())).toBe('dark');
    expect(selectNextTheme(actor.getSnapshot())).toBe('auto');
    actor.send({ type: 'theme.cycle' });
    expect(selectTheme(actor.getSnapshot())).toBe('auto');
    expect(selectNextTheme(actor.getSnapshot())).toBe('light');
    actor.send({ type: 'theme.cycle' });
    expect(selectTheme(actor.getSnapshot())).toBe('light');
    expect(applied).toEqual(['light', 'dark', 'auto', 'light']);
  });
});
