import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  matchesState,
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type StateValue,
} from 'xstate';
import {
  describeStep,
  loadRecording,
  pickMachine,
  recordSnapshot,
  type GuardAnswers,
  type RecordedSnapshot,
  type Recording,
  type SavedRecording,
} from '../../../src/devtools/recording';
import { ManualClock, startSandbox } from '../../../src/devtools/sandbox';
import { DELAY_CLAUSES } from '../clauses';
import { SPEC_TRANSITIONS } from '../specTransitions';
import { PATHS_REPORT_DIR } from './run';

/**
 * Replays a recording saved from the visualiser ("Save as test", each step as what it changed) against the machine's module as
 * it is now, with the sandbox's stand-ins (invoked actors that never settle, outcomes sent as
 * events) and its clock (time moves only at a delay step). Every step's snapshot — state value,
 * status and context — must equal the recorded one; a delay must not fire at ms − 1 and must fire
 * at ms. A guard the app provides takes, at a step, the answer the site gave there (recorded with
 * the step), so a run saved from the site replays without the app. A failure names the step, what
 * was expected and what the machine did.
 */
export function replayRecording(source: Record<string, unknown>, saved: SavedRecording): void {
  const recording = loadRecording(saved);
  const machine = pickMachine(source, recording.machine);
  const title = recording.steps.map(describeStep).join(' → ') || 'start';
  describe(`recorded ${recording.machine}`, () => {
    it(title, () => {
      // The clause view links each clause to the recorded runs that walk it.
      const file = expect.getState().testPath ?? 'recorded';
      const report = {
        machine: recording.machine,
        file: relative(resolve(import.meta.dirname, '../../..'), file),
        title,
        clauses: recordedClauses(recording),
        status: 'failed',
      };
      const write = () => {
        const dir = join(PATHS_REPORT_DIR, 'recorded');
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `${basename(file)}.json`), JSON.stringify(report, null, 2));
      };
      try {
        checkRecording(machine, recording);
        report.status = 'passed';
      } finally {
        write();
      }
    });
  });
}

/** The clauses a recording walks: the spec transitions of its machine, and the spec timers. */
function recordedClauses(recording: Recording): string[] {
  const required =
    (
      SPEC_TRANSITIONS as Record<
        string,
        readonly { from: string; event: string; to: string; clause: string }[]
      >
    )[recording.machine] ?? [];
  const found = new Set<string>();
  recording.steps.forEach((step, i) => {
    const before = (i === 0 ? recording.initial : recording.steps[i - 1]!.snapshot)
      .value as StateValue;
    const after = step.snapshot.value as StateValue;
    const type = step.kind === 'event' ? step.event.type : `xstate.after.${step.delay}`;
    if (step.kind === 'delay' && DELAY_CLAUSES[step.delay]) found.add(DELAY_CLAUSES[step.delay]!);
    for (const r of required)
      if (
        (type === r.event || type.startsWith(`${r.event}.`)) &&
        matchesState(r.from, before) &&
        matchesState(r.to, after)
      )
        found.add(r.clause);
  });
  return [...found];
}

/** The replay itself: throws at the first step whose snapshot differs from the recorded one. */
export function checkRecording(machine: AnyStateMachine, recording: Recording): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(recording.startedAt);
  const clock = new ManualClock();
  // A guard the app provides answers at a step as the site answered it (recorded with the step).
  let answers: GuardAnswers = {};
  const answer = (guard: string, own: boolean) => answers[guard] ?? own;
  let actor: AnyActorRef | undefined;
  try {
    actor = startSandbox(machine, recording.input, clock, () => {}, answer);
    const started = actor;
    const now = (): RecordedSnapshot => recordSnapshot(started.getSnapshot() as AnyMachineSnapshot);
    compare('at the start', recording.initial, now());
    recording.steps.forEach((step, i) => {
      const where = `step ${i + 1} of ${recording.steps.length} (${describeStep(step)})`;
      vi.setSystemTime(step.at);
      answers = step.answers ?? {};
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
