import { afterEach, beforeEach, describe, expect, vi } from 'vitest';
import { createActor } from 'xstate';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { COPIED_LABEL } from '../../machines/copyFeedback/copyFeedback.types';
import { SPEC_MESSAGES, SPEC_TIMERS } from '../support/oracle';
import {
  selectCopyFailed,
  selectIsCopied,
} from '../../machines/copyFeedback/copyFeedback.selectors';
import {
  actorDriver,
  actorProbe,
  advanceSpecDelay,
  checkModelProperty,
  controllable,
  defineModel,
  specExpect,
  testPaths,
  withSpecRecord,
} from '../support/paths';
import { it } from 'vitest';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

const TEXT = 'https://example.test/r/ABC';

const model = defineModel({
  name: 'copyFeedback',
  machine: copyFeedbackMachine,
  required: SPEC_TRANSITIONS.copyFeedback,
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

const driver = actorDriver(model, {
  setup,
  events: {
    'copyFeedback.copy': ({ ctx, event }) => ctx.actor.send(event),
    'xstate.done.actor.writeClipboard': ({ ctx }) => ctx.write.resolve(),
    'xstate.error.actor.writeClipboard': ({ ctx, event }) => ctx.write.reject(event.error),
    // §9: "Copied!" for 2 s, exactly (oracle), not the chart's own delay.
    'xstate.after.copyFeedback.copyFeedback.copied': ({ ctx, event }) =>
      advanceSpecDelay(event.type, actorProbe(ctx.actor)),
  },
  clauses: {
    idle: ['§2.copy.feedback'],
    copying: ['§2.copy.feedback'],
    copied: ['§2.copy.feedback'],
  },
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
});

/**
 * §2 and §9 from the events alone: a copy writes the text; 'Copied!' shows after a successful
 * write until 2 s have passed (the oracle's delay advances the clock); a refused write shows no
 * 'Copied!' and flags the failure until the next copy; a copy while 'Copied!' shows writes again.
 */
type CopyRecord = { phase: 'idle' | 'copying' | 'copied'; failed: boolean; writes: string[] };
const withRecord = withSpecRecord(model, driver, {
  clauses: ['§2.copy.feedback', '§9.timers.copy'],
  start: (): CopyRecord => ({ phase: 'idle', failed: false, writes: [] }),
  next: (x, event): CopyRecord => {
    switch (event.type) {
      case 'copyFeedback.copy':
        return x.phase === 'copying'
          ? x
          : { phase: 'copying', failed: false, writes: [...x.writes, event.text] };
      case 'xstate.done.actor.writeClipboard':
        return { ...x, phase: 'copied' };
      case 'xstate.error.actor.writeClipboard':
        return { ...x, phase: 'idle', failed: true };
      default:
        return { ...x, phase: 'idle' };
    }
  },
  check: (ctx, x) => {
    const live = ctx.actor.getSnapshot();
    specExpect('§2.copy.feedback', selectIsCopied(live), "'Copied!' shown").toBe(
      x.phase === 'copied',
    );
    specExpect('§2.copy.feedback', selectCopyFailed(live), 'the copy failed').toBe(x.failed);
    specExpect(
      '§2.copy.feedback',
      ctx.write.calls.map((c) => c.text),
      'texts written to the clipboard',
    ).toEqual(x.writes);
  },
});

testPaths(model, withRecord);

it('"Copied!" shows only right after a successful write, and never together with the failure flag', () => {
  checkModelProperty('copy feedback: copied only after done', model, {
    maxEvents: 30,
    invariant: ({ snapshot, previous, event }) =>
      (!snapshot.matches('copied') ||
        previous?.matches('copied') === true ||
        event?.type === 'xstate.done.actor.writeClipboard') &&
      !(snapshot.matches('copied') && snapshot.context.failed),
  });
});

/**
 * The spec's rules stated on their own (§2, §9), not walked from the chart: a path generated from
 * a chart that lost its 2 s return, or its restart, has nothing to walk and cannot miss it. These
 * can.
 */
describe("the spec's copy rules, whatever the chart", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const copied = (ctx: Ctx) => selectIsCopied(ctx.actor.getSnapshot());
  const failed = (ctx: Ctx) => selectCopyFailed(ctx.actor.getSnapshot());
  const copyAndWrite = async (ctx: Ctx) => {
    ctx.actor.send({ type: 'copyFeedback.copy', text: TEXT });
    ctx.write.resolve();
    await vi.advanceTimersByTimeAsync(0);
  };

  it('"Copied!" shows for exactly 2 s after a successful write, then the label returns', async () => {
    const ctx = setup();
    // Before any copy: the plain label, no failure.
    expect(copied(ctx)).toBe(false);
    expect(failed(ctx)).toBe(false);
    await copyAndWrite(ctx);
    expect(ctx.write.calls).toEqual([{ text: TEXT }]);
    expect(copied(ctx)).toBe(true);
    await vi.advanceTimersByTimeAsync(SPEC_TIMERS.copyFeedback - 1);
    expect(copied(ctx), 'still "Copied!" 1 ms before 2 s').toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(copied(ctx), 'the label returns at 2 s').toBe(false);
    expect(failed(ctx)).toBe(false);
    // And it copies again from there.
    await copyAndWrite(ctx);
    expect(ctx.write.calls).toHaveLength(2);
    expect(copied(ctx)).toBe(true);
    ctx.actor.stop();
  });

  it('a copy while "Copied!" shows writes again and restarts the 2 s', async () => {
    const ctx = setup();
    await copyAndWrite(ctx);
    await vi.advanceTimersByTimeAsync(SPEC_TIMERS.copyFeedback - 500);
    await copyAndWrite(ctx);
    expect(ctx.write.calls).toEqual([{ text: TEXT }, { text: TEXT }]);
    await vi.advanceTimersByTimeAsync(SPEC_TIMERS.copyFeedback - 1);
    expect(copied(ctx), 'the second copy has its own 2 s').toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(copied(ctx)).toBe(false);
    ctx.actor.stop();
  });

  it('a refused write never shows "Copied!" and flags the failure; the next copy clears it', async () => {
    const ctx = setup();
    ctx.actor.send({ type: 'copyFeedback.copy', text: TEXT });
    ctx.write.reject(new Error('denied'));
    await vi.advanceTimersByTimeAsync(0);
    expect(copied(ctx)).toBe(false);
    expect(failed(ctx)).toBe(true);
    ctx.actor.send({ type: 'copyFeedback.copy', text: TEXT });
    expect(failed(ctx), 'a new copy starts without the old failure').toBe(false);
    ctx.write.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(copied(ctx)).toBe(true);
    expect(failed(ctx)).toBe(false);
    ctx.actor.stop();
  });
});
