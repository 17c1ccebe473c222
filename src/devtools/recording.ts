import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';

/**
 * A recorded sandbox session of one machine: the input it started with and every step (an event
 * sent, or time moved on to a delay), each with the snapshot it led to. The visualiser records it
 * (time travel moves over its steps); "Save as test" writes it as a test file the `model` project
 * runs (tests/support/paths/recording.ts replays it and compares every snapshot).
 */
export type RecordedSnapshot = { value: unknown; status: string; context: unknown };

export type RecordedStep =
  | { kind: 'event'; at: number; event: AnyEventObject; snapshot: RecordedSnapshot }
  | {
      kind: 'delay';
      at: number;
      /** The delay's name (or its number of ms) as the chart names it. */
      delay: string;
      /** The time moved on, in ms. The replay checks "not yet at ms − 1, done at ms". */
      ms: number;
      /** The snapshot at ms − 1. */
      beforeDue: RecordedSnapshot;
      snapshot: RecordedSnapshot;
    };

export type Recording = {
  machine: string;
  /** Wall-clock time (ms) the sandbox started: the replay sets the system time from it. */
  startedAt: number;
  input: unknown;
  initial: RecordedSnapshot;
  steps: RecordedStep[];
};

/**
 * A value as JSON can carry it and as a test can compare it: actor refs become `[actor id]`,
 * functions `[function]`, cycles `[cycle]`.
 */
export function plainValue(value: unknown): unknown {
  const seen = new WeakSet<object>();
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object') {
      if ('sessionId' in v && 'send' in v) return `[actor ${String((v as { id?: string }).id)}]`;
      if (seen.has(v)) return '[cycle]';
      seen.add(v);
    }
    if (typeof v === 'function') return '[function]';
    return v;
  });
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

export function recordSnapshot(snapshot: AnyMachineSnapshot): RecordedSnapshot {
  return {
    value: plainValue(snapshot.value),
    status: snapshot.status,
    context: plainValue(snapshot.context),
  };
}

/**
 * The ms of a named (or numeric) delay as the machine defines it now, for the snapshot it is
 * scheduled from; null when the machine does not say (the sandbox then sends the delay's event).
 */
export function delayMs(
  machine: AnyStateMachine,
  delay: string,
  snapshot: AnyMachineSnapshot,
  event: AnyEventObject,
): number | null {
  if (/^\d+$/.test(delay)) return Number(delay);
  const impl: unknown = (machine.implementations.delays as Record<string, unknown>)[delay];
  if (typeof impl === 'number') return impl;
  if (typeof impl === 'function') {
    try {
      const ms: unknown = (impl as (args: unknown, params: unknown) => unknown)(
        { context: snapshot.context, event, self: undefined, system: undefined },
        undefined,
      );
      return typeof ms === 'number' && Number.isFinite(ms) ? ms : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** What the step list and the test names print for a step. */
export function describeStep(step: RecordedStep): string {
  if (step.kind === 'delay') return `after ${step.delay} (+${step.ms} ms)`;
  const { type, ...payload } = step.event;
  const shown = Object.keys(payload).length > 0 ? ` ${JSON.stringify(payload)}` : '';
  return `${type}${shown}`;
}

/** A file name for a saved recording: `<machine>.<yyyymmdd-hhmmss>.recorded.test.ts`. */
export function recordingFileName(recording: Recording, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${recording.machine}.${stamp}.recorded.test.ts`;
}

/**
 * The test file "Save as test" writes: it belongs in tests/model/recorded/, where the `model`
 * project runs it. It imports the machine's own module, so a change to the machine that alters
 * the recorded behaviour makes it fail, naming the step.
 */
export function recordingToTestFile(recording: Recording): string {
  const name = recording.machine;
  const json = JSON.stringify(recording, null, 2);
  return [
    `// Recorded in the machine visualiser (/__machines) and saved with "Save as test".`,
    `// Replays every step against machines/${name} and compares each snapshot.`,
    `import * as source from '../../../machines/${name}/${name}.machine';`,
    `import { replayRecording } from '../../support/paths/recording';`,
    ``,
    `replayRecording(source, ${json});`,
    ``,
  ].join('\n');
}

function isMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && 'root' in value && 'definition' in value;
}

/** The machine a `machines/<name>/<name>.machine.ts` module exports (`<name>Machine` first). */
export function pickMachine(mod: Record<string, unknown>, name: string): AnyStateMachine {
  const machine = isMachine(mod[`${name}Machine`])
    ? mod[`${name}Machine`]
    : Object.values(mod).find(isMachine);
  if (!isMachine(machine)) throw new Error(`machines/${name} exports no machine`);
  return machine;
}
