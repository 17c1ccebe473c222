import type { CallErrorKind, CallErrorShape } from '../../machines/shared/callError';

/**
 * The one error type of the API client. `kind` tells a network failure from a server answer,
 * an unreadable body or a body of the wrong shape, so machines can pick the spec's text.
 */
export class ApiError extends Error implements CallErrorShape {
  readonly kind: CallErrorKind;
  readonly status?: number;
  readonly serverMessage?: string;
  /** HTTP 429 with a `Retry-After` of whole seconds: how long the server asks to wait. */
  readonly retryAfterSeconds?: number;
  readonly path: string;

  constructor(
    kind: CallErrorKind,
    message: string,
    path: string,
    extra: {
      status?: number;
      serverMessage?: string;
      retryAfterSeconds?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'ApiError';
    this.kind = kind;
    this.path = path;
    if (extra.status !== undefined) this.status = extra.status;
    if (extra.serverMessage !== undefined) this.serverMessage = extra.serverMessage;
    if (extra.retryAfterSeconds !== undefined) this.retryAfterSeconds = extra.retryAfterSeconds;
  }
}
