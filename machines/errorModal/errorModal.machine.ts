import { assertEvent, assign, enqueueActions, sendTo, setup } from 'xstate';
import { copyFeedbackMachine } from '../copyFeedback/copyFeedback.machine';
import { SYSTEM_IDS, sendToService } from '../systemIds';
import { classifyError } from './classifyError';
import { formatErrorDetails } from './errorDetails';
import {
  UNKNOWN_COMPONENT,
  UNKNOWN_FILE,
  type ErrorInfo,
  type ErrorModalContext,
  type ErrorModalEvent,
  type ErrorModalOpenPayload,
  type ErrorReport,
  type LogErrorParams,
} from './errorModal.types';

/** The report of an `error.reported` event (the only event the handler's guards and actions see). */
const reportOf = (event: ErrorModalEvent): ErrorReport => {
  assertEvent(event, 'error.reported');
  return event.report;
};

/** What the provided `logError` action receives for a reported error. */
const logParams = ({ event }: { event: ErrorModalEvent }): LogErrorParams => {
  const report = reportOf(event);
  return { message: classifyError(report).message, report };
};

/** Where and when: the fields an opened error and a reported one share (blank means unknown). */
type Whereabouts = Pick<
  ErrorModalOpenPayload,
  'component' | 'file' | 'stack' | 'location' | 'timestamp'
>;
const whereabouts = (from: Whereabouts): Omit<ErrorInfo, 'message' | 'solution'> => ({
  component: from.component?.trim() || UNKNOWN_COMPONENT,
  file: from.file?.trim() || UNKNOWN_FILE,
  stack: from.stack ?? '',
  location: from.location ?? '',
  timestamp: from.timestamp ?? Date.now(),
});

const infoFrom = (event: ErrorModalEvent): ErrorInfo => {
  if (event.type === 'errorModal.open') {
    return { message: event.message, solution: event.solution ?? '', ...whereabouts(event) };
  }
  const report = reportOf(event);
  const outcome = classifyError(report);
  return {
    message: outcome.message,
    solution: outcome.kind === 'modal' ? outcome.solution : '',
    ...whereabouts(report),
  };
};

/**
 * hidden ⇄ shown. `errorModal.open` shows the given error; `error.reported` (the global handler)
 * is logged first, then classified: a modal, a warning in the information banner, or nothing more.
 * While shown, a copyFeedback child writes the details to the clipboard ("Copied!" 2 s).
 * A new error while shown replaces the one on screen.
 */
export const errorModalMachine = setup({
  types: {
    context: {} as ErrorModalContext,
    events: {} as ErrorModalEvent,
  },
  actors: {
    copyFeedback: copyFeedbackMachine,
  },
  actions: {
    logError: (_, _params: LogErrorParams) => {},
    storeInfo: assign({ info: ({ event }) => infoFrom(event) }),
    clearInfo: assign({ info: null }),
    showWarning: enqueueActions((queue) =>
      sendToService(queue, SYSTEM_IDS.notifications, {
        type: 'info.show',
        message: classifyError(reportOf(queue.event)).message,
        messageType: 'warning',
      }),
    ),
    copyDetails: sendTo('copyFeedback', ({ context }) => ({
      type: 'copyFeedback.copy' as const,
      // Stryker disable next-line StringLiteral: `shown` always holds info (stored on every way in)
      text: context.info ? formatErrorDetails(context.info) : '',
    })),
  },
  guards: {
    isWarning: ({ event }) => classifyError(reportOf(event)).kind === 'warning',
    isLogOnly: ({ event }) => classifyError(reportOf(event)).kind === 'logOnly',
    isModal: ({ event }) => classifyError(reportOf(event)).kind === 'modal',
  },
}).createMachine({
  id: 'errorModal',
  context: { info: null },
  initial: 'hidden',
  on: {
    'errorModal.open': { target: '.shown', actions: 'storeInfo' },
    'error.reported': [
      {
        guard: 'isLogOnly',
        actions: { type: 'logError', params: logParams },
      },
      {
        guard: 'isWarning',
        actions: [{ type: 'logError', params: logParams }, 'showWarning'],
      },
      {
        guard: 'isModal',
        target: '.shown',
        actions: [{ type: 'logError', params: logParams }, 'storeInfo'],
      },
    ],
  },
  states: {
    hidden: {},
    shown: {
      invoke: { id: 'copyFeedback', src: 'copyFeedback' },
      on: {
        'errorModal.close': { target: 'hidden', actions: 'clearInfo' },
        'errorModal.copyDetails': { actions: 'copyDetails' },
      },
    },
  },
});
