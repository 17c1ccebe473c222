import { createActor, fromCallback, setup, type AnyEventObject } from 'xstate';
import type { sessionMachine } from '../../machines/session/session.machine';
import type { SessionInput } from '../../machines/session/session.types';

/**
 * Starts a (provided) session chart as the app starts it: invoked by a parent that receives
 * session.loaded / session.failed, with an auth stand-in in the same system. Records what the
 * parent and auth receive.
 */
export function startSessionUnderParent(session: typeof sessionMachine, input: SessionInput) {
  const toParent: AnyEventObject[] = [];
  const toAuth: AnyEventObject[] = [];
  const parent = setup({
    actors: {
      session,
      auth: fromCallback<AnyEventObject>(({ receive }) => receive((e) => void toAuth.push(e))),
    },
  }).createMachine({
    invoke: [
      { id: 'auth', systemId: 'auth', src: 'auth' },
      {
        id: 'session',
        systemId: 'session',
        src: 'session',
        input: ({ self }) => ({ ...input, parent: self }),
      },
    ],
    on: { '*': { actions: ({ event }) => void toParent.push(event) } },
  });
  const actor = createActor(parent).start();
  const ref = actor.system.get('session') as ReturnType<typeof createActor<typeof sessionMachine>>;
  return { actor, ref, toParent, toAuth };
}
