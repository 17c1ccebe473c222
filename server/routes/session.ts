import type { ApiRoute } from '../context';
import { HttpError } from '../http';
import { publicData } from '../pricing';
import { contractRoute } from './define';

const SESSION_NOT_FOUND = 'Session not found or expired';

export const sessionRoutes: readonly ApiRoute[] = [
  contractRoute('sessInit', (ctx) => ({
    status: 'ok',
    version: ctx.config.apiVersion,
    data: { public_data: publicData(ctx.now(), ctx.config.calendar, ctx.config.ticketPriceSol) },
  })),

  contractRoute('sessLoad', async (ctx, req) => {
    if (!(await ctx.sessions.load(req.body.session))) throw new HttpError(401, SESSION_NOT_FOUND);
    return { status: 'ok', message: 'Session loaded' };
  }),

  contractRoute('sessCreate', async (ctx, req) => ({
    status: 'ok',
    sessionToken: await ctx.sessions.create(req.body.data),
  })),
];
