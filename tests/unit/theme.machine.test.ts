import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { themeMachine } from '../../machines/theme/theme.machine';
import { selectNextTheme, selectTheme } from '../../machines/theme/theme.selectors';
import type { Theme } from '../../machines/theme/theme.types';

const start = (stored: () => Promise<string | null>) => {
  const applied: Theme[] = [];
  const actor = createActor(
    themeMachine.provide({
      actors: { readStoredTheme: fromPromise(stored) },
      actions: { applyTheme: (_, params) => void applied.push(params.theme) },
    }),
  ).start();
  return { actor, applied };
};

describe('theme machine', () => {
  it('defaults to auto when nothing is stored', async () => {
    const { actor, applied } = start(async () => null);
    await waitFor(actor, (s) => !s.matches('restoring'));
    expect(selectTheme(actor.getSnapshot())).toBe('auto');
    expect(applied).toEqual(['auto']);
  });

  it.each(['light', 'dark', 'auto'] as const)('restores a stored %s', async (theme) => {
    const { actor, applied } = start(async () => theme);
    await waitFor(actor, (s) => !s.matches('restoring'));
    expect(selectTheme(actor.getSnapshot())).toBe(theme);
    expect(applied).toEqual([theme]);
  });

  it('treats an unknown stored value or an unreadable storage as auto', async () => {
    const garbage = start(async () => 'purple');
    await waitFor(garbage.actor, (s) => !s.matches('restoring'));
    expect(selectTheme(garbage.actor.getSnapshot())).toBe('auto');
    const failing = start(async () => {
      throw new Error('SecurityError');
    });
    await waitFor(failing.actor, (s) => !s.matches('restoring'));
    expect(failing.applied).toEqual(['auto']);
  });

  it('cycles light → dark → auto → light, applying each', async () => {
    const { actor, applied } = start(async () => 'light');
    await waitFor(actor, (s) => !s.matches('restoring'));
    expect(selectNextTheme(actor.getSnapshot())).toBe('dark');
    actor.send({ type: 'theme.cycle' });
    expect(selectTheme(actor.getSnapshot())).toBe('dark');
    actor.send({ type: 'theme.cycle' });
    expect(selectTheme(actor.getSnapshot())).toBe('auto');
    actor.send({ type: 'theme.cycle' });
    expect(selectTheme(actor.getSnapshot())).toBe('light');
    expect(applied).toEqual(['light', 'dark', 'auto', 'light']);
  });
});
