import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise } from 'xstate';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { notificationsMachine } from '../../machines/notifications/notifications.machine';
import { COPY_FEEDBACK_MS } from '../../machines/copyFeedback/copyFeedback.types';
import { devInspect, inspectorStore } from '../../src/devtools/inspector';
import {
  loadRecording,
  recordingToTestFile,
  saveRecording,
  snapshotChange,
  type Recording,
} from '../../src/devtools/recording';
import { ManualClock, recordingFromLive, SandboxSession } from '../../src/devtools/sandbox';
import { checkRecording } from '../support/paths/recording';
import { SPEC_TIMERS } from '../support/oracle';

/**
 * The visualiser's sandbox records what it did (time travel replays it) and "Save as test" turns
 * the recording into a file whose replay fails when the machine no longer behaves as recorded.
 */
function recordCopy(): SandboxSession {
  const session = new SandboxSession('copyFeedback', copyFeedbackMachine, {});
  session.send({ type: 'copyFeedback.copy', text: 'https://example.com/r/ABC' });
  session.send({ type: 'xstate.done.actor.writeClipboard', actorId: 'writeClipboard' });
  session.after('copyFeedback', 'xstate.after.copyFeedback.copyFeedback.copied');
  return session;
}

describe('sandbox session', () => {
  it('records each step with the snapshot it led to; a delay moves time by its ms', () => {
    const session = recordCopy();
    const steps = session.steps;
    expect(steps.map((s) => s.snapshot.value)).toEqual(['copying', 'copied', 'idle']);
    const delay = steps[2];
    expect(delay?.kind).toBe('delay');
    // The spec's 2 s "Copied!" (oracle), not the machine's own constant.
    expect(delay?.kind === 'delay' ? delay.ms : null).toBe(SPEC_TIMERS.copyFeedback);
    expect(delay?.kind === 'delay' ? delay.beforeDue.value : null).toBe('copied');
    session.stop();
  });

  it('time travel: back, forward and jump arrive at the recorded snapshots', () => {
    const session = recordCopy();
    session.back();
    expect(session.snapshot().value).toBe('copied');
    session.back();
    expect(session.snapshot().value).toBe('copying');
    session.jump(0);
    expect(session.snapshot().value).toBe('idle');
    expect(session.position).toBe(0);
    session.forward();
    session.forward();
    expect(session.snapshot().value).toBe('copied');
    session.jump(99);
    expect(session.position).toBe(3);
    expect(session.snapshot().value).toBe('idle');
    session.stop();
  });

  it('a new step after going back drops the steps ahead', () => {
    const session = recordCopy();
    session.jump(1);
    session.send({ type: 'xstate.error.actor.writeClipboard', actorId: 'writeClipboard' });
    expect(session.steps).toHaveLength(2);
    expect(session.snapshot().value).toBe('idle');
    expect(session.snapshot().context).toEqual({ failed: true, text: 'https://example.com/r/ABC' });
    expect(session.recording().steps).toHaveLength(2);
    session.stop();
  });

  it('the recording holds the steps up to the cursor', () => {
    const session = recordCopy();
    session.jump(2);
    expect(session.recording().steps.map((s) => s.snapshot.value)).toEqual(['copying', 'copied']);
    session.stop();
  });
});

describe('sandbox delays that overlap', () => {
  it('a delay button moves time on only until that delay falls due', () => {
    const session = new SandboxSession('notifications', notificationsMachine, {});
    session.send({ type: 'notify.show', message: 'one', messageType: 'success' });
    session.send({ type: 'notify.show', message: 'two', messageType: 'info' });
    session.send({ type: 'info.show', message: 'banner', messageType: 'warning' });
    const toast = 'xstate.after.notificationDuration.notifications.toast.showing';
    const banner = 'xstate.after.informationDuration.notifications.banner.visible';
    session.after('notificationDuration', toast);
    session.after('informationDuration', banner);
    session.after('notificationDuration', toast);
    // The spec: each toast 3.5 s, the banner 5 s from when it showed.
    expect(session.steps.slice(3).map((s) => (s.kind === 'delay' ? s.ms : null))).toEqual([
      SPEC_TIMERS.notification,
      SPEC_TIMERS.informationBanner - SPEC_TIMERS.notification,
      2 * SPEC_TIMERS.notification - SPEC_TIMERS.informationBanner,
    ]);
    expect(session.snapshot().value).toEqual({ toast: 'idle', banner: 'hidden', video: 'closed' });
    session.stop();
  });
});

