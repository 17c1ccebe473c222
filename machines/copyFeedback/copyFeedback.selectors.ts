import type { SnapshotFrom } from 'xstate';
import type { copyFeedbackMachine } from './copyFeedback.machine';

export type CopyFeedbackSnapshot = SnapshotFrom<typeof copyFeedbackMachine>;

export const selectIsCopied = (s: CopyFeedbackSnapshot): boolean => s.matches('copied');
export const selectCopyFailed = (s: CopyFeedbackSnapshot): boolean => s.context.failed;
