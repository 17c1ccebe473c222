import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ServerContext } from './context';
import { bearerToken, HttpError } from './http';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user of a protected API call (null elsewhere). */
    userId: number | null;
  }
  interface FastifyInstance {
    /**
     * onRequest hook of the protected routes: the `Authorization: Bearer <jwt>` header, its
     * signature and expiry, its sign-in session still live (`sid`), its user still there. Runs
     * before the body is read, so a client with an old jwt refreshes it first.
     */
    requireUser: onRequestHookHandler;
  }
}

const REFUSED: Readonly<Record<string, string>> = {
  expired: 'Token expired',
  revoked: 'Session ended',
};

/** Bearer auth for the API, as a Fastify plugin: `req.userId` and the `requireUser` hook. */
export const bearerAuth = fastifyPlugin<{ ctx: ServerContext }>(
  async (app, { ctx }) => {
    app.decorateRequest('userId', null);
    app.decorate('requireUser', async (req: FastifyRequest) => {
      const token = bearerToken(req.headers);
      if (!token) throw new HttpError(401, 'Missing bearer token');
      const check = await ctx.auth.verifyJwt(token);
      if (!check.ok) throw new HttpError(401, REFUSED[check.reason] ?? 'Invalid token');
      if (!(await ctx.users.findById(check.userId))) throw new HttpError(401, 'Unknown user');
      req.userId = check.userId;
    });
  },
  { name: 'bearer-auth', fastify: '5.x' },
);
