import type { ApiRoute } from '../context';
import { authRoutes } from './auth';
import { devRoutes } from './dev';
import { sessionRoutes } from './session';
import { userRoutes } from './user';

/**
 * Every API route under /api/. Other parts of the server add theirs here (for example
 * `...paymentRoutes` from ./payment), or at start-up through a plugin's `host.addRoute`.
 */
export const ROUTES: readonly ApiRoute[] = [
  ...sessionRoutes,
  ...authRoutes,
  ...userRoutes,
  ...devRoutes,
];
