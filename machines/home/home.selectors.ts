import type { SnapshotFrom } from 'xstate';
import type { homeMachine } from './home.machine';

type HomeSnapshot = SnapshotFrom<typeof homeMachine>;

export type HomeTab = 'getTicket' | 'invite';

export const selectActiveTab = (s: HomeSnapshot): HomeTab =>
  s.matches('invite') ? 'invite' : 'getTicket';
export const selectCodesLoading = (s: HomeSnapshot): boolean =>
  s.matches({ invite: { codes: 'loading' } });
export const selectCodesFailed = (s: HomeSnapshot): boolean =>
  s.matches({ invite: { codes: 'failed' } });
/** Unused invite codes (code_status 0) among those the server returned. */
export const selectUnusedCodeCount = (s: HomeSnapshot): number =>
  s.context.codes.filter((c) => c.code_status === 0).length;
export const selectCodeCount = (s: HomeSnapshot): number => s.context.codes.length;
export const selectIsSharing = (s: HomeSnapshot): boolean =>
  s.matches({ invite: { link: 'sharing' } });
