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
import type { HeadBoot, SentCall } from './headBoot';
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
  /** The session's calls the page's head already sent (src/app/bootInline.ts). */
  head?: HeadBoot;
};

/** The app machine's services by name, each replaceable by a test (createAppActor's `services`). */
export type AppServices = {
  [K in keyof ActorsOf]: ActorsOf[K];
};
type ActorsOf = Required<NonNullable<Parameters<typeof appMachine.provide>[0]['actors']>>;

// The machines mirror the contract's user data; this line fails to compile when they drift.
const _userDataMatchesContract: (u: UserData) => AuthUserData = (u) => u;

type SystemLike = ActorSystem<never> | { get(id: string): AnyActorRef | undefined };

/**
 * A promise actor for one contract call: the invoke's input is the payload (checked against the
 * contract's request schema by the client), the invoking state's AbortSignal reaches ky, and a
 * 401 on a protected path waits for the running app's auth machine to refresh.
 */
function apiActor<N extends CallName, Out = ResponseOf<N>>(
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

const noWait = (): Promise<void> => Promise.resolve();

/**
 * The session bootstrap with its api calls and the session-token storage writes. Each step first
 * takes the exchange the page's head sent for it (deps.head, src/app/bootInline.ts) when that is
 * the call this step makes (the same call with the same session), once; anything else calls
 * afresh. The chart alone decides which steps run and what each answer means: an exchange no
 * step asks for is never read. `between` (the boot's next task) comes after each answer.
 */
function provideSession(deps: AppDeps, between: () => Promise<void> = noWait) {
  const { api, storage } = deps;
  const head = deps.head;
  const taken = new Set<string>();
  /**
   * The head's exchange for `call` with `session` (as the client would send it), once. A call
   * the head has not sent (yet) is looked for again when its walk has ended: the head may send
   * it on an answer the chart has read first.
   */
  const take = async (call: string, session: string | null): Promise<SentCall | undefined> => {
    if (!head || taken.has(call)) return undefined;
    if (!head.sent[call]) await head.walked.catch(() => undefined);
    taken.add(call);
    const exchange = head.sent[call];
    return exchange && exchange.session === session ? exchange : undefined;
  };
  const fromHeadOr = async <N extends CallName>(
    name: N,
    session: string | null,
    fresh: () => Promise<ResponseOf<N>>,
  ): Promise<ResponseOf<N>> => {
    const exchange = await take(name, session);
    return exchange ? api.receive(name, exchange.response) : fresh();
  };
  // An answer the page already has settles at once: the session's next step, the app's `loaded`
  // and the page's re-render would all run in the task that started the actor. Each answer is
  // handed over in a task of its own.
  const handOver = <T>(answer: Promise<T>): Promise<T> =>
    answer.then(async (value) => {
      await between();
      return value;
    });
  const stored = () => storage.get('sessionToken');
  return sessionMachine.provide({
    actors: {
      sessInit: fromPromise<SessInitOutput>(({ signal }) =>
        handOver(fromHeadOr('sessInit', stored(), () => api.call('sessInit', {}, { signal }))),
      ),
      sessLoad: fromPromise(({ input, signal }) =>
        handOver(
          fromHeadOr('sessLoad', input.session, () =>
            api.call('sessLoad', { session: input.session }, { signal }),
          ),
        ),
      ),
      sessCreate: fromPromise(({ input, signal }) =>
        handOver(
          fromHeadOr('sessCreate', stored(), () =>
            api.call('sessCreate', { data: input.data }, { signal }),
          ),
        ),
      ),
      // The head's user/data is taken when it succeeded. When the server refused its jwt (401),
      // the app's refresh goes first (with its lock), then one user/data with the new jwt: the
      // refused jwt is not sent twice.
      userData: fromPromise<UserDataOutput>(({ signal, system }) => {
        const tokens = systemTokenSource(system as SystemLike);
        const fresh = () => api.call('userData', {}, { signal, tokens });
        const fetchUserData = async () => {
          const exchange = await take('userData', stored());
          if (!exchange) return fresh();
          return api.receive('userData', exchange.response).catch(async (error: unknown) => {
            if (!(error instanceof ApiError && error.status === 401)) throw error;
            const refused = tokens.getJwt();
            if (refused) await tokens.renewJwt(refused, signal);
            return fresh();
          });
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
        chunkFailed('member services', () => self.send({ type: 'app.retryMembers' }), error);
      },
    },
  });
}

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
