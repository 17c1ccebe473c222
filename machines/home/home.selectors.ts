import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { copyFeedbackMachine } from '../copyFeedback/copyFeedback.machine';
import type { homeMachine } from './home.machine';

type HomeSnapshot = SnapshotFrom<typeof homeMachine>;
type CopyFeedbackRef = ActorRefFrom<typeof copyFeedbackMachine>;

export type HomeTab = 'getTicket' | 'invite';

export const selectActiveTab = (s: HomeSnapshot): HomeTab =>
  s.matches('invite') ? 'invite' : 'getTicket';
export const selectCodesLoading = (s: HomeSnapshot): boolean =>
  s.matches({ invite: { codes: 'loading' } });
/** Unused invite codes (code_status 0) among those the server returned. */
export const selectUnusedCodeCount = (s: HomeSnapshot): number =>
  s.context.codes.filter((c) => c.code_status === 0).length;
export const selectIsSharing = (s: HomeSnapshot): boolean =>
  s.matches({ invite: { link: 'sharing' } });

/** The invite link's copy feedback (a child of the Invite tab), if the tab is open. */
export const selectCopyFeedbackRef = (s: HomeSnapshot): CopyFeedbackRef | undefined =>
  s.children.copyFeedback as CopyFeedbackRef | undefined;
