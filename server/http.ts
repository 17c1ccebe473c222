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

/** A JSON object request body; an empty body reads as `{}`. */
export function jsonObjectOf(raw: Buffer | string | undefined): Record<string, unknown> {
  const text = (Buffer.isBuffer(raw) ? raw.toString('utf8') : (raw ?? '')).trim();
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Malformed JSON in request body');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HttpError(400, 'Request body must be a JSON object');
  return value as Record<string, unknown>;
}

/** The bearer token of an `Authorization: Bearer <jwt>` header, if any. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
