/** Derived view data of the invitation service: one primitive per selector. */
import type { SnapshotFrom } from 'xstate';
import type { InvitationMachine } from './invitation.machine';

export type InvitationSnapshot = SnapshotFrom<InvitationMachine>;

export const selectTypedCode = (s: InvitationSnapshot): string => s.context.typed;
export const selectCodeNotice = (s: InvitationSnapshot): string | null => s.context.notice;
export const selectIsSubmitting = (s: InvitationSnapshot): boolean => s.hasTag('submitting');
/** What is said of an opened invite link whose code belongs to nobody, or null. */
export const selectUnknownLinkNotice = (s: InvitationSnapshot): string | null =>
  s.context.unknownLinkNotice;
