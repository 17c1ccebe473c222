import { describe, expect, it, vi } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import {
  describeStep,
  pickMachine,
  recordSnapshot,
  type RecordedSnapshot,
  type Recording,
} from '../../../src/devtools/recording';
import { ManualClock, startSandbox } from '../../../src/devtools/sandbox';

/**
 * Replays a recording saved from the visualiser ("Save as test") against the machine's module as
 * it is now, with the sandbox's stand-ins (invoked actors that never settle, outcomes sent as
 * events) and its clock (time moves only at a delay step). Every step's snapshot — state value,
 * status and context — must equal the recorded one; a delay must not fire at ms − 1 and must fire
 * at ms. A failure names the step, what was expected and what the machine did.
 */
export function replayRecording(source: Record<string, unknown>, recording: Recording): void {
  const machine = pickMachine(source, recording.machine);
  const title = recording.steps.map(describeStep).join(' → ') || 'start';
  describe(`recorded ${recording.machine}`, () => {
    it(title, () => checkRecording(machine, recording));
  });
}

/** The replay itself: throws at the first step whose snapshot differs from the recorded one. */
export function checkRecording(machine: AnyStateMachine, recording: Recording): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(recording.startedAt);
  const clock = new ManualClock();
  let actor: AnyActorRef | undefined;
  try {
    actor = startSandbox(machine, recording.input, clock);
    const started = actor;
    const now = (): RecordedSnapshot => recordSnapshot(started.getSnapshot() as AnyMachineSnapshot);
    compare('at the start', recording.initial, now());
    recording.steps.forEach((step, i) => {
      const where = `step ${i + 1} of ${recording.steps.length} (${describeStep(step)})`;
      vi.setSystemTime(step.at);
      if (step.kind === 'event') {
        started.send(step.event);
      } else {
        clock.advance(Math.max(0, step.ms - 1));
        compare(`${where}, 1 ms before the delay is due`, step.beforeDue, now());
        clock.advance(step.ms > 0 ? 1 : 0);
      }
      compare(where, step.snapshot, now());
    });
  } finally {
    actor?.stop();
    vi.useRealTimers();
  }
}

function compare(where: string, expected: RecordedSnapshot, actual: RecordedSnapshot): void {
  expect(actual.value, `${where}: state`).toEqual(expected.value);
  expect(actual.status, `${where}: status`).toEqual(expected.status);
  expect(actual.context, `${where}: context`).toEqual(expected.context);
}
