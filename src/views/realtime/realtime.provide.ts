import { systemTokenSource } from '../../app/tokenSource';
import type { KeyValueStorage } from '../../platform/storage';
import { browserRealtime, websocketUrl } from '../../platform/socket';

/**
 * The realtime service with its browser parts: the socket reads the current jwt from the auth
 * service and the visitor session token from storage at every connect, and a refused jwt is
 * renewed once through the auth service's single-flight refresh.
 */
export function provideRealtime(deps: { storage: KeyValueStorage }) {
  return browserRealtime({
    url: () => websocketUrl(),
    credentials: (system) => ({
      jwt: systemTokenSource(system).getJwt(),
      session: deps.storage.get('sessionToken'),
    }),
    renewJwt: async (system, usedJwt) => {
      try {
        await systemTokenSource(system).renewJwt(usedJwt);
        return true;
      } catch {
        return false;
      }
    },
  });
}
