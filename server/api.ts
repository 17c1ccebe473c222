import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from '../contract/schema';
import type { ApiRoute, ServerContext } from './context';
import { bearerToken, HttpError, readJsonBody, sendError, sendJson } from './http';
import { SECURITY_HEADERS } from './static';

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

const describe = (error: unknown): string =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);

/**
 * The API under /api/: finds the route, checks the method, the bearer jwt (protected routes),
 * the body against the contract's request schema, the answer against its response schema, and
 * turns every failure into `{ status: 'error', result: false, message }`.
 */
export function createApi(ctx: ServerContext) {
  const { config, log } = ctx;
  const routes = new Map<string, ApiRoute>();

  const addRoute = (route: ApiRoute): void => {
    const key = route.path.replace(/^\/+|\/+$/g, '');
    if (routes.has(key)) throw new Error(`Duplicate API route: ${key}`);
    routes.set(key, route);
  };

  function corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = req.headers.origin;
    if (typeof origin !== 'string') return {};
    const allowed =
      config.mode === 'development'
        ? LOCAL_ORIGIN.test(origin)
        : config.corsOrigins.includes(origin);
    if (!allowed) return {};
    return {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Headers': 'Content-Type, Authorization',
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
      'Access-Control-Expose-Headers': 'Retry-After',
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    };
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const cors = corsHeaders(req);
    for (const [name, value] of Object.entries({ ...cors, ...SECURITY_HEADERS }))
      res.setHeader(name, value);
    if (req.method === 'OPTIONS') {
      res.writeHead(204);
      res.end();
      return;
    }
    try {
      const path = url.pathname.slice('/api/'.length).replace(/\/+$/, '');
      const route = routes.get(path);
      if (!route || (route.devOnly && config.mode !== 'development'))
        throw new HttpError(404, `Unknown API path: /api/${path}`);
      if (req.method !== route.method && !(route.method === 'GET' && req.method === 'HEAD')) {
        throw new HttpError(405, `Method ${req.method ?? ''} not allowed on /api/${path}`, {
          Allow: route.method,
        });
      }
      // Protected calls answer 401 before looking at the body, so a client refreshes its jwt first.
      let userId: number | null = null;
      if (route.protected) {
        userId = authenticate(req);
      }
      const body = route.method === 'POST' ? await readJsonBody(req, config.maxBodyBytes) : {};
      const checked = parse(route.request, body);
      if (!checked.ok) throw new HttpError(400, `Invalid request: ${checked.error}`);
      const session =
        typeof body.session === 'string' && body.session.length <= 200 ? body.session : undefined;
      const answer: unknown = await route.handle(ctx, {
        body: checked.value,
        session,
        userId,
        headers: req.headers,
        query: url.searchParams,
      });
      if (route.response) {
        const valid = parse(route.response, answer);
        if (!valid.ok) {
          log.error(`Answer of /api/${path} breaks the contract: ${valid.error}`);
          throw new HttpError(500, 'Internal server error');
        }
      }
      sendJson(res, 200, answer);
    } catch (error) {
      // An unread body is drained so the connection stays usable for the next request.
      if (!req.complete) req.resume();
      if (error instanceof HttpError) {
        sendError(res, error);
        return;
      }
      log.error(`API ${url.pathname} failed: ${describe(error)}`);
      sendError(res, new HttpError(500, 'Internal server error'));
    }
  }

  function authenticate(req: IncomingMessage): number {
    const token = bearerToken(req);
    if (!token) throw new HttpError(401, 'Missing bearer token');
    const check = ctx.auth.verifyJwt(token);
    if (!check.ok)
      throw new HttpError(401, check.reason === 'expired' ? 'Token expired' : 'Invalid token');
    if (!ctx.users.findById(check.userId)) throw new HttpError(401, 'Unknown user');
    return check.userId;
  }

  return { addRoute, handle: handleApi };
}
