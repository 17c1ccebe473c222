import { assign, sendTo, setup } from 'xstate';
import { copyFeedbackMachine } from '../copyFeedback/copyFeedback.machine';
import { SYSTEM_IDS } from '../systemIds';
import { classifyError } from './classifyError';
import { formatErrorDetails } from './errorDetails';
import {
  UNKNOWN_COMPONENT,
  UNKNOWN_FILE,
  type ErrorInfo,
  type ErrorModalContext,
  type ErrorModalEvent,
  type ErrorReport,
  type LogErrorParams,
} from './errorModal.types';

const reportOf = (event: ErrorModalEvent): ErrorReport =>
  event.type === 'error.reported' ? event.report : {};

const infoFrom = (event: ErrorModalEvent): ErrorInfo | null => {
  if (event.type === 'errorModal.open') {
    return {
      message: event.message,
      solution: event.solution ?? '',
      component: event.component || UNKNOWN_COMPONENT,
      file: event.file || UNKNOWN_FILE,
      stack: event.stack ?? '',
      location: event.location ?? '',
      timestamp: event.timestamp ?? Date.now(),
    };
  }
  if (event.type === 'error.reported') {
    const outcome = classifyError(event.report);
    const { report } = event;
    return {
      message: outcome.message,
      solution: outcome.kind === 'modal' ? outcome.solution : '',
      component: report.component || UNKNOWN_COMPONENT,
      file: report.file || UNKNOWN_FILE,
      stack: report.stack ?? '',
      location: report.location ?? '',
      timestamp: report.timestamp ?? Date.now(),
    };
  }
  return null;
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
    showWarning: sendTo(
      ({ system }) => system.get(SYSTEM_IDS.notifications),
      ({ event }) => ({
        type: 'info.show' as const,
        message: classifyError(reportOf(event)).message,
        messageType: 'warning' as const,
      }),
    ),
    copyDetails: sendTo('copyFeedback', ({ context }) => ({
      type: 'copyFeedback.copy' as const,
      text: context.info ? formatErrorDetails(context.info) : '',
    })),
  },
  guards: {
    isWarning: ({ event }) => classifyError(reportOf(event)).kind === 'warning',
    isLogOnly: ({ event }) => classifyError(reportOf(event)).kind === 'logOnly',
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
        actions: {
          type: 'logError',
          params: ({ event }) => ({
            message: classifyError(event.report).message,
            report: event.report,
          }),
        },
      },
      {
        guard: 'isWarning',
        actions: [
          {
            type: 'logError',
            params: ({ event }) => ({
              message: classifyError(event.report).message,
              report: event.report,
            }),
          },
          'showWarning',
        ],
      },
      {
        target: '.shown',
        actions: [
          {
            type: 'logError',
            params: ({ event }) => ({
              message: classifyError(event.report).message,
              report: event.report,
            }),
          },
          'storeInfo',
        ],
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
