import { fromCallback, fromPromise, type ActorRefFrom, type EventObject } from 'xstate';
import type { AuthMachine } from '../../../machines/auth/auth.machine';
import type { AuthUserData } from '../../../machines/auth/auth.types';
import type { RealtimeMachine } from '../../../machines/realtime/realtime.machine';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { userDataMachine } from '../../../machines/userData/userData.machine';
import type { UserDataEvent } from '../../../machines/userData/userData.types';
import type { ApiClient } from '../../api/client';
import { systemTokenSource } from '../tokenSource';

/**
 * The user-data service with its browser parts: user/data through the api client (a 401 waits
 * for the auth service's single refresh), the auth service's jwt as the signed-in fact, the
 * page's visibility, and the realtime connection it runs (`provideRealtime`).
 */
export function provideUserData(api: ApiClient, realtime: RealtimeMachine) {
  return userDataMachine.provide({
    actors: {
      realtime,
      fetchUserData: fromPromise<AuthUserData>(async ({ signal, system }) => {
        const answer = await api.call(
          'userData',
          {},
          { signal, tokens: systemTokenSource(system) },
        );
        return answer.user_data;
      }),
      authWatch: fromCallback<EventObject>(({ sendBack, system }) => {
        const auth = system.get(SYSTEM_IDS.auth) as ActorRefFrom<AuthMachine> | undefined;
        if (!auth) return undefined;
        let signedIn: boolean | null = null;
        const report = (jwt: string | null, userData: unknown) => {
          const now = Boolean(jwt);
          if (now === signedIn) return;
          // A jwt that arrives later without user data came from another tab's sign-in; at
          // start the session bootstrap is already asking user/data.
          const needsData = signedIn === false && userData === null;
          signedIn = now;
          sendBack(
            (now
              ? { type: 'userData.signedIn', needsData }
              : { type: 'userData.signedOut' }) satisfies UserDataEvent,
          );
        };
        const first = auth.getSnapshot().context;
        report(first.jwt, first.userData);
        const subscription = auth.subscribe(({ context }) => report(context.jwt, context.userData));
        return () => subscription.unsubscribe();
      }),
      visibility: fromCallback<EventObject>(({ sendBack }) => {
        if (typeof document === 'undefined') return undefined;
        const report = () =>
          sendBack({
            type: document.visibilityState === 'hidden' ? 'userData.hidden' : 'userData.visible',
          } satisfies UserDataEvent);
        report();
        document.addEventListener('visibilitychange', report);
        return () => document.removeEventListener('visibilitychange', report);
      }),
    },
  });
}
