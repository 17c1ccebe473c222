import type { IncomingMessage, ServerResponse } from 'node:http';

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

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: HttpError): void {
  sendJson(res, error.status, errorBody(error.message), error.headers);
}

/**
 * Reads a JSON object body of at most `maxBytes`. An empty body reads as `{}`. Oversized bodies
 * are refused with 413 (without buffering them), malformed JSON or a non-object with 400.
 */
export function readJsonBody(
  req: IncomingMessage,
  maxBytes: number,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.resume();
      reject(
        new HttpError(413, `Request body too large (limit ${maxBytes} bytes)`, {
          Connection: 'close',
        }),
      );
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      action();
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        settle(() =>
          reject(
            new HttpError(413, `Request body too large (limit ${maxBytes} bytes)`, {
              Connection: 'close',
            }),
          ),
        );
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () =>
      settle(() => reject(new HttpError(400, 'Request body could not be read'))),
    );
    req.on('aborted', () => settle(() => reject(new HttpError(400, 'Request aborted'))));
    req.on('end', () =>
      settle(() => {
        const text = Buffer.concat(chunks).toString('utf8').trim();
        if (text === '') {
          resolve({});
          return;
        }
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          reject(new HttpError(400, 'Malformed JSON in request body'));
          return;
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          reject(new HttpError(400, 'Request body must be a JSON object'));
          return;
        }
        resolve(value as Record<string, unknown>);
      }),
    );
  });
}

/** The bearer token of an `Authorization: Bearer <jwt>` header, if any. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
