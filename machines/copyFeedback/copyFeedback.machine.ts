import { assign, fromPromise, setup } from 'xstate';
import {
  COPY_FEEDBACK_MS,
  type CopyFeedbackContext,
  type CopyFeedbackEvent,
  type WriteClipboardInput,
} from './copyFeedback.types';

/** Holds the text of a copy: the clipboard write reads it. */
const setText = {
  type: 'setText' as const,
  params: ({ event }: { event: Extract<CopyFeedbackEvent, { type: 'copyFeedback.copy' }> }) => ({
    text: event.text,
  }),
};

/**
 * idle → copying (clipboard write, provided) → copied (2 s) → idle.
 * A failed write returns to idle with the `failed` flag; a new copy while "Copied!" shows
 * writes again and restarts the 2 s.
 */
export const copyFeedbackMachine = setup({
  types: {
    context: {} as CopyFeedbackContext,
    events: {} as CopyFeedbackEvent,
  },
  actors: {
    writeClipboard: fromPromise<void, WriteClipboardInput>(async () => {
      throw new Error('writeClipboard not provided');
    }),
  },
  actions: {
    clearFailure: assign({ failed: false }),
    setText: assign((_, params: { text: string }) => ({ text: params.text })),
    markFailure: assign({ failed: true }),
  },
  delays: {
    copyFeedback: COPY_FEEDBACK_MS,
  },
}).createMachine({
  id: 'copyFeedback',
  context: {
    failed: false,
    // Stryker disable next-line StringLiteral: every copy sets it before the clipboard write reads it
    text: '',
  },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'copyFeedback.copy': { target: 'copying', actions: ['clearFailure', setText] },
      },
    },
    copying: {
      invoke: {
        id: 'writeClipboard',
        src: 'writeClipboard',
        input: ({ context }) => ({ text: context.text }),
        onDone: { target: 'copied' },
        onError: { target: 'idle', actions: 'markFailure' },
      },
    },
    copied: {
      after: { copyFeedback: { target: 'idle' } },
      // No failure to clear here: `copied` follows a successful copy.
      on: {
        'copyFeedback.copy': { target: 'copying', actions: setText },
      },
    },
  },
});
