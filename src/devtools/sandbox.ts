import {
  createActor,
  fromPromise,
  type AnyActorRef,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
} from 'xstate';
import { describeEvent, type Chart } from './graph';
import type { LiveHistory, TakenTransition } from './inspector';
import {
  delayMs,
  describeStep,
  plainValue,
  recordSnapshot,
  type GuardAnswers,
  type RecordedSnapshot,
  type RecordedStep,
  type Recording,
} from './recording';

/**
 * The sandbox's clock: time stands still until `advance(ms)` moves it, and then the timers that
 * fall due fire in order. So a delay fires only when asked, and a replay can check "not yet at
 * ms − 1, done at ms".
 */
export class ManualClock {
  private now = 0;
  private nextId = 1;
  private timers = new Map<number, { at: number; ms: number; fn: () => void }>();

  setTimeout = (fn: (...args: unknown[]) => void, ms: number): number => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.now + Math.max(0, ms), ms, fn: () => fn() });
    return id;
  };

  /** How long until the first pending timer that was set for `ms` falls due (null: none). */
  dueIn(ms: number): number | null {
    const due = [...this.timers.values()].filter((t) => t.ms === ms).map((t) => t.at - this.now);
    return due.length > 0 ? Math.max(0, Math.min(...due)) : null;
  }

  clearTimeout = (id: unknown): void => {
    this.timers.delete(id as number);
  };

  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= until)
        .sort(([a, ta], [b, tb]) => ta.at - tb.at || a - b)[0];
      if (!due) break;
      const [id, timer] = due;
      this.timers.delete(id);
      this.now = timer.at;
      timer.fn();
    }
    this.now = until;
  }
}

/**
 * A fresh actor of one machine for trying it by hand: every invoked or spawned actor is replaced
 * by one that never settles (its outcome is sent with the `<id> done` / `<id> error` buttons),
 * and its timers run on a clock that moves only when asked (the `after <delay>` buttons). A crash
 * (an input the machine cannot start from, an action that throws) goes to `onError` and leaves
 * the actor in its `error` status; it is never thrown at the page. `answer`, when given, has the
 * last word on every named guard: it gets the guard's name and the machine's own answer.
 */
export function startSandbox(
  machine: AnyStateMachine,
  input: unknown,
  clock: ManualClock = new ManualClock(),
  onError: (error: unknown) => void = () => {},
  answer?: (guard: string, own: boolean) => boolean,
): AnyActorRef {
  const names = Object.keys(machine.implementations.actors ?? {});
  const standIns = Object.fromEntries(
    names.map((name) => [name, fromPromise(() => new Promise<never>(() => {}))]),
  );
  type Guard = (args: unknown, params: unknown) => unknown;
  const guards = answer
    ? Object.fromEntries(
        Object.entries(machine.implementations.guards as Record<string, unknown>)
          .filter((entry): entry is [string, Guard] => typeof entry[1] === 'function')
          .map(([name, own]) => [
            name,
            (args: unknown, params: unknown) => answer(name, Boolean(own(args, params))),
          ]),
      )
    : {};
  const actor = createActor(machine.provide({ actors: standIns, guards } as never), {
    input,
    clock,
  });
  actor.subscribe({ error: onError });
  actor.start();
  return actor;
}

/** What a sandbox shows for a crash: the error's message (and name when it is not a plain Error). */
export function crashText(error: unknown): string {
  if (error instanceof Error) {
    return error.name === 'Error' ? error.message : `${error.name}: ${error.message}`;
  }
  return String(error);
}

/** The event types the chart names (intents, facts, actor outcomes, delays), once each. */
export function chartEvents(chart: Chart): string[] {
  return [
    ...new Set(
      chart.edges.filter((e) => e.kind !== 'always' && e.kind !== 'wildcard').map((e) => e.event),
    ),
  ];
}

export function sandboxEvent(type: string, payload: Record<string, unknown>): AnyEventObject {
  const actorId = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(type)?.[1];
  return { ...payload, type, ...(actorId ? { actorId } : {}) };
}

export function canTake(snapshot: AnyMachineSnapshot, event: AnyEventObject): boolean {
  try {
    return snapshot.status === 'active' && snapshot.can(event);
  } catch {
    return false;
  }
}

