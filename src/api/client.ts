import ky from 'ky';
import type { CallName, RequestOf, ResponseOf } from '../../contract/api';
import { MESSAGES } from '../../contract/messages';
import { isProtectedPath, isRefreshExempt } from '../../contract/paths';
import type { Schema } from '../../contract/schema';
import { defaultBaseUrl } from './baseUrl';
import { ApiError } from './errors';

export { defaultBaseUrl };

/**
 * The main API client (§7). Every call carries the session token (JSON body field `session`,
 * query param for GET, form field for form posts); protected paths carry `Authorization: Bearer`
 * and are rejected locally without a jwt. A 401 on a protected path asks the token source for a
 * renewed jwt (one refresh shared by every waiter, owned by the auth machine) and resends once.
 * Every answer is checked against the contract; failures are ApiError values with a `kind`.
 */
export type TokenSource = {
  /** The jwt to send now, or null when signed out. */
  getJwt(): string | null;
  /**
   * A jwt newer than `usedJwt`: at once when one is already held, otherwise after the single
   * shared refresh. Rejects (an ApiError of kind `auth`) when the refresh fails or the user
   * logged out meanwhile.
   */
  renewJwt(usedJwt: string, signal?: AbortSignal): Promise<string>;
};

export type ClientConfig = {
  /** API base URL ending in `/`; default `import.meta.env.VITE_API_URL` or same-origin `/api/`. */
  baseUrl?: string;
  getSessionToken: () => string | null;
  tokens?: TokenSource;
  fetch?: typeof fetch;
  timeoutMs?: number;
};

export type RequestOptions = {
  signal?: AbortSignal;
  method?: 'GET' | 'POST';
  /** Send the payload as multipart form data instead of JSON. */
  form?: boolean;
  /** The jwt holder for this call (the running app's auth machine); default from the config. */
  tokens?: TokenSource;
};

type Payload = Record<string, unknown>;

const noTokens: TokenSource = {
  getJwt: () => null,
  renewJwt: () => Promise.reject(new ApiError('auth', MESSAGES.refreshFailed, 'auth/refresh')),
};

function errorKindOf(error: unknown): 'aborted' | 'network' {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  return name === 'AbortError' ? 'aborted' : 'network';
}

/** The schemas and their parser: a chunk of its own, first asked for by createApiClient. */
let answers: Promise<typeof import('./answers')> | undefined;
const loadAnswers = (path = '') =>
  (answers ??= import('./answers').catch((cause: unknown) => {
    // Offline when it was first asked for: the next call asks again.
    answers = undefined;
    throw new ApiError('network', MESSAGES.connect, path, { cause });
  }));

async function messageOfBody(body: unknown): Promise<string | undefined> {
  const { errorBodySchema, parse } = await loadAnswers();
  const checked = parse(errorBodySchema, body);
  return checked.ok && checked.value.message ? checked.value.message : undefined;
}

/** A 429's `Retry-After` in whole seconds (an HTTP date or anything else is ignored). */
export function retryAfterOf(response: Pick<Response, 'status' | 'headers'>): number | undefined {
  const seconds = Number(response.headers.get('Retry-After') || NaN);
  return response.status === 429 && Number.isInteger(seconds) && seconds > 0 ? seconds : undefined;
}

type AnyCall = {
  readonly path: string;
  readonly protected: boolean;
  readonly request: Schema<unknown>;
  readonly response: Schema<unknown>;
};
const callSpec = async (name: CallName): Promise<AnyCall> =>
  (await loadAnswers(name)).CALLS[name] as AnyCall;

