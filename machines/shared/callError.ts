/**
 * The shape of a failed call as the machines see it. The browser client (src/api/client.ts)
 * throws errors of this shape; machines read them without importing the client.
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
  | 'aborted';

export type CallErrorShape = {
  readonly kind: CallErrorKind;
  readonly message: string;
  readonly status?: number;
  /** The `message` field of the server's JSON error body, when there was one. */
  readonly serverMessage?: string;
  /** HTTP 429 with a `Retry-After` of whole seconds: how long the server asks to wait. */
  readonly retryAfterSeconds?: number;
};

export function isCallError(error: unknown): error is CallErrorShape {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { kind?: unknown; message?: unknown };
  return typeof candidate.kind === 'string' && typeof candidate.message === 'string';
}

export function isNetworkError(error: unknown): boolean {
  return isCallError(error) && error.kind === 'network';
}

/** The server's own message when it sent one; otherwise undefined. */
export function serverMessageOf(error: unknown): string | undefined {
  return isCallError(error) && error.serverMessage ? error.serverMessage : undefined;
}
