import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { withPlaceholders } from './redact';

/**
 * A recorded sandbox session of one machine: the input it started with and every step (an event
 * sent, or time moved on to a delay), each with the snapshot it led to. The visualiser records it
 * (time travel moves over its steps); "Save as test" writes it as a test file the `model` project
 * runs (tests/support/paths/recording.ts replays it and compares every snapshot).
 */
export type RecordedSnapshot = { value: unknown; status: string; context: unknown };

/**
 * What the site answered for a guard the app provides (the wallet check, say) at one step, where
 * the machine's own default answers otherwise: the replay takes the site's answer at that step,
 * so a saved run of the site replays without the app.
 */
export type GuardAnswers = Record<string, boolean>;

export type RecordedStep =
  | {
      kind: 'event';
      at: number;
      event: AnyEventObject;
      snapshot: RecordedSnapshot;
      answers?: GuardAnswers;
    }
  | {
      kind: 'delay';
      at: number;
      answers?: GuardAnswers;
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
 * A snapshot as a saved recording writes it: only what differs from the snapshot before it (a
 * missing key is unchanged). `value` and `context` hold the keys whose values changed; `valueIs`
 * and `contextIs` the whole value or context, when it is not a record or a key went away.
 */
export type SnapshotChange = {
  value?: Record<string, unknown>;
  valueIs?: unknown;
  status?: string;
  context?: Record<string, unknown>;
  contextIs?: unknown;
};

type EventStep = Extract<RecordedStep, { kind: 'event' }>;
type DelayStep = Extract<RecordedStep, { kind: 'delay' }>;

/** A step of a saved recording: the step, then the snapshots it led to as their changes. */
type SavedStep =
  | (Omit<EventStep, 'snapshot'> & { changed: SnapshotChange })
  | (Omit<DelayStep, 'snapshot' | 'beforeDue'> & {
      /** The snapshot at ms − 1, against the one before the step. */
      beforeDue: SnapshotChange;
      /** The snapshot at ms, against the one at ms − 1. */
      changed: SnapshotChange;
    });

/** A recording as "Save as test" writes it: the first snapshot whole, every step as changes. */
export type SavedRecording = Omit<Recording, 'steps'> & { steps: SavedStep[] };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The keys of `to` that differ from `from`, or null when only the whole says it. */
function changedKeys(from: unknown, to: unknown): Record<string, unknown> | null {
  if (!isRecord(from) || !isRecord(to) || !Object.keys(from).every((key) => key in to)) return null;
  return Object.fromEntries(Object.entries(to).filter(([key, v]) => !same(from[key], v)));
}

export function snapshotChange(before: RecordedSnapshot, after: RecordedSnapshot): SnapshotChange {
  const change: SnapshotChange = {};
  if (!same(before.value, after.value)) {
    const keys = changedKeys(before.value, after.value);
    if (keys) change.value = keys;
    else change.valueIs = after.value;
  }
  if (before.status !== after.status) change.status = after.status;
  if (!same(before.context, after.context)) {
    const keys = changedKeys(before.context, after.context);
    if (keys) change.context = keys;
    else change.contextIs = after.context;
  }
  return change;
}

function applied(
  before: unknown,
  keys: Record<string, unknown> | undefined,
  whole: unknown,
  isWhole: boolean,
) {
  if (isWhole) return whole;
  return keys ? { ...(before as Record<string, unknown>), ...keys } : before;
}

function applyChange(before: RecordedSnapshot, change: SnapshotChange): RecordedSnapshot {
  return {
    value: applied(before.value, change.value, change.valueIs, 'valueIs' in change),
    status: change.status ?? before.status,
    context: applied(before.context, change.context, change.contextIs, 'contextIs' in change),
  };
}

export function saveRecording(recording: Recording): SavedRecording {
  let previous = recording.initial;
  const steps = recording.steps.map((step): SavedStep => {
    const before = previous;
    previous = step.snapshot;
    if (step.kind === 'event') {
      const { snapshot, ...rest } = step;
      return { ...rest, changed: snapshotChange(before, snapshot) };
    }
    const { snapshot, beforeDue, ...rest } = step;
    return {
      ...rest,
      beforeDue: snapshotChange(before, beforeDue),
      changed: snapshotChange(beforeDue, snapshot),
    };
  });
  return { ...recording, steps };
}

/** The recording a saved one describes: every snapshot whole again. */
export function loadRecording(saved: SavedRecording): Recording {
  let previous = saved.initial;
  const steps = saved.steps.map((step): RecordedStep => {
    if (step.kind === 'event') {
      const { changed, ...rest } = step;
      previous = applyChange(previous, changed);
      return { ...rest, snapshot: previous };
    }
    const { changed, beforeDue: dueChange, ...rest } = step;
    const beforeDue = applyChange(previous, dueChange);
    previous = applyChange(beforeDue, changed);
    return { ...rest, beforeDue, snapshot: previous };
  });
  return { ...saved, steps };
}

/**
 * The test file "Save as test" writes: it belongs in tests/model/recorded/, where the `model`
 * project runs it. It imports the machine's own module, so a change to the machine that alters
 * the recorded behaviour makes it fail, naming the step. Each step is written with only what it
 * changed in the snapshot (`saveRecording`); the replay rebuilds the whole snapshots. The player's
 * tokens are written as placeholders (`withPlaceholders`): the file holds none.
 */
export function recordingToTestFile(recording: Recording): string {
  const name = recording.machine;
  const json = JSON.stringify(saveRecording(withPlaceholders(recording)), null, 2);
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