export function createApiClient(config: ClientConfig) {
  // The schemas load while the first calls are on the wire.
  void loadAnswers().catch(() => {});
  const baseUrl = config.baseUrl ?? defaultBaseUrl();
  const tokens = config.tokens ?? noTokens;
  const http = ky.create({
    prefixUrl: baseUrl,
    retry: 0,
    timeout: config.timeoutMs ?? 15_000,
    throwHttpErrors: false,
    ...(config.fetch ? { fetch: config.fetch } : {}),
  });

  /** One HTTP exchange: no 401 handling at all (the refresh call goes through here). */
  async function send(
    path: string,
    payload: Payload,
    jwt: string | null,
    options: RequestOptions,
  ): Promise<{ status: number; body: unknown }> {
    const session = config.getSessionToken();
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (jwt) headers.Authorization = `Bearer ${jwt}`;
    const method = options.method ?? 'POST';
    const withSession: Payload =
      session && payload.session === undefined ? { ...payload, session } : payload;
    let init: Parameters<typeof http>[1] = { method, headers };
    if (method === 'GET') {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(withSession)) {
        if (value !== undefined && value !== null) params.set(key, String(value));
      }
      init = { ...init, searchParams: params };
    } else if (options.form) {
      const form = new FormData();
      for (const [key, value] of Object.entries(withSession)) {
        if (value === undefined || value === null) continue;
        form.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
      }
      init = { ...init, body: form };
    } else {
      init = { ...init, json: withSession };
    }
    if (options.signal) init = { ...init, signal: options.signal };
    return answerOf(path, http(path.replace(/^\/+/, ''), init));
  }

  /** Reads an answer: the body as JSON, an ApiError for a refused or failed exchange. */
  async function answerOf(
    path: string,
    exchange: Promise<Response>,
  ): Promise<{ status: number; body: unknown }> {
    // The exchange and reading its body fail alike: cancelled, or the connection's message.
    const connectionError = (error: unknown) => {
      const kind = errorKindOf(error);
      return new ApiError(kind, kind === 'aborted' ? 'Request cancelled' : MESSAGES.connect, path, {
        cause: error,
      });
    };
    let response: Response;
    try {
      response = await exchange;
    } catch (error) {
      throw connectionError(error);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw connectionError(error);
    }
    let body: unknown;
    try {
      body = text.length === 0 ? undefined : JSON.parse(text);
    } catch (error) {
      if (!response.ok) {
        throw new ApiError('http', `Request failed with status ${response.status}`, path, {
          status: response.status,
          cause: error,
        });
      }
      throw new ApiError('parse', 'The server sent an answer that is not JSON', path, {
        status: response.status,
        cause: error,
      });
    }
    if (!response.ok) {
      const serverMessage = await messageOfBody(body);
      const retryAfterSeconds = retryAfterOf(response);
      throw new ApiError(
        'http',
        serverMessage ?? `Request failed with status ${response.status}`,
        path,
        {
          status: response.status,
          ...(serverMessage === undefined ? {} : { serverMessage }),
          ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
        },
      );
    }
    return { status: response.status, body };
  }

  async function check<T>(schema: Schema<T>, body: unknown, path: string): Promise<T> {
    const { parse } = await loadAnswers(path);
    const checked = parse(schema, body);
    if (checked.ok) return checked.value;
    const serverMessage = await messageOfBody(body);
    throw new ApiError(
      'schema',
      serverMessage ?? `The server sent an unexpected answer (${checked.error})`,
      path,
      serverMessage === undefined ? {} : { serverMessage },
    );
  }

  /**
   * Any path: adds the session token, the bearer jwt on protected paths, and for protected
   * paths that are not auth/* or sess/* one renew-and-resend after a 401.
   */
  async function request(path: string, payload: Payload, options: RequestOptions = {}) {
    if (!isProtectedPath(path)) return (await send(path, payload, null, options)).body;
    const source = options.tokens ?? tokens;
    const jwt = source.getJwt();
    if (!jwt) throw new ApiError('auth', MESSAGES.noJwt, path);
    try {
      return (await send(path, payload, jwt, options)).body;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401 || isRefreshExempt(path)) {
        throw error;
      }
      const renewed = await source.renewJwt(jwt, options.signal);
      return (await send(path, payload, renewed, options)).body;
    }
  }

  /** A typed call of the contract: request checked, `exchange` sends it, answer checked. */
  async function checked<N extends CallName>(
    name: N,
    payload: RequestOf<N>,
    exchange: (spec: AnyCall, body: Payload) => Promise<unknown>,
  ): Promise<ResponseOf<N>> {
    const spec = await callSpec(name);
    const body = (await check(spec.request, payload, spec.path)) as Payload;
    return (await check(spec.response, await exchange(spec, body), spec.path)) as ResponseOf<N>;
  }

  /** A typed call of the contract, renewing an expired jwt once (the refresh queue). */
  const call = <N extends CallName>(name: N, payload: RequestOf<N>, options: RequestOptions = {}) =>
    checked(name, payload, (spec, body) => request(spec.path, body, options));

  /** A typed call that never renews a jwt: the path auth/refresh itself takes. */
  const plainCall = <N extends CallName>(
    name: N,
    payload: RequestOf<N>,
    options: RequestOptions = {},
  ) =>
    checked(name, payload, async (spec, body) => {
      const jwt = spec.protected ? (options.tokens ?? tokens).getJwt() : null;
      if (spec.protected && !jwt) throw new ApiError('auth', MESSAGES.noJwt, spec.path);
      return (await send(spec.path, body, jwt, options)).body;
    });

  /**
   * The answer of a call the page sent before this client existed (the head's session calls,
   * src/app/bootInline.ts): read and checked exactly as `call` reads its own.
   */
  async function receive<N extends CallName>(
    name: N,
    exchange: Promise<Response>,
  ): Promise<ResponseOf<N>> {
    // Its failure is read below, once the schemas are in.
    exchange.catch(() => {});
    const spec = await callSpec(name);
    const answer = await answerOf(spec.path, exchange);
    return (await check(spec.response, answer.body, spec.path)) as ResponseOf<N>;
  }

  return { call, plainCall, request, receive };
}

export type ApiClient = ReturnType<typeof createApiClient>;
