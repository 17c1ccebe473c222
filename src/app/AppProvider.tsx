import { createActorContext } from '@xstate/react';
import type { ReactNode } from 'react';
import type { InspectionEvent } from 'xstate';
import { appMachine } from '../../machines/app/app.machine';
import type { AppInput } from '../../machines/app/app.types';

/**
 * The one root actor of the site, created inside React (never at module scope) so every render
 * tree and every test gets a fresh actor system. `logic` is the app machine with real or fake
 * implementations provided (src/app/compose.ts); `inspect` passes through to createActor.
 */
export const AppActorContext = createActorContext(appMachine);

export type AppProviderProps = {
  logic: typeof appMachine;
  input: AppInput;
  inspect?: (event: InspectionEvent) => void;
  children: ReactNode;
};

export function AppProvider({ logic, input, inspect, children }: AppProviderProps) {
  return (
    <AppActorContext.Provider logic={logic} options={inspect ? { input, inspect } : { input }}>
      {children}
    </AppActorContext.Provider>
  );
}
