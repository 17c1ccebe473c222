import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { copyFeedbackMachine } from '../../../machines/copyFeedback/copyFeedback.machine';
import { devInspect, inspectorStore, sendToLive } from '../../../src/devtools/inspector';

/**
 * An event the developer sends from the visualiser reaches the live actor as the site's own do:
 * the actor takes it, the log lists it (marked as sent from the visualiser) and the actor's
 * history records it as a step, the one "Save as test" writes.
 */
describe('sending an event to a live actor', () => {
  it('the actor takes it, the log marks it, and its history records the step', () => {
    const actor = createActor(copyFeedbackMachine, { inspect: devInspect });
    actor.start();
    try {
      const store = inspectorStore();
      const live = store.actors.get(actor.sessionId);
      expect(live?.machineId).toBe('copyFeedback');

      sendToLive(live!, { type: 'copyFeedback.copy', text: 'https://example.com/r/ABC' });

      expect(actor.getSnapshot().value).toBe('copying');
      const logged = store.events.find((e) => e.type === 'copyFeedback.copy');
      expect(logged?.fromVisualiser).toBe(true);
      const history = store.histories.get(actor.sessionId);
      expect(history?.steps.map((s) => [s.event.type, s.snapshot.value])).toEqual([
        ['copyFeedback.copy', 'copying'],
      ]);
      // What the actor's own children send it is not marked.
      actor.send({ type: 'xstate.error.actor.writeClipboard', actorId: 'writeClipboard' } as never);
      const own = store.events.find((e) => e.type === 'xstate.error.actor.writeClipboard');
      expect(own?.fromVisualiser).toBeUndefined();
    } finally {
      actor.stop();
    }
  });
});
