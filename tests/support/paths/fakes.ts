import { vi } from 'vitest';
import { fromPromise, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { DELAY_CLAUSES } from '../clauses';
import { specDelay } from '../oracle';
import { clauseError } from './clause';

/**
 * Controllable stand-ins for a machine's invoked promise actors. Each invocation waits on its own
 * deferred; `resolve` / `reject` settle the oldest pending one (the one the machine is waiting
 * for), or with `answer: 'newest'` the newest, dropping the older ones (an invocation left behind
 * when the chart moved on must not take the answer meant for the one it waits for now). With
 * `abortable`, an invocation XState stops (its state left) is no longer pending. `calls` records
 * every input.
 */
export type Controllable<TOutput, TInput> = {
  logic: ReturnType<typeof fromPromise<TOutput, TInput>>;
  calls: TInput[];
  pending: () => number;
  resolve: (output: TOutput) => Promise<void>;
  reject: (error: unknown) => Promise<void>;
};

export function controllable<TOutput, TInput = unknown>(
  options: { answer?: 'oldest' | 'newest'; abortable?: boolean } = {},
): Controllable<TOutput, TInput> {
  const waiting: { resolve: (v: TOutput) => void; reject: (e: unknown) => void }[] = [];
  const calls: TInput[] = [];
  const next = () => {
    const deferred = options.answer === 'newest' ? waiting.pop() : waiting.shift();
    if (!deferred) throw new Error('controllable: no pending invocation to settle');
    if (options.answer === 'newest') waiting.length = 0;
    return deferred;
  };
  return {
    logic: fromPromise<TOutput, TInput>(({ input, signal }) => {
      calls.push(input);
      return new Promise<TOutput>((resolve, reject) => {
        const entry = { resolve, reject };
        waiting.push(entry);
        if (options.abortable)
          signal.addEventListener('abort', () => {
            const at = waiting.indexOf(entry);
            if (at >= 0) waiting.splice(at, 1);
          });
      });
    }),
    calls,
    pending: () => waiting.length,
    resolve: async (output) => {
      next().resolve(output);
      await settle();
    },
    reject: async (error) => {
      next().reject(error);
      await settle();
    },
  };
}

/** Lets promise callbacks and the actor system's mailboxes run (works under fake timers). */
export async function settle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}

/**
 * The milliseconds of the named delay in `xstate.after.<delay>.<stateId>` as the chart sets it.
 * Only for delays the spec does not time (polling cadences, connect timeouts): a spec timer is
 * advanced by the oracle's number with `advanceSpecDelay`.
 */
export function delayOf(machine: AnyStateMachine, afterEventType: string): number {
  const name = /^xstate\.after\.([^.]+)\./.exec(afterEventType)?.[1];
  if (name === undefined) throw new Error(`not a delay event: ${afterEventType}`);
  if (/^\d+$/.test(name)) return Number(name);
  const delay: unknown = (machine.implementations.delays as Record<string, unknown>)[name];
  if (typeof delay === 'number') return delay;
  throw new Error(`delay "${name}" is not a number in setup({ delays }); advance time yourself`);
}

/** Advances fake timers past a delay the spec does not time (see `delayOf`), then settles. */
export async function advanceChartDelay(
  machine: AnyStateMachine,
  afterEventType: string,
): Promise<void> {
  await vi.advanceTimersByTimeAsync(delayOf(machine, afterEventType));
  await settle();
}

/** A probe of an actor: its state value and context (child actors replaced by their ids). */
export function actorProbe(actor: { getSnapshot: () => AnyMachineSnapshot }): () => string {
  return () => {
    const s = actor.getSnapshot();
    return JSON.stringify({ value: s.value, context: s.context }, (_key, v: unknown) =>
      typeof v === 'object' && v !== null && 'send' in v && typeof v.send === 'function'
        ? `[actor ${String((v as { id?: unknown }).id)}]`
        : v,
    );
  };
}

/**
 * Advances fake timers by the spec's `ms` and checks the rule's edge: at `ms − 1` the probe has
 * not changed ("not yet"), at `ms` it has ("done"). A chart timer that is shorter fails the first
 * check, a longer one the second.
 */
export async function advanceExactly(
  ms: number,
  probe: () => unknown,
  rule = `${ms} ms`,
  clause?: string,
): Promise<void> {
  const read = () => {
    const value = probe();
    return typeof value === 'string' ? value : JSON.stringify(value);
  };
  const before = read();
  await vi.advanceTimersByTimeAsync(ms - 1);
  await settle();
  const early = read();
  if (early !== before)
    throw clauseError(
      clause,
      `${rule}: nothing may happen at ${ms - 1} ms`,
      `nothing changes before ${ms} ms (${rule})`,
      `changed before ${ms} ms: ${before} became ${early}`,
    );
  await vi.advanceTimersByTimeAsync(1);
  await settle();
  if (read() === before)
    throw clauseError(
      clause,
      `${rule}: the timer must fire at exactly ${ms} ms`,
      `a change at exactly ${ms} ms (${rule})`,
      `no change at ${ms} ms: still ${before}`,
    );
}

/** Advances a spec timer (`xstate.after.<delay>.<state>`) by the oracle's duration, exactly. */
export async function advanceSpecDelay(
  afterEventType: string,
  probe: () => unknown,
): Promise<void> {
  const name = /^xstate\.after\.([^.]+)\./.exec(afterEventType)?.[1] ?? afterEventType;
  await advanceExactly(specDelay(afterEventType), probe, `spec timer ${name}`, DELAY_CLAUSES[name]);
}
