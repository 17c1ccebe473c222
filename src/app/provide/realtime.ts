import type { ActorRefFrom } from 'xstate';
import type { AuthMachine } from '../../../machines/auth/auth.machine';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { systemTokenSource } from '../tokenSource';
import type { KeyValueStorage } from '../../platform/storage';
import { realtimeMachine } from '../../../machines/realtime/realtime.machine';
import {
  createNetworkActor,
  createSignInWatch,
  createSocketActor,
  websocketUrl,
  type BrowserSocketOptions,
} from '../../platform/socket';

/**
 * The realtime machine with its browser parts. `jitter` is off unless given, so the reconnect
 * schedule stays the spec's 1, 2, 4, 8, 16 s.
 */
function browserRealtime(
  options: BrowserSocketOptions & { watchSignIn: Parameters<typeof createSignInWatch>[0] },
) {
  return realtimeMachine.provide({
    actors: {
      socket: createSocketActor(options),
      network: createNetworkActor(),
      signInWatch: createSignInWatch(options.watchSignIn),
    },
  });
}

/**
 * The realtime connection with its browser parts, for the user-data service to run: it connects
 * while the auth service holds a jwt and closes normally when it is gone; the socket reads the
 * current jwt from the auth service and the visitor session token from storage at every
 * connect; a refused jwt is renewed once through the auth service's single-flight refresh, and
 * a jwt about to expire is renewed on the open socket the same way (the server closes a socket
 * whose jwt expires).
 */
export function provideRealtime(deps: { storage: KeyValueStorage }) {
  return browserRealtime({
    url: () => websocketUrl(),
    credentials: (system) => ({
      jwt: systemTokenSource(system).getJwt(),
      session: deps.storage.get('sessionToken'),
    }),
    watchSignIn: (system, onChange) => {
      const auth = system.get(SYSTEM_IDS.auth) as ActorRefFrom<AuthMachine> | undefined;
      if (!auth) return undefined;
      onChange(Boolean(auth.getSnapshot().context.jwt));
      const subscription = auth.subscribe((snapshot) => onChange(Boolean(snapshot.context.jwt)));
      return () => subscription.unsubscribe();
    },
    renewJwt: async (system, usedJwt) => {
      try {
        return await systemTokenSource(system).renewJwt(usedJwt);
      } catch {
        return null;
      }
    },
  });
}
