import type { SnapshotFrom } from 'xstate';
import type { AppMachine } from './app.machine';

export type AppSnapshot = SnapshotFrom<AppMachine>;

/** App load ends when the session bootstrap ends, also on failure (§4 App load). */
export const selectIsLoaded = (s: AppSnapshot): boolean => !s.matches({ boot: 'loading' });
export const selectHasError = (s: AppSnapshot): boolean => s.context.error !== null;
export const selectErrorText = (s: AppSnapshot): string => s.context.error?.text ?? '';
/** The loader shows until loaded, and whenever an application error is set (§2 Shell). */
export const selectShowLoader = (s: AppSnapshot): boolean =>
  s.matches({ boot: 'loading' }) || s.context.error !== null;
/** The member services (payment, realtime, user data) have been spawned. */
export const selectMembersRunning = (s: AppSnapshot): boolean => s.matches({ members: 'running' });