describe('a saved recording replayed', () => {
  const recording: Recording = recordCopy().recording();

  it('passes against the machine it was recorded from', () => {
    expect(() => checkRecording(copyFeedbackMachine, recording)).not.toThrow();
  });

  it('fails at the delay when "Copied!" returns to idle too early', () => {
    const early = copyFeedbackMachine.provide({ delays: { copyFeedback: COPY_FEEDBACK_MS - 500 } });
    expect(() => checkRecording(early, recording)).toThrow(
      /step 3 of 3 \(after copyFeedback \(\+2000 ms\)\), 1 ms before the delay is due: state/,
    );
  });

  it('fails at the delay when "Copied!" stays too long', () => {
    const late = copyFeedbackMachine.provide({ delays: { copyFeedback: COPY_FEEDBACK_MS + 1 } });
    expect(() => checkRecording(late, recording)).toThrow(
      /step 3 of 3 \(after copyFeedback \(\+2000 ms\)\): state/,
    );
  });

  it('fails at the step whose context differs', () => {
    const broken = copyFeedbackMachine.provide({
      actions: { clearFailure: assign({ failed: true }) },
    });
    expect(() => checkRecording(broken, recording)).toThrow(/step 1 of 3 .*: context/);
  });

  it('is written as a test file of the model project that imports the machine', () => {
    const file = recordingToTestFile(recording);
    expect(file).toContain(
      "import * as source from '../../../machines/copyFeedback/copyFeedback.machine';",
    );
    expect(file).toContain('replayRecording(source, {');
  });

  it('is written step by step as what each step changed, and read back whole', () => {
    const saved = saveRecording(recording);
    expect(saved.steps.map((s) => s.changed)).toEqual([
      // The copy holds its text; only what changed is written.
      { valueIs: 'copying', context: { text: 'https://example.com/r/ABC' } },
      { valueIs: 'copied' },
      { valueIs: 'idle' },
    ]);
    expect(saved.steps[2]?.kind === 'delay' ? saved.steps[2].beforeDue : null).toEqual({});
    expect(loadRecording(saved)).toEqual(recording);
  });

  it('writes a value or context whole when a key goes away or it is no record', () => {
    const at = (context: unknown) => ({ value: 'idle', status: 'active', context });
    expect(snapshotChange(at({ a: 1, b: 2 }), at({ a: 1, b: 3, c: 4 }))).toEqual({
      context: { b: 3, c: 4 },
    });
    expect(snapshotChange(at({ a: 1, b: 2 }), at({ a: 1 }))).toEqual({ contextIs: { a: 1 } });
    expect(snapshotChange(at([1]), at([2]))).toEqual({ contextIs: [2] });
    const value = (v: unknown) => ({ value: v, status: 'active', context: {} });
    expect(snapshotChange(value({ a: 'x', b: 'y' }), value({ a: 'x', b: 'z' }))).toEqual({
      value: { b: 'z' },
    });
    expect(snapshotChange(value({ a: 'x' }), value('idle'))).toEqual({ valueIs: 'idle' });
    expect(snapshotChange(at({ a: 1 }), { ...at({ a: 1 }), status: 'done' })).toEqual({
      status: 'done',
    });
  });
});

/**
 * A live actor of the site, as the app creates it (devInspect as its inspector, its invoked actor
 * real, real timers): copying a link, the clipboard answering, "Copied!" for the spec's 2 s.
 */
