import type { ActorOptions, AnyActorLogic } from 'xstate';

type Clock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

/**
 * A clock for machines whose parallel regions each run their own timer (the toast's 3.5 s and the
 * banner's 5 s): a generated path says "the toast's delay elapsed" without the banner's elapsing
 * too, so the test fires one pending timeout by its delay instead of moving shared time.
 */
export type RegionClock = Clock & {
  /** Runs the oldest pending timeout scheduled with this delay; throws when there is none. */
  fire: (delay: number) => void;
  pending: () => number[];
};

export function regionClock(): RegionClock {
  let nextId = 1;
  const timeouts = new Map<number, { fn: () => void; delay: number }>();
  return {
    setTimeout: (fn: (...args: unknown[]) => void, delay: number) => {
      const id = nextId++;
      timeouts.set(id, { fn: () => fn(), delay });
      return id;
    },
    clearTimeout: (id: unknown) => {
      timeouts.delete(id as number);
    },
    fire: (delay: number) => {
      const entry = [...timeouts.entries()].find(([, t]) => t.delay === delay);
      if (!entry)
        throw new Error(
          `no pending timeout of ${delay} ms (pending: ${[...timeouts.values()].map((t) => t.delay).join(', ')})`,
        );
      timeouts.delete(entry[0]);
      entry[1].fn();
    },
    pending: () => [...timeouts.values()].map((t) => t.delay),
  };
}
