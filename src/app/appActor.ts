import { createActor, type InspectionEvent } from 'xstate';
import type { AppInput } from '../../machines/app/app.types';
import { composeApp, type AppDeps, type AppServices } from './compose';

const noWait = (): Promise<void> => Promise.resolve();

export type AppActorOptions = {
  deps: AppDeps;
  input: AppInput;
  /** The boot's next task, between the groups of services it provides (none: at once). */
  between?: () => Promise<void>;
  /** Stand-ins for some services (tests); every other one is the site's own. */
  services?: Partial<AppServices>;
  inspect?: (event: InspectionEvent) => void;
};

/**
 * The one way the site's root actor is built: src/main.tsx with the browser's parts, the
 * build-time pre-render and the tests with theirs. Created, not started: <AppActorProvider>
 * (./AppProvider.tsx) starts it after the first commit, unless its caller already did.
 */
export async function createAppActor(options: AppActorOptions) {
  const { deps, input, inspect } = options;
  const logic = await composeApp(deps, options.between ?? noWait, options.services);
  return createActor(logic, inspect ? { input, inspect } : { input });
}
