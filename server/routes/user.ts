import type { ApiRoute, ServerContext } from '../context';
import { HttpError } from '../http';
import type { UserRow } from '../users';
import { contractRoute } from './define';
import { lookAtUnwatchedPayment } from './payment';

/** The signed-in user of a protected route (the router has already checked the jwt). */
export function currentUser(ctx: ServerContext, userId: number | null): UserRow {
  const user = userId === null ? undefined : ctx.users.findById(userId);
  if (!user) throw new HttpError(401, 'Unknown user');
  return user;
}

export const userRoutes: readonly ApiRoute[] = [
  contractRoute('userData', (ctx, req) => {
    const user = currentUser(ctx, req.userId);
    lookAtUnwatchedPayment(ctx, user.id);
    return { result: true, user_data: ctx.users.toUserData(user) };
  }),

  // The single-use invitation codes the user holds (999 with a confirmed Early Bird ticket;
  // none before). The reusable invite code of the link is user_invite_code in user/data.
  contractRoute('inviteCodes', (ctx, req) => ({
    status: 'ok',
    codes: ctx.users.invitationCodes(currentUser(ctx, req.userId).id),
  })),
];
