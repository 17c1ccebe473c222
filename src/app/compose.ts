import { fromCallback, fromPromise, type ActorSystem, type AnyActorRef } from 'xstate';
import { appMachine } from '../../machines/app/app.machine';
import type { AppInput, MemberServices } from '../../machines/app/app.types';
import { authMachine } from '../../machines/auth/auth.machine';
import { launchMachine } from '../../machines/launch/launch.machine';
import type { AuthUserData } from '../../machines/auth/auth.types';
import { sessionMachine } from '../../machines/session/session.machine';
import type {
  SessInitOutput,
  SessionStartData,
  UserDataOutput,
} from '../../machines/session/session.types';
import type { StoredValues } from '../../machines/shared/stored';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { CallName, RequestOf, ResponseOf, UserData } from '../../contract/api';
import { browserClock } from '../platform/clock';
import { chunkFailed } from '../platform/chunkRetry';
import { retryableImport } from '../platform/retryableImport';
import { writeClipboardText } from '../platform/overlayServices';
import { provideErrorModal, provideNotifications, provideTheme } from './provide/overlays';
import type { OtherTabAuthChange } from '../platform/otherTabs';
import type { KeyValueStorage } from '../platform/storage';
import { provideHome } from './provide/home';
import { provideSignIn } from './provide/signIn';
import { NOT_TAKEN, takeOnce, type EarlySession } from './earlySession';
import { systemTokenSource } from './tokenSource';

export { sessionStartData } from './startData';

/**
 * The composition of the app machine with real implementations: api actors over the client,
 * storage writes, the other-tab logout watch. src/main.tsx calls it with browser parts; tests
 * call it with fakes (a fetch fake inside the client, an in-memory storage).
 */
export type AppDeps = {
  api: ApiClient;
  storage: KeyValueStorage;
  /** Subscribes to sign-ins and logouts made by other tabs; returns the unsubscribe. */
  onOtherTabAuthChange?: (listener: (change: OtherTabAuthChange) => void) => () => void;
  /** Runs the refresh under a lock shared by the site's tabs (navigator.locks). */
  withRefreshLock?: <T>(task: () => Promise<T>) => Promise<T>;
  /** The session's calls already on their way (src/app/earlyApi.ts), for the first steps. */
  early?: EarlySession;
};

/** The app machine's services by name, each replaceable by a test (createAppActor's `services`). */
export type AppServices = {
  [K in keyof ActorsOf]: ActorsOf[K];
};
type ActorsOf = Required<NonNullable<Parameters<typeof appMachine.provide>[0]['actors']>>;

// The machines mirror the contract's user data; this line fails to compile when they drift.
export const userDataMatchesContract: (u: UserData) => AuthUserData = (u) => u;

type SystemLike = ActorSystem<never> | { get(id: string): AnyActorRef | undefined };

/**
 * A promise actor for one contract call: the invoke's input is the payload (checked against the
 * contract's request schema by the client), the invoking state's AbortSignal reaches ky, and a
 * 401 on a protected path waits for the running app's auth machine to refresh.
 */
export function apiActor<N extends CallName, Out = ResponseOf<N>>(
  api: ApiClient,
  name: N,
  shape: (answer: ResponseOf<N>) => Out = (answer) => answer as unknown as Out,
) {
  return fromPromise<Out>(async ({ input, signal, system }) => {
    const payload = (input ?? {}) as RequestOf<N>;
    const tokens = systemTokenSource(system as SystemLike);
    return shape(await api.call(name, payload, { signal, tokens }));
  });
}

/** The auth machine with the refresh call, storage writes and the other-tab watch. */
export function provideAuth(deps: AppDeps) {
  const { api, storage } = deps;
  return authMachine.provide({
    actors: {
      // auth/refresh goes through the plain path: it never waits for a refresh itself.
      refreshTokens: fromPromise(({ input, signal }) => {
        const refresh = async () => {
          // Storage is re-read under the lock: when another tab has already rotated the refresh
          // token, its new tokens are used instead of sending the old one (which would be revoked).
          const storedJwt = storage.get('jwt');
          const storedRefresh = storage.get('refreshToken');
          if (storedJwt && storedRefresh && storedRefresh !== input.refreshToken) {
            return { jwt: storedJwt, refreshToken: storedRefresh };
          }
          const answer = await api.plainCall(
            'authRefresh',
            { refresh_token: input.refreshToken },
            { signal },
          );
          return { jwt: answer.jwt, refreshToken: answer.refresh_token };
        };
        return deps.withRefreshLock ? deps.withRefreshLock(refresh) : refresh();
      }),
      watchOtherTabs: fromCallback(({ sendBack }) => {
        if (!deps.onOtherTabAuthChange) return undefined;
        return deps.onOtherTabAuthChange((change) =>
          sendBack(
            change.type === 'signedOut'
              ? { type: 'auth.loggedOutElsewhere' }
              : {
                  type: 'auth.signedInElsewhere',
                  jwt: change.jwt,
                  refreshToken: change.refreshToken,
                },
          ),
        );
      }),
    },
    actions: {
      persistTokens: (_, params) => {
        storage.set('jwt', params.jwt);
        storage.set('refreshToken', params.refreshToken);
      },
      clearStoredTokens: () => {
        storage.remove('jwt');
        storage.remove('refreshToken');
      },
      // Best effort: storage is cleared whatever the answer; an API host without auth/logout
      // (404) or a server that cannot be reached changes nothing for the player.
      revokeSession: (_, params) => {
        if (!params.refreshToken) return;
        api
          .plainCall('authLogout', { refresh_token: params.refreshToken })
          .catch((error: unknown) =>
            console.info('[auth] logout not confirmed by the server', error),
          );
      },
    },
  });
}

