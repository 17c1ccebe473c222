/**
 * The invitation rule on the server (contract/invitation.ts): who needs an invitation, the
 * user data that tells the page so, and the calls that check a code and name an inviter.
 */
import type { UserData } from '../contract/api';
import { needsInvitation } from '../contract/invitation';
import { INVITATION_MESSAGES } from '../contract/invitationMessages';
import { sanitizeInviteCode } from '../contract/inviteCode';
import type { ApiRoute, ServerContext } from './context';
import { HttpError } from './http';
import type { UserRow } from './users';
import { contractRoute } from './routes/define';

/** `user` would be refused a ticket settled now (or at `atMs`) for want of an invitation. */
export const lacksInvitation = (ctx: ServerContext, user: UserRow, atMs = ctx.now()): boolean =>
  user.ticket_paid_at === null &&
  user.user_access !== 1 &&
  needsInvitation(
    ctx.config.calendar,
    { inviterId: user.inviter_id, createdAt: Number(user.created_at) },
    atMs,
  );

/** The local server's house account (development mode): its invite code lets a newcomer in. */
const HOUSE_EMAIL = 'house@smw.invalid';

async function houseInviteCode(ctx: ServerContext): Promise<string> {
  return (await ctx.users.findOrCreate(HOUSE_EMAIL, null)).user.invite_code;
}

/**
 * The contract's user data of `user` with what the invitation rule says of them; in development
 * mode also the house invite code while they need one.
 */
export async function userDataOf(ctx: ServerContext, user: UserRow): Promise<UserData> {
  const data = await ctx.users.toUserData(user);
  if (!lacksInvitation(ctx, user)) return data;
  data.user_needs_invitation = true;
  if (ctx.config.mode === 'development') data.user_house_invite_code = await houseInviteCode(ctx);
  return data;
}

/** The owner of a typed invite code (cleaned as §5 says); a refusal with a message otherwise. */
async function inviterOf(ctx: ServerContext, raw: string, self: UserRow): Promise<UserRow> {
  const code = sanitizeInviteCode(raw).toUpperCase();
  if (!code) throw new HttpError(400, INVITATION_MESSAGES.emptyCode);
  const inviter = await ctx.users.findByInviteCode(code);
  if (!inviter) throw new HttpError(404, INVITATION_MESSAGES.unknownCode(code));
  if (inviter.id === self.id) throw new HttpError(400, INVITATION_MESSAGES.ownCode);
  return inviter;
}

/**
 * Routes of the rule. `settleWaiting` settles a payment that arrived before the inviter was
 * named (server/routes/payment.ts reads the wallet again).
 */
export function invitationRoutes(
  settleWaiting: (ctx: ServerContext, userId: number) => Promise<void>,
): readonly ApiRoute[] {
  return [
    contractRoute('inviteCheck', async (ctx, req) => {
      const code = sanitizeInviteCode(req.body.data.code).toUpperCase();
      return {
        result: true,
        known: code !== '' && Boolean(await ctx.users.findByInviteCode(code)),
      };
    }),
    contractRoute('inviterSet', async (ctx, req) => {
      const user = req.userId === null ? undefined : await ctx.users.findById(req.userId);
      if (!user) throw new HttpError(401, 'Unknown user');
      if (user.inviter_id !== null) throw new HttpError(409, INVITATION_MESSAGES.alreadyInvited);
      const inviter = await inviterOf(ctx, req.body.data.code, user);
      if (!(await ctx.users.setInviter(user.id, inviter.id)))
        throw new HttpError(409, INVITATION_MESSAGES.alreadyInvited);
      ctx.events.emit('invite.registered', { inviterId: inviter.id, userId: user.id });
      await settleWaiting(ctx, user.id).catch((error: unknown) =>
        ctx.log.warn(`inviter: ${error instanceof Error ? error.message : String(error)}`),
      );
      const after = (await ctx.users.findById(user.id)) ?? user;
      return { result: true, user_data: await userDataOf(ctx, after) };
    }),
  ];
}
