import { request } from 'node:http';

/**
 * POST /api/<path> from a chosen loopback source address (127.x.y.z: every one of them reaches
 * the server on 127.0.0.1), so a test can be many clients on many networks (/24s) at once.
 */
export function postFrom(
  localAddress: string,
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/api/${path}`);
  const payload = JSON.stringify(body);
  return new Promise((done, fail) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: { 'Content-Type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          done({
            status: res.statusCode ?? 0,
            body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
          }),
        );
      },
    );
    req.on('error', fail);
    req.end(payload);
  });
}

/** The loopback address of client `i` on network `n` (127.0.n.i: a /24 per network). */
export const loopback = (network: number, host = 1): string => `127.0.${network}.${host}`;
