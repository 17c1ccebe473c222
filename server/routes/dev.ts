import { API_VERSION, DEV_OUTBOX_PATH, outboxSchema } from '../../contract/api';
import { object, str } from '../../contract/schema';
import type { ApiRoute } from '../context';
import { canonicalEmail, normalizeEmail } from '../users';

export const devRoutes: readonly ApiRoute[] = [
  {
    // GET /api/dev/outbox?email= : the development outbox, newest first.
    method: 'GET',
    path: DEV_OUTBOX_PATH,
    protected: false,
    devOnly: true,
    request: object({}),
    response: outboxSchema,
    handle: async (ctx, req) => {
      // Listed under the address the code went to: the canonical form of the one asked for.
      const email = req.query.get('email');
      const typed = email ? normalizeEmail(email) : undefined;
      return { messages: await ctx.outbox.list(typed && (canonicalEmail(typed) ?? typed)) };
    },
  },
  {
    // GET /api/health: readiness probe for scripts and browser tests.
    method: 'GET',
    path: 'health',
    protected: false,
    request: object({}),
    response: object({ status: str(), version: str() }),
    handle: (ctx) => ({ status: 'ok', version: ctx.config.apiVersion ?? API_VERSION }),
  },
];
