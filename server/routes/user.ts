import type { ApiRoute, ServerContext } from '../context';
import { HttpError } from '../http';
import type { UserRow } from '../users';
import { contractRoute } from './define';
import { lookAtUnwatchedPayment } from './payment';
import { userDataOf } from '../invitation';

/** The signed-in user of a protected route (the router has already checked the jwt). */
async function currentUser(ctx: ServerContext, userId: number | null): Promise<UserRow> {
  const user = userId === null ? undefined : await ctx.users.findById(userId);
  if (!user) throw new HttpError(401, 'Unknown user');
  return user;
}

export const userRoutes: readonly ApiRoute[] = [
  contractRoute('userData', async (ctx, req) => {
    const user = await currentUser(ctx, req.userId);
    lookAtUnwatchedPayment(ctx, user);
    return { result: true, user_data: await userDataOf(ctx, user) };
  }),

  // The single-use invitation codes the user holds (999 with a confirmed Early Bird ticket;
  // none before). The reusable invite code of the link is user_invite_code in user/data.
  contractRoute('inviteCodes', async (ctx, req) => ({
    status: 'ok',
    codes: await ctx.users.invitationCodes((await currentUser(ctx, req.userId)).id),
  })),
];
