/**
 * The one shape of a failure as the machines see it: a call of the API client
 * (src/api/client.ts throws ApiError of this shape) or a wallet step (src/wallet/ throws
 * PaymentFailure, this shape from the wallet). Machines read it with `readFailure` (and the
 * guards below), never by the thrower's class.
 */
export type CallErrorKind =
  /** The request never got an answer: offline, DNS, connection reset, timeout. */
  | 'network'
  /** The server answered with a 4xx/5xx status. */
  | 'http'
  /** The answer was not JSON (an HTML error page, a cut body). */
  | 'parse'
  /** The answer was JSON of the wrong shape. */
  | 'schema'
  /** Rejected locally or after a failed refresh: no jwt, no refresh token, refresh failed. */
  | 'auth'
  /** The caller cancelled (the invoking state was left). */
  | 'aborted'
  /** The player declined in the wallet (§8: a cancellation, never an error). */
  | 'cancelled'
  /** The wallet or the chain refused the transfer; `solution` says what to do (§8). */
  | 'failed';

/** Who failed: the API client or the wallet code. */
export type FailureSource = 'api' | 'wallet';

export type CallErrorShape = {
  readonly kind: CallErrorKind;
  readonly message: string;
  /** Who failed (the API client's errors may leave it out: they are the default). */
  readonly source?: FailureSource;
  readonly status?: number;
  /** The call's path (`user/data`), for the error modal's details. */
  readonly path?: string;
  /** The `message` field of the server's JSON error body, when there was one. */
  readonly serverMessage?: string;
  /** HTTP 429 with a `Retry-After` of whole seconds: how long the server asks to wait. */
  readonly retryAfterSeconds?: number;
  /** What the player can do (§8's solution line), when the failure knows it: a wallet's refusal. */
  readonly solution?: string;
};

/** A failure as read: each field present only when the rejection carried it as it should be. */
export type FailureReading = {
  kind?: CallErrorKind;
  message?: string;
  path?: string;
  serverMessage?: string;
  retryAfterSeconds?: number;
  solution?: string;
};

/** The fields read as texts: a text that is empty, or no text, reads as absent. */
const TEXTS = ['kind', 'message', 'path', 'serverMessage', 'solution'] as const;

/**
 * The one reader of a rejection, whatever threw it (the API client, the wallet code, a plain
 * Error, a text): a field of the wrong type or empty reads as absent; retry-after is whole
 * seconds, and only a wait (more than 0).
 */
export function readFailure(error: unknown): FailureReading {
  if (typeof error === 'string') return error ? { message: error } : {};
  if (typeof error !== 'object' || error === null) return {};
  const raw = error as Record<string, unknown>;
  const reading: Record<string, string | number> = {};
  for (const key of TEXTS) {
    const value = raw[key];
    if (typeof value === 'string' && value) reading[key] = value;
  }
  const after = raw.retryAfterSeconds;
  if (typeof after === 'number' && after > 0) reading.retryAfterSeconds = Math.ceil(after);
  return reading as FailureReading;
}

export function isCallError(error: unknown): error is CallErrorShape {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { kind?: unknown; message?: unknown };
  return typeof candidate.kind === 'string' && typeof candidate.message === 'string';
}

export function isNetworkError(error: unknown): boolean {
  return isCallError(error) && error.kind === 'network';
}

/** The server's own message when a call's answer had one; otherwise undefined. */
export function serverMessageOf(error: unknown): string | undefined {
  return isCallError(error) ? readFailure(error).serverMessage : undefined;
}
