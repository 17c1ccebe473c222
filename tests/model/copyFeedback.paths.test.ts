import { expect } from 'vitest';
import { createActor } from 'xstate';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { COPIED_LABEL } from '../../machines/copyFeedback/copyFeedback.types';
import { SPEC_MESSAGES } from '../support/oracle';
import {
  selectCopyFailed,
  selectIsCopied,
} from '../../machines/copyFeedback/copyFeedback.selectors';
import {
  actorProbe,
  advanceSpecDelay,
  checkProperty,
  controllable,
  defineModel,
  testPaths,
  type Driver,
  type Executors,
} from '../support/paths';
import { it } from 'vitest';

const TEXT = 'https://example.test/r/ABC';

const model = defineModel({
  name: 'copyFeedback',
  machine: copyFeedbackMachine,
  events: { 'copyFeedback.copy': [{ text: TEXT }] },
  outcomes: {
    'xstate.done.actor.writeClipboard': [{ output: undefined }],
    'xstate.error.actor.writeClipboard': [{ error: new Error('denied') }],
    'xstate.after.copyFeedback.copyFeedback.copied': [{}],
  },
});

function setup() {
  const write = controllable<void, { text: string }>();
  const actor = createActor(
    copyFeedbackMachine.provide({ actors: { writeClipboard: write.logic } }),
  );
  actor.start();
  return { actor, write };
}
type Ctx = ReturnType<typeof setup>;

const events = {
  'copyFeedback.copy': ({ ctx, event }) => ctx.actor.send(event),
  'xstate.done.actor.writeClipboard': ({ ctx }) => ctx.write.resolve(),
  'xstate.error.actor.writeClipboard': ({ ctx, event }) => ctx.write.reject(event.error),
  // §9: "Copied!" for 2 s, exactly (oracle), not the chart's own delay.
  'xstate.after.copyFeedback.copyFeedback.copied': ({ ctx, event }) =>
    advanceSpecDelay(event.type, actorProbe(ctx.actor)),
} satisfies Executors<typeof model, Ctx>;

const driver: Driver<typeof model, Ctx> = {
  setup,
  teardown: ({ actor }) => {
    actor.stop();
  },
  actual: ({ actor }) => actor.getSnapshot(),
  events,
  states: {
    idle: ({ ctx, snapshot }) => {
      expect(selectIsCopied(ctx.actor.getSnapshot())).toBe(false);
      expect(selectCopyFailed(ctx.actor.getSnapshot())).toBe(snapshot.context.failed);
    },
    copying: ({ ctx }) => {
      expect(ctx.write.calls.at(-1)).toEqual({ text: TEXT });
      expect(selectCopyFailed(ctx.actor.getSnapshot())).toBe(false);
    },
    copied: ({ ctx }) => {
      expect(selectIsCopied(ctx.actor.getSnapshot())).toBe(true);
      // The label the views show while copied, as §2 and §9 write it.
      expect(COPIED_LABEL).toBe(SPEC_MESSAGES.copied);
    },
  },
};

testPaths(model, driver);

it('"Copied!" shows only right after a successful write, and never together with the failure flag', () => {
  checkProperty('copy feedback: copied only after done', {
    machine: copyFeedbackMachine,
    events: model.events.map((e) => e.event),
    maxEvents: 30,
    invariant: ({ snapshot, previous, event }) =>
      (!snapshot.matches('copied') ||
        previous?.matches('copied') === true ||
        event?.type === 'xstate.done.actor.writeClipboard') &&
      !(snapshot.matches('copied') && snapshot.context.failed),
  });
});
