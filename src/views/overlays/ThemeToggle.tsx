import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import { selectNextTheme, selectTheme } from '../../../machines/theme/theme.selectors';
import type { Theme } from '../../../machines/theme/theme.types';
import type { ThemeRef } from './refs';
import './overlays.css';

const LABEL: Record<Theme, string> = { light: 'light', dark: 'dark', auto: 'auto (system)' };
const ICON: Record<Theme, string> = { light: '☀', dark: '☾', auto: '◐' };

/** The theme control (§4): light → dark → auto → light. Its name says the current and the next theme. */
export function ThemeToggle({ actor }: { actor: ThemeRef }) {
  const theme = useSelector(actor, selectTheme);
  const next = useSelector(actor, selectNextTheme);
  const cycle = useCallback(() => actor.send({ type: 'theme.cycle' }), [actor]);
  const label = `Theme: ${LABEL[theme]}. Switch to ${LABEL[next]}`;
  return (
    <button
      type="button"
      className="theme-toggle"
      aria-label={label}
      title={label}
      data-theme-current={theme}
      data-testid="theme-toggle"
      data-tap="theme"
      onClick={cycle}
    >
      <span aria-hidden="true">{ICON[theme]}</span>
    </button>
  );
}
