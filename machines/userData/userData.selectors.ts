import type { SnapshotFrom } from 'xstate';
import type { UserDataMachine } from './userData.machine';

export type UserDataSnapshot = SnapshotFrom<UserDataMachine>;

/** user/data is being asked again after a change. */
export const selectIsSyncing = (s: UserDataSnapshot): boolean => s.hasTag('syncing');
/** The socket is down and the page visible: user/data is polled on the named interval. */
export const selectIsPolling = (s: UserDataSnapshot): boolean => s.hasTag('polling');
