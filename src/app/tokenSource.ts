import type { ActorRefFrom, ActorSystem, AnyActorRef, SnapshotFrom } from 'xstate';
import type { AuthMachine } from '../../machines/auth/auth.machine';
import { AUTH_MESSAGES } from '../../machines/auth/auth.messages';
import { SYSTEM_IDS } from '../../machines/systemIds';
import type { TokenSource } from '../api/client';
import { ApiError } from '../api/errors';

type AuthRef = ActorRefFrom<AuthMachine>;
type AuthSnapshot = SnapshotFrom<AuthMachine>;

/**
 * The auth service's first snapshot (the current one included) that `done` accepts; rejected when
 * `signal` aborts or the service stops first. (xstate's `waitFor` does the same with a timeout
 * this does not need, and would cost the landing's first load its code.)
 */
function settledAuth(
  auth: AuthRef,
  done: (snapshot: AuthSnapshot) => boolean,
  signal: AbortSignal | undefined,
): Promise<AuthSnapshot> {
  return new Promise((resolve, reject) => {
    const now = auth.getSnapshot();
    if (signal?.aborted) return reject(signal.reason);
    if (done(now)) return resolve(now);
    const finish = (settle: () => void) => {
      subscription.unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => finish(() => reject(signal?.reason));
    const subscription = auth.subscribe({
      next: (snapshot) => {
        if (done(snapshot)) finish(() => resolve(snapshot));
      },
      error: (error) => finish(() => reject(error)),
      complete: () => finish(() => reject(new Error('the auth service stopped'))),
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

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
        settled = await settledAuth(
          auth,
          (s) => s.context.epoch !== start.epoch || s.context.jwt !== usedJwt,
          signal,
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