async function liveCopy() {
  vi.stubGlobal('BroadcastChannel', undefined);
  vi.useFakeTimers();
  const actor = createActor(
    copyFeedbackMachine.provide({ actors: { writeClipboard: fromPromise(async () => {}) } }),
    { inspect: devInspect },
  );
  actor.start();
  actor.send({ type: 'copyFeedback.copy', text: 'https://example.com/r/ABC' });
  await vi.advanceTimersByTimeAsync(0);
  await vi.advanceTimersByTimeAsync(SPEC_TIMERS.copyFeedback);
  const history = inspectorStore().histories.get(actor.sessionId);
  actor.stop();
  vi.useRealTimers();
  if (!history) throw new Error('the inspector kept no history of the live actor');
  return history;
}

describe('a live actor recorded ("Save as test" on the site)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('keeps each event the actor took with the snapshot it led to, from its start', async () => {
    const history = await liveCopy();
    expect(history.initial?.value).toBe('idle');
    expect(history.steps.map((s) => s.event.type)).toEqual([
      'copyFeedback.copy',
      'xstate.done.actor.writeClipboard',
      'xstate.after.copyFeedback.copyFeedback.copied',
    ]);
    expect(history.steps.map((s) => s.snapshot.value)).toEqual(['copying', 'copied', 'idle']);
  });

  it("becomes a recording whose delay is the spec's 2 s, and that the machine replays", async () => {
    const { recording, differsAt } = recordingFromLive(
      'copyFeedback',
      copyFeedbackMachine,
      await liveCopy(),
    );
    expect(differsAt).toBeNull();
    expect(recording.steps.map((s) => s.kind)).toEqual(['event', 'event', 'delay']);
    const delay = recording.steps[2];
    expect(delay?.kind === 'delay' ? delay.ms : null).toBe(SPEC_TIMERS.copyFeedback);
    expect(() => checkRecording(copyFeedbackMachine, recording)).not.toThrow();
  });

  it('fails its replay when the behaviour breaks, naming the step', async () => {
    const { recording } = recordingFromLive('copyFeedback', copyFeedbackMachine, await liveCopy());
    const early = copyFeedbackMachine.provide({ delays: { copyFeedback: COPY_FEEDBACK_MS - 500 } });
    expect(() => checkRecording(early, recording)).toThrow(
      /step 3 of 3 \(after copyFeedback \(\+2000 ms\)\), 1 ms before the delay is due: state/,
    );
  });

  it('names the first step where the machine alone does not reach what the site showed', async () => {
    const history = await liveCopy();
    const changed = { ...history, steps: history.steps.map((s) => ({ ...s })) };
    changed.steps[1] = {
      ...changed.steps[1]!,
      snapshot: { ...changed.steps[1]!.snapshot, value: 'idle' },
    };
    expect(recordingFromLive('copyFeedback', copyFeedbackMachine, changed).differsAt).toMatch(
      /^step 2 \(xstate\.done\.actor\.writeClipboard\b/,
    );
  });
});

describe('manual clock', () => {
  it('tells how long until a timer set for a given length falls due', () => {
    const clock = new ManualClock();
    clock.setTimeout(() => {}, 5000);
    clock.advance(3500);
    clock.setTimeout(() => {}, 3500);
    expect(clock.dueIn(5000)).toBe(1500);
    expect(clock.dueIn(3500)).toBe(3500);
    expect(clock.dueIn(1234)).toBeNull();
  });

  it('fires timers only when time is moved on, in order of due time', () => {
    const clock = new ManualClock();
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('b'), 20);
    clock.setTimeout(() => fired.push('a'), 10);
    const cancelled = clock.setTimeout(() => fired.push('x'), 5);
    clock.clearTimeout(cancelled);
    clock.advance(9);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual(['a']);
    clock.advance(10);
    expect(fired).toEqual(['a', 'b']);
  });
});