/** The early user/data's jwt was refused by the server. */
const JWT_REFUSED = Symbol('jwt refused');

const noWait = (): Promise<void> => Promise.resolve();

/**
 * The session bootstrap with its api calls and the session-token storage writes. The first run
 * of each step takes the call the page started with the document (deps.early, from
 * ./earlyApi.ts) when that call is the one the step would make; anything else calls afresh.
 * `between` (the boot's next task) comes after each answer.
 */
export function provideSession(deps: AppDeps, between: () => Promise<void> = noWait) {
  const { api, storage, early } = deps;
  // An answer the page already has settles at once: the session's next step, the app's `loaded`
  // and the page's re-render would all run in the task that started the actor. Each answer is
  // handed over in a task of its own.
  const handOver = <T>(answer: Promise<T>): Promise<T> =>
    answer.then(async (value) => {
      await between();
      return value;
    });
  const init = takeOnce(early?.init, () => api.call('sessInit', {}));
  const create = takeOnce(early?.create, () => Promise.resolve<typeof NOT_TAKEN>(NOT_TAKEN));
  const earlyUserData = takeOnce(early?.userData, () =>
    Promise.resolve<typeof NOT_TAKEN>(NOT_TAKEN),
  );
  let load = early?.load;
  return sessionMachine.provide({
    actors: {
      sessInit: fromPromise<SessInitOutput>(({ signal }) =>
        handOver(early ? init() : api.call('sessInit', {}, { signal })),
      ),
      sessLoad: fromPromise(({ input, signal }) => {
        const taken = load && input.session === early?.storedSession ? load : undefined;
        load = undefined;
        return handOver(
          takeOnce(taken, () => api.call('sessLoad', { session: input.session }, { signal }))(),
        );
      }),
      sessCreate: fromPromise(({ input, signal }) =>
        handOver(
          create().then((answer) =>
            answer === NOT_TAKEN
              ? api.call('sessCreate', { data: input.data }, { signal })
              : answer,
          ),
        ),
      ),
      // The early user/data is taken when it succeeded. When the server refused its jwt (401),
      // the app's refresh goes first (with its lock), then one user/data with the new jwt: the
      // refused jwt is not sent twice.
      userData: fromPromise<UserDataOutput>(({ signal, system }) => {
        const tokens = systemTokenSource(system as SystemLike);
        const fetchUserData = async () => {
          const answer = await earlyUserData().catch((error: unknown) =>
            error instanceof ApiError && error.status === 401 ? JWT_REFUSED : NOT_TAKEN,
          );
          if (answer === JWT_REFUSED) {
            const refused = tokens.getJwt();
            if (refused) await tokens.renewJwt(refused, signal);
          } else if (answer !== NOT_TAKEN) return answer;
          return api.call('userData', {}, { signal, tokens });
        };
        return handOver(fetchUserData());
      }),
    },
    actions: {
      persistSessionToken: (_, params) => storage.set('sessionToken', params.sessionToken),
      removeStoredSessionToken: () => storage.remove('sessionToken'),
    },
  });
}

/**
 * The app machine with every service provided. A new service is built in one of the groups below
 * (`const x = provideX(deps)`) and named in `actors`, next to its line in SERVICES
 * (machines/app/app.machine.ts). Providing a machine builds its states anew, so the services are
 * built a few at a time with `between` (the boot's next task) after each group: start-up is
 * short tasks, not one long one. `replaced` swaps services for a test's stand-ins.
 */
export async function composeApp(
  deps: AppDeps,
  between: () => Promise<void>,
  replaced: Partial<AppServices> = {},
) {
  const auth = provideAuth(deps);
  const session = provideSession(deps, between);
  await between();
  const signIn = provideSignIn({ api: deps.api, storage: deps.storage });
  await between();
  const notifications = provideNotifications();
  const errorModal = provideErrorModal();
  const theme = provideTheme(deps);
  await between();
  const launch = launchMachine.provide({ actors: { clock: browserClock } });
  const home = provideHome({
    inviteCodes: apiActor(deps.api, 'inviteCodes', (answer) => answer.codes),
    writeClipboard: writeClipboardText,
  });
  await between();
  const members = retryableImport(() => import('./members'));
  // The member services' chunk, its evaluation and providing them are a task each.
  const loadMembers = fromPromise<MemberServices>(async () => {
    await between();
    const chunk = await members();
    await between();
    const provided = chunk.provideMembers(deps);
    await between();
    return provided;
  });
  const services = {
    ...{ auth, session, signIn, notifications, errorModal, theme, launch, home, loadMembers },
    ...replaced,
  } as AppServices;
  return appMachine.provide({
    actors: services,
    actions: {
      reportMembersUnavailable: ({ self }, { error }) => {
        console.error('[app] the member services could not load', error);
        // The page's retry notice says so; its Retry asks for the chunk again.
        chunkFailed('member services', () => self.send({ type: 'app.retryMembers' }));
      },
    },
  });
}

export type ComposedApp = Awaited<ReturnType<typeof composeApp>>;

/** Browser storage read once at boot. */
export function readStored(storage: KeyValueStorage): StoredValues {
  return {
    jwt: storage.get('jwt'),
    refreshToken: storage.get('refreshToken'),
    sessionToken: storage.get('sessionToken'),
    theme: storage.get('theme'),
    codeInvite: storage.get('codeInvite'),
  };
}

export function appInput(storage: KeyValueStorage, startData: SessionStartData): AppInput {
  return { stored: readStored(storage), startData };
}
