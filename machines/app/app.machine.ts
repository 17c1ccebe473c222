import { assign, fromPromise, setup } from 'xstate';
import { SYSTEM_IDS } from '../systemIds';
import type { AppError } from './app.types';

/**
 * The root actor. It spawns the long-lived services (each with its systemId from SYSTEM_IDS)
 * and owns the app-level loaded flag and application error (§2 Shell, §4 App load).
 *
 * The session bootstrap is invoked while `loading`; its outcome decides `ready` or `failed`.
 */
export type SessionOutput = { publicData: Record<string, string | undefined> };

export const appMachine = setup({
  types: {
    context: {} as { publicData: Record<string, string | undefined>; error: AppError | null },
    events: {} as { type: 'app.retry' },
  },
  actors: {
    session: fromPromise<SessionOutput>(async () => {
      throw new Error('session actor not provided');
    }),
  },
  actions: {
    spawnServices: () => {},
  },
}).createMachine({
  id: 'app',
  context: { publicData: {}, error: null },
  entry: 'spawnServices',
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'session',
        systemId: SYSTEM_IDS.session,
        src: 'session',
        onDone: {
          target: 'ready',
          actions: assign({ publicData: ({ event }) => event.output.publicData, error: null }),
        },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => ({
              code: 'Init',
              text: event.error instanceof Error ? event.error.message : '',
            }),
          }),
        },
      },
    },
    ready: {},
    failed: {},
  },
});
