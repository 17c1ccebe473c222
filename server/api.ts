import type { FastifyInstance } from 'fastify';
import type { ApiRoute, ServerContext } from './context';
import { HttpError } from './http';
import { RATE_LIMITED_PATHS, rateLimitMessage } from './limits';
import { parse } from '../contract/schema';

/**
 * The API under /api/ as Fastify routes, one per contract call: the method, the bearer jwt of
 * protected routes (the bearer-auth plugin's hook, before the body is read), the body against the contract's request schema,
 * the answer against its response schema (the contract's valibot schemas), the per-IP rate
 * limits, and `{ status: 'error', result: false, message }` for every failure.
 */
export function createApi(app: FastifyInstance, ctx: ServerContext) {
  const { config, log } = ctx;
  const paths = new Set<string>();

  const addRoute = (route: ApiRoute): void => {
    const path = route.path.replace(/^\/+|\/+$/g, '');
    if (paths.has(path)) throw new Error(`Duplicate API route: ${path}`);
    paths.add(path);
    if (route.devOnly && config.mode !== 'development') return;
    const limit = RATE_LIMITED_PATHS[path];
    const rateLimit = limit && config.rateLimits[limit];
    app.route({
      method: route.method,
      exposeHeadRoute: route.method === 'GET',
      url: `/api/${path}`,
      bodyLimit: config.maxBodyBytes,
      config: rateLimit
        ? {
            rateLimit: {
              max: rateLimit.max,
              timeWindow: rateLimit.windowMs,
              errorResponseBuilder: (_req, context) => {
                const seconds = Math.ceil(context.ttl / 1000);
                return new HttpError(429, rateLimitMessage(seconds), {
                  'Retry-After': String(seconds),
                });
              },
            },
          }
        : {},
      // The jwt is checked before the body is read, so a client refreshes its jwt first.
      ...(route.protected ? { onRequest: app.requireUser } : {}),
      handler: async (req, reply) => {
        const body = route.method === 'POST' ? objectBody(req.body) : {};
        const checked = parse(route.request, body);
        if (!checked.ok) throw new HttpError(400, `Invalid request: ${checked.error}`);
        const session =
          typeof body.session === 'string' && body.session.length <= 200 ? body.session : undefined;
        const answer: unknown = await route.handle(ctx, {
          body: checked.value,
          session,
          userId: req.userId,
          headers: req.headers,
          query: new URL(req.url, 'http://localhost').searchParams,
          ip: req.ip,
        });
        if (route.response) {
          const valid = parse(route.response, answer);
          if (!valid.ok) {
            log.error(`Answer of /api/${path} breaks the contract: ${valid.error}`);
            throw new HttpError(500, 'Internal server error');
          }
        }
        reply.header('Cache-Control', 'no-store');
        return answer;
      },
    });
  };

  return { addRoute };
}

/** The parsed JSON body of a call; a body without one (no Content-Type) reads as `{}`. */
function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpError(400, 'Request body must be a JSON object');
  return body as Record<string, unknown>;
}
