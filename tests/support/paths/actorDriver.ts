import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import type { OutcomeType, PathModel } from './model';
import type { Driver } from './run';

/** What a driver's context needs for `actorDriver`: the live actor the paths run against. */
export type ActorCtx = { actor: { stop: () => void; getSnapshot: () => AnyMachineSnapshot } };

/**
 * A driver for the machine as a live actor (`ctx.actor`): after every step its snapshot is
 * compared with the expected one, and after the path it is stopped (after `teardown`, which may
 * unmount a view or stop what the setup started beside it). The model is passed for the types
 * only: executors and checks are typed by its events and snapshot, and by what `setup` returns.
 */
export function actorDriver<
  Model extends PathModel<AnyStateMachine, OutcomeType>,
  Ctx extends ActorCtx,
>(_model: Model, driver: Omit<Driver<Model, Ctx>, 'actual'>): Driver<Model, Ctx> {
  return {
    ...driver,
    teardown: async (ctx) => {
      await driver.teardown?.(ctx);
      ctx.actor.stop();
    },
    actual: (ctx) => ctx.actor.getSnapshot(),
  };
}
