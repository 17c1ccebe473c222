import { vi } from 'vitest';
import { fromPromise, type AnyStateMachine } from 'xstate';

/**
 * Controllable stand-ins for a machine's invoked promise actors. Each invocation waits on its own
 * deferred; `resolve` / `reject` settle the oldest pending one (the one the machine is waiting
 * for). `calls` records every input.
 */
export type Controllable<TOutput, TInput> = {
  logic: ReturnType<typeof fromPromise<TOutput, TInput>>;
  calls: TInput[];
  pending: () => number;
  resolve: (output: TOutput) => Promise<void>;
  reject: (error: unknown) => Promise<void>;
};

export function controllable<TOutput, TInput = unknown>(): Controllable<TOutput, TInput> {
  const waiting: { resolve: (v: TOutput) => void; reject: (e: unknown) => void }[] = [];
  const calls: TInput[] = [];
  const next = () => {
    const deferred = waiting.shift();
    if (!deferred) throw new Error('controllable: no pending invocation to settle');
    return deferred;
  };
  return {
    logic: fromPromise<TOutput, TInput>(({ input }) => {
      calls.push(input);
      return new Promise<TOutput>((resolve, reject) => waiting.push({ resolve, reject }));
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

/** The milliseconds of the named delay in `xstate.after.<delay>.<stateId>`. */
export function delayOf(machine: AnyStateMachine, afterEventType: string): number {
  const name = /^xstate\.after\.([^.]+)\./.exec(afterEventType)?.[1];
  if (name === undefined) throw new Error(`not a delay event: ${afterEventType}`);
  if (/^\d+$/.test(name)) return Number(name);
  const delay: unknown = (machine.implementations.delays as Record<string, unknown>)[name];
  if (typeof delay === 'number') return delay;
  throw new Error(`delay "${name}" is not a number in setup({ delays }); advance time yourself`);
}

/** Advances fake timers past the named delay of an `xstate.after.*` event, then settles. */
export async function advanceDelay(
  machine: AnyStateMachine,
  afterEventType: string,
): Promise<void> {
  await vi.advanceTimersByTimeAsync(delayOf(machine, afterEventType));
  await settle();
}
