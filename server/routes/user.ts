import type { ApiRoute, ServerContext } from '../context';
import { HttpError } from '../http';
import type { UserRow } from '../users';
import { contractRoute } from './define';

/** The signed-in user of a protected route (the router has already checked the jwt). */
export function currentUser(ctx: ServerContext, userId: number | null): UserRow {
  const user = userId === null ? undefined : ctx.users.findById(userId);
  if (!user) throw new HttpError(401, 'Unknown user');
  return user;
}

export const userRoutes: readonly ApiRoute[] = [
  contractRoute('userData', (ctx, req) => ({
    result: true,
    user_data: ctx.users.toUserData(currentUser(ctx, req.userId)),
  })),

  // Every account has one reusable invite code; code_status 0 means it is open for use.
  contractRoute('inviteCodes', (ctx, req) => ({
    status: 'ok',
    codes: [{ code_text: currentUser(ctx, req.userId).invite_code, code_status: 0 }],
  })),
];
