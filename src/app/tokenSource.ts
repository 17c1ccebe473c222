import { waitFor, type ActorRefFrom, type ActorSystem, type AnyActorRef } from 'xstate';
import type { AuthMachine } from '../../machines/auth/auth.machine';
import { AUTH_MESSAGES } from '../../machines/auth/auth.messages';
import { SYSTEM_IDS } from '../../machines/systemIds';
import type { TokenSource } from '../api/client';
import { ApiError } from '../api/errors';

type AuthRef = ActorRefFrom<AuthMachine>;

/**
 * The client's view of the auth machine. `renewJwt` never refreshes by itself: it sends
 * `auth.refresh` (the machine starts at most one refresh for the current jwt) and waits until the
 * jwt changes (use it) or the epoch changes (logout or another sign-in: reject).
 */
export function authTokenSource(getAuth: () => AuthRef | undefined): TokenSource {
  return {
    getJwt: () => getAuth()?.getSnapshot().context.jwt ?? null,
    async renewJwt(usedJwt, signal) {
      const auth = getAuth();
      if (!auth) throw new ApiError('auth', AUTH_MESSAGES.refreshFailed, 'auth/refresh');
      const start = auth.getSnapshot().context;
      if (start.jwt === null) {
        throw new ApiError('auth', start.logoutReason ?? AUTH_MESSAGES.noJwt, 'auth/refresh');
      }
      // The refresh already happened after this request was sent: resend with the current jwt.
      if (start.jwt !== usedJwt) return start.jwt;
      auth.send({ type: 'auth.refresh', jwt: usedJwt });
      let settled;
      try {
        settled = await waitFor(
          auth,
          (s) => s.context.epoch !== start.epoch || s.context.jwt !== usedJwt,
          signal ? { signal } : {},
        );
      } catch (error) {
        throw new ApiError('aborted', 'Request cancelled', 'auth/refresh', { cause: error });
      }
      const { context } = settled;
      if (context.epoch !== start.epoch || context.jwt === null) {
        throw new ApiError(
          'auth',
          context.logoutReason ?? AUTH_MESSAGES.refreshFailed,
          'auth/refresh',
        );
      }
      return context.jwt;
    },
  };
}

/** The token source of the running app, found through the actor system. */
export function systemTokenSource(
  system: ActorSystem<never> | { get(id: string): AnyActorRef | undefined },
): TokenSource {
  return authTokenSource(() => system.get(SYSTEM_IDS.auth) as AuthRef | undefined);
}
