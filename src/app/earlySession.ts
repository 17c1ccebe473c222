import type { CallName, ResponseOf } from '../../contract/api';
import { API_VERSION } from '../../contract/spec';
import type { ApiClient } from '../api/client';
import type { KeyValueStorage } from '../platform/storage';
import { hasExpired } from './jwtExpiry';

/** A step the page's session did not take ahead of the app. */
export const NOT_TAKEN = Symbol('not taken');
export type Step<T> = Promise<T | typeof NOT_TAKEN>;

/**
 * The exchanges the head's inline script started (src/app/bootInline.ts): raw responses, each
 * read by the app's client; null for a step it did not take.
 */
export type HeadBoot = {
  init: Promise<Response>;
  storedSession: string | null;
  load: Promise<Response | null>;
  create: Promise<Response | null>;
  /** user/data with the stored jwt, sent with sess/load (null: not sent); taken once that loaded. */
  userData?: Promise<Response | null>;
};

/**
 * The session's calls the page started with the document (src/app/earlyApi.ts), for the
 * session machine's steps to take (provideSession in ./compose.ts).
 */
export type EarlySession = {
  init: Promise<ResponseOf<'sessInit'>>;
  /** sess/load of `storedSession`, when one was stored. */
  load: Step<ResponseOf<'sessLoad'>>;
  storedSession: string | null;
  create: Step<ResponseOf<'sessCreate'>>;
  /** user/data with the stored jwt, once the stored session has loaded. */
  userData: Step<ResponseOf<'userData'>>;
};

/**
 * Takes an early step once: its answer (or its error) when it was taken, otherwise `fresh()`.
 * Later calls (a retry, a second session) always go fresh.
 */
export function takeOnce<T, F = T>(step: Step<T> | undefined, fresh: () => Promise<F>) {
  let pending = step;
  return (): Promise<T | F> => {
    const early = pending;
    pending = undefined;
    if (!early) return fresh();
    return early.then<T | F>((answer) => (answer === NOT_TAKEN ? fresh() : answer));
  };
}

/**
 * The session's calls ahead of the app (§4 Session, the session machine's own order). With the
 * head's exchanges (`sent`, every pre-rendered page): sess/init, then the stored session loaded
 * or a new one created, each read by the app's client; with a stored, unexpired jwt and a
 * loaded session, user/data. Without them (the development server's page): sess/init alone.
 * Reads storage, never writes it.
 */
export function startEarlySession(deps: {
  api: ApiClient;
  storage: KeyValueStorage;
  now?: () => number;
  /** The calls the head's inline script already sent. */
  sent?: HeadBoot;
}): EarlySession {
  const { api, storage, sent } = deps;
  const now = deps.now ?? Date.now;
  const storedJwt = storage.get('jwt');
  const init = sent ? api.receive('sessInit', sent.init) : api.call('sessInit', {});
  const required = init.then((answer) => answer.version === API_VERSION);
  const step = <N extends 'sessLoad' | 'sessCreate'>(
    name: N,
    exchange: Promise<Response | null> | undefined,
  ): Step<ResponseOf<N>> =>
    required.then<ResponseOf<N> | typeof NOT_TAKEN>((ok) =>
      ok && exchange ? readSent(api, name, exchange) : NOT_TAKEN,
    );
  const load = step('sessLoad', sent?.load);
  const create = step('sessCreate', sent?.create);
  const userData: Step<ResponseOf<'userData'>> = load.then<
    ResponseOf<'userData'> | typeof NOT_TAKEN,
    typeof NOT_TAKEN
  >(
    (loaded) => {
      if (loaded === NOT_TAKEN || !storedJwt) return NOT_TAKEN;
      // The head's own user/data when the page sent the session's calls (not sent: the session
      // machine asks for it itself, see takeOnce).
      if (sent?.userData) return readSent(api, 'userData', sent.userData);
      return hasExpired(storedJwt, now()) ? NOT_TAKEN : fresh(api, storedJwt);
    },
    () => NOT_TAKEN,
  );
  // A failure is the session machine's to report when it takes the answer, not an unhandled
  // rejection before then.
  for (const call of [init, load, create, userData]) call.catch(() => {});
  return { init, load, storedSession: sent?.storedSession ?? null, create, userData };
}

/** A step the head sent, read by the app's client (a failed exchange too); null: not taken. */
function readSent<N extends CallName>(
  api: ApiClient,
  name: N,
  exchange: Promise<Response | null>,
): Step<ResponseOf<N>> {
  type Read = ResponseOf<N> | typeof NOT_TAKEN;
  return exchange.then<Read, Read>(
    (answer) => (answer ? api.receive(name, Promise.resolve(answer)) : NOT_TAKEN),
    (error: unknown) => api.receive(name, Promise.reject(error as Error)),
  );
}

/** user/data with the stored jwt, as the app's client sends it, never refreshing it. */
const fresh = (api: ApiClient, jwt: string) =>
  api.plainCall('userData', {}, { tokens: { getJwt: () => jwt, renewJwt: refuse } });

/**
 * The early user/data never refreshes a jwt (a plain call: a 401 is its answer); the app's auth
 * machine refreshes, with its lock.
 */
const refuse = (): Promise<string> => Promise.reject(new Error('refreshed by the app'));
