import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { copyFeedbackMachine } from '../copyFeedback/copyFeedback.machine';
import { formatErrorTime, isKnownComponent, isKnownFile } from './errorDetails';
import type { errorModalMachine } from './errorModal.machine';

export type ErrorModalSnapshot = SnapshotFrom<typeof errorModalMachine>;

export const selectErrorModalOpen = (s: ErrorModalSnapshot): boolean => s.matches('shown');
export const selectErrorMessage = (s: ErrorModalSnapshot): string => s.context.info?.message ?? '';
export const selectErrorSolution = (s: ErrorModalSnapshot): string =>
  s.context.info?.solution ?? '';
/** The component, or '' when it is the unknown placeholder (the line is hidden). */
export const selectErrorComponent = (s: ErrorModalSnapshot): string => {
  const component = s.context.info?.component ?? '';
  return isKnownComponent(component) ? component : '';
};
/** The file, or '' when it is the unknown placeholder (the line is hidden). */
export const selectErrorFile = (s: ErrorModalSnapshot): string => {
  const file = s.context.info?.file ?? '';
  return isKnownFile(file) ? file : '';
};
export const selectErrorStack = (s: ErrorModalSnapshot): string => s.context.info?.stack ?? '';
export const selectErrorTime = (s: ErrorModalSnapshot): string =>
  s.context.info ? formatErrorTime(s.context.info.timestamp) : '';

/** The copy-feedback child while the modal is shown. */
export const selectCopyFeedbackRef = (
  s: ErrorModalSnapshot,
): ActorRefFrom<typeof copyFeedbackMachine> | undefined =>
  s.children.copyFeedback as ActorRefFrom<typeof copyFeedbackMachine> | undefined;