/** Ids of the active state nodes of a snapshot value, resolved through the chart's keys. */
export function activeNodeIds(chart: Chart, value: unknown): Set<string> {
  const byId = new Map(chart.nodes.map((n) => [n.id, n]));
  const active = new Set<string>();
  const walk = (nodeId: string, v: unknown) => {
    active.add(nodeId);
    const node = byId.get(nodeId);
    if (!node) return;
    const childByKey = (key: string) =>
      node.children.map((id) => byId.get(id)).find((c) => c?.key === key);
    if (typeof v === 'string') {
      const child = childByKey(v);
      if (child) active.add(child.id);
    } else if (v && typeof v === 'object') {
      for (const [key, sub] of Object.entries(v)) {
        const child = childByKey(key);
        if (child) walk(child.id, sub);
      }
    }
  };
  walk(chart.root, value);
  return active;
}

/**
 * A sandbox run with its history: every step taken (an event sent, or time moved on to a delay)
 * with the snapshot it led to. Time travel goes back and forth over the steps by replaying them
 * on a fresh actor (the stand-ins never settle and the clock moves only at delay steps, so a
 * replay arrives at the same snapshot); a new step after going back drops the steps ahead.
 * `recording()` is what "Save as test" writes.
 */
export class SandboxSession {
  readonly startedAt = Date.now();
  readonly initial: RecordedSnapshot;
  steps: RecordedStep[] = [];
  /** How many of `steps` the actor has taken (the time-travel cursor). */
  position = 0;
  /** The crash of the actor as it stands now (null while it runs), as `crashText` words it. */
  crash: string | null = null;
  private clock = new ManualClock();
  private current: AnyActorRef;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly name: string,
    readonly machine: AnyStateMachine,
    readonly input: unknown,
  ) {
    this.current = this.startActor();
    this.initial = recordSnapshot(this.snapshot());
  }

  snapshot(): AnyMachineSnapshot {
    return this.current.getSnapshot() as AnyMachineSnapshot;
  }

  send(event: AnyEventObject): void {
    this.steps.length = this.position;
    const at = Date.now();
    this.current.send(event);
    this.push({ kind: 'event', at, event, snapshot: recordSnapshot(this.snapshot()) });
  }

  /**
   * Moves time on until the delay `delay` falls due: its timer's remaining time (the timer set
   * for the delay's ms as the machine defines it), or the whole delay when no such timer waits.
   * When the machine does not say how long the delay is, its event is sent as it is.
   */
  after(delay: string, eventType: string): void {
    const last = this.steps[this.position - 1];
    const cause = last?.kind === 'event' ? last.event : { type: 'xstate.init' };
    const length = delayMs(this.machine, delay, this.snapshot(), cause);
    if (length === null) {
      this.send({ type: eventType });
      return;
    }
    const ms = this.clock.dueIn(length) ?? length;
    this.steps.length = this.position;
    const at = Date.now();
    // The snapshot 1 ms before the delay is due: the replay checks that nothing fired earlier.
    this.clock.advance(Math.max(0, ms - 1));
    const beforeDue = recordSnapshot(this.snapshot());
    this.clock.advance(ms > 0 ? 1 : 0);
    this.push({
      kind: 'delay',
      at,
      delay,
      ms,
      beforeDue,
      snapshot: recordSnapshot(this.snapshot()),
    });
  }

  /** Time travel: the actor as it was after `position` steps. */
  jump(position: number): void {
    const to = Math.max(0, Math.min(position, this.steps.length));
    this.current.stop();
    this.clock = new ManualClock();
    this.crash = null;
    this.current = this.startActor();
    for (const step of this.steps.slice(0, to)) {
      if (step.kind === 'event') this.current.send(step.event);
      else this.clock.advance(step.ms);
    }
    this.position = to;
    this.notify();
  }

  back(): void {
    this.jump(this.position - 1);
  }

  forward(): void {
    this.jump(this.position + 1);
  }

  /** The steps up to the cursor, as "Save as test" writes them. */
  recording(): Recording {
    return {
      machine: this.name,
      startedAt: this.startedAt,
      input: plainValue(this.input),
      initial: this.initial,
      steps: this.steps.slice(0, this.position),
    };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    this.current.stop();
    this.listeners.clear();
  }

  private startActor(): AnyActorRef {
    return startSandbox(this.machine, this.input, this.clock, (error) => {
      this.crash = crashText(error);
    });
  }

  private push(step: RecordedStep): void {
    this.steps.push(step);
    this.position = this.steps.length;
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * "Save as test" for a live actor: its history (what it took on the site, the snapshots it
 * reached) as a recording the replay runs. Its steps are walked once more in a sandbox, which
 * turns each `xstate.after…` event into a delay step (the time the replay moves on, from the
 * sandbox's clock) and tells whether the machine alone, with its invoked actors' outcomes as the
 * site delivered them, reaches the snapshots the site saw: `differsAt` names the first step where
 * it does not (the saved test fails there until the machine and the site agree).
 */
export function recordingFromLive(
  name: string,
  machine: AnyStateMachine,
  history: LiveHistory,
): { recording: Recording; differsAt: string | null } {
  const clock = new ManualClock();
  // The guards the site answered at the step being replayed (from the transitions it took), and
  // those of them where the machine alone answers otherwise: the app's own answers, recorded.
  let site = new Map<string, boolean>();
  let differing: GuardAnswers = {};
  const answer = (guard: string, own: boolean) => {
    const said = site.get(guard);
    if (said === undefined || said === own) return own;
    differing[guard] = said;
    return said;
  };
  const actor = startSandbox(machine, history.input, clock, () => {}, answer);
  const snapshot = () => recordSnapshot(actor.getSnapshot() as AnyMachineSnapshot);
  const same = (a: RecordedSnapshot, b: RecordedSnapshot) =>
    JSON.stringify(a) === JSON.stringify(b);
  const { initial } = history;
  let differsAt = same(snapshot(), initial) ? null : 'the start';
  let cause: AnyEventObject = { type: 'xstate.init' };
  const steps: RecordedStep[] = [];
  try {
    for (const live of history.steps) {
      site = siteGuardAnswers(machine, live.taken ?? []);
      differing = {};
      const delay = describeEvent(live.event.type).delay;
      const length = delay
        ? delayMs(machine, delay, actor.getSnapshot() as AnyMachineSnapshot, cause)
        : null;
      let step: RecordedStep;
      if (delay && length !== null) {
        const ms = clock.dueIn(length) ?? length;
        clock.advance(Math.max(0, ms - 1));
        const beforeDue = snapshot();
        clock.advance(ms > 0 ? 1 : 0);
        step = { kind: 'delay', at: live.at, delay, ms, beforeDue, snapshot: live.snapshot };
      } else {
        actor.send(live.event);
        cause = live.event;
        step = { kind: 'event', at: live.at, event: live.event, snapshot: live.snapshot };
      }
      if (Object.keys(differing).length > 0) step.answers = differing;
      steps.push(step);
      if (differsAt === null && !same(snapshot(), live.snapshot)) {
        differsAt = `step ${steps.length} (${describeStep(step)})`;
      }
    }
  } finally {
    actor.stop();
  }
  return {
    recording: {
      machine: name,
      startedAt: history.startedAt,
      input: history.input,
      initial,
      steps,
    },
    differsAt,
  };
}

/** A guard written by name (`'isWalletInstalled'`, `{ type: 'isWalletInstalled', params }`). */
function namedGuard(guard: unknown): string | null {
  if (typeof guard === 'string') return guard;
  if (guard && typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') {
    return guard.type;
  }
  return null;
}

/**
 * What the site's guards answered, read from the transitions it took: the one taken held, the
 * ones before it in its list (tried first, in the order written) did not. Guards written inline
 * or combined (`and(…)`) are the machine's own and not read.
 */
export function siteGuardAnswers(
  machine: AnyStateMachine,
  taken: readonly TakenTransition[],
): Map<string, boolean> {
  const answers = new Map<string, boolean>();
  for (const { source, event, index } of taken) {
    let list: readonly { guard?: unknown }[] | undefined;
    try {
      const node = machine.getStateNodeById(source);
      list = event === '' ? node.always : node.transitions.get(event);
    } catch {
      continue;
    }
    list?.slice(0, index + 1).forEach((t, i) => {
      const guard = namedGuard(t.guard);
      if (guard) answers.set(guard, i === index);
    });
  }
  return answers;
}
