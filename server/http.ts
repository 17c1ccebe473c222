import type { IncomingHttpHeaders } from 'node:http';

/** An error the client caused or should see: answered as `{ status: 'error', result: false, message }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export type ErrorBody = { status: 'error'; result: false; message: string };

export const errorBody = (message: string): ErrorBody => ({
  status: 'error',
  result: false,
  message,
});

/** The bearer token of an `Authorization: Bearer <jwt>` header, if any. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
