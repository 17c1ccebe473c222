import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import type { OutcomeType, PathModel } from './model';
import type { Driver } from './run';

type Live = { getSnapshot: () => AnyMachineSnapshot };
type Stoppable = { stop: () => void };

/** What a driver's context needs for `actorDriver`: the live actor the paths run against. */
export type ActorCtx = { actor: Live & Stoppable };

/**
 * A driver for the machine as a live actor inside a system: after every step the snapshot of
 * `live(ctx)` is compared with the expected one, and after the path `root(ctx)` is stopped (after
 * `teardown`, which may unmount a view or restore what the setup replaced). The model is passed
 * for the types only: executors and checks are typed by its events and snapshot, and by what
 * `setup` returns.
 */
export function systemDriver<Model extends PathModel<AnyStateMachine, OutcomeType>, Ctx>(
  _model: Model,
  parts: { live: (ctx: Ctx) => Live; root: (ctx: Ctx) => Stoppable },
  driver: Omit<Driver<Model, Ctx>, 'actual'>,
): Driver<Model, Ctx> {
  return {
    ...driver,
    teardown: async (ctx) => {
      await driver.teardown?.(ctx);
      parts.root(ctx).stop();
    },
    actual: (ctx) => parts.live(ctx).getSnapshot(),
  };
}

/** `systemDriver` for a root actor of its own (`ctx.actor`): the one compared and stopped. */
export function actorDriver<
  Model extends PathModel<AnyStateMachine, OutcomeType>,
  Ctx extends ActorCtx,
>(model: Model, driver: Omit<Driver<Model, Ctx>, 'actual'>): Driver<Model, Ctx> {
  return systemDriver(model, { live: (ctx) => ctx.actor, root: (ctx) => ctx.actor }, driver);
}

/**
 * A view driver's setup: the actor driver's `setup`, then `view(ctx)` rendered with Testing
 * Library around what it built (unmounted after each test by Testing Library).
 */
export function withView<Ctx>(
  setup: (path: { input: unknown }) => Ctx,
  view: (ctx: Ctx) => ReactElement,
): (path: { input: unknown }) => Ctx {
  return (path) => {
    const ctx = setup(path);
    render(view(ctx));
    return ctx;
  };
}
