import { createServer, request, type IncomingMessage, type Server } from 'node:http';

/**
 * A loopback HTTP front for the site that hands a page's document out in pieces, the way a slow
 * phone's connection does: the head at once, then the body `pieceBytes` at a time with `pauseMs`
 * between, so the browser parses and paints it part by part. Everything else (assets, the API)
 * passes through untouched; a signed-out page opens no websocket.
 */
export type PiecemealProxy = { url: string; close: () => Promise<void> };

export async function startPiecemealProxy(
  target: string,
  { pieceBytes = 400, pauseMs = 120 }: { pieceBytes?: number; pauseMs?: number } = {},
): Promise<PiecemealProxy> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    const isDocument = req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
    // The document uncompressed, to cut it at byte offsets the parser sees.
    if (isDocument) headers['accept-encoding'] = 'identity';
    const forward = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (answer: IncomingMessage) => {
        if (!isDocument || !(answer.headers['content-type'] ?? '').includes('text/html')) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const html = Buffer.concat(chunks);
          const { 'content-length': _length, ...rest } = answer.headers;
          res.writeHead(answer.statusCode ?? 502, { ...rest, 'transfer-encoding': 'chunked' });
          const bodyAt = html.indexOf('<body');
          const pieces: Buffer[] = [html.subarray(0, bodyAt < 0 ? html.length : bodyAt)];
          for (let at = Math.max(bodyAt, 0); bodyAt >= 0 && at < html.length; at += pieceBytes)
            pieces.push(html.subarray(at, Math.min(at + pieceBytes, html.length)));
          const send = (index: number): void => {
            if (res.destroyed) return;
            if (index === pieces.length) {
              res.end();
              return;
            }
            res.write(pieces[index]);
            setTimeout(() => send(index + 1), pauseMs);
          };
          send(0);
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
