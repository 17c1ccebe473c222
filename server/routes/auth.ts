import { MESSAGES } from '../../contract/api';
import { SIGN_IN_RULE_MESSAGES } from '../../contract/messages';
import { MAIL_FAILED_MESSAGE } from '../mail';
import { MAIL_LIMIT_MESSAGE } from '../mailQuota';
import type { ApiRoute, ServerContext } from '../context';
import { HttpError } from '../http';
import { isStorageUnavailable } from '../storageErrors';
import { canonicalEmail, isValidEmail, normalizeEmail, type UserRow } from '../users';
import { sanitizeInviteCode } from '../../contract/inviteCode';
import { SIGN_IN_CODE_SHAPE } from '../../contract/spec';
import { contractRoute } from './define';
import { userDataOf } from '../invitation';
import type { UserData } from '../../contract/api';

/**
 * The verify answer's user data: with the studio's community link (TELEGRAM_URL) as the
 * Telegram step's link when the account has no pending link of its own (sign-in step 3).
 */
async function signInUserData(ctx: ServerContext, user: UserRow): Promise<UserData> {
  const data = await userDataOf(ctx, user);
  if (!data.user_telegram_link && ctx.config.telegramUrl)
    data.user_telegram_link = ctx.config.telegramUrl;
  return data;
}

/** One mailbox, one account: the address checked as typed, then in its canonical form. */
function checkedEmail(raw: string): string {
  const email = normalizeEmail(raw);
  const canonical = isValidEmail(email) ? canonicalEmail(email) : null;
  if (canonical === null) throw new HttpError(400, SIGN_IN_RULE_MESSAGES.invalidEmail);
  return canonical;
}

/** The first successful verification of an unknown e-mail creates the account. */
async function accountOf(
  ctx: ServerContext,
  email: string,
  codeInvite: string | null,
): Promise<UserRow> {
  const known = await ctx.users.findByEmail(email);
  if (known) return known;
  const inviter = codeInvite ? await ctx.users.findByInviteCode(codeInvite) : undefined;
  const { user, created } = await ctx.users.findOrCreate(email, inviter?.id ?? null);
  if (!created) return user;
  if (inviter) ctx.events.emit('invite.registered', { inviterId: inviter.id, userId: user.id });
  return user;
}

export const authRoutes: readonly ApiRoute[] = [
  contractRoute('authEmailInit', async (ctx, req) => {
    const email = checkedEmail(req.body.data.email);
    const codeInvite = sanitizeInviteCode(req.body.data.code_invite ?? '') || null;
    // The same answer whether or not the e-mail belongs to an account.
    const request = await ctx.codes.request(email, codeInvite, req.ip, req.session);
    if (!request.ok)
      throw new HttpError(429, request.message, {
        'Retry-After': String(request.retryAfterSeconds),
      });
    const quota = await ctx.mailQuota.take(email);
    if (!quota.ok) {
      await ctx.codes.withdraw(request.codeId);
      ctx.events.emit('mail.refused', { limit: quota.limit });
      throw new HttpError(429, MAIL_LIMIT_MESSAGE, {
        'Retry-After': String(quota.retryAfterSeconds),
      });
    }
    try {
      await ctx.outbox.sendCode(email, request.code);
    } catch (error) {
      // A store that refuses writes is the service's outage (503), not the mail's.
      if (isStorageUnavailable(error)) throw error;
      // The dialog shows 'Failed to send code: {error}' (§8) and keeps the address.
      await ctx.codes.withdraw(request.codeId);
      throw new HttpError(502, MAIL_FAILED_MESSAGE);
    }
    return ctx.config.mode === 'development'
      ? { result: true, sign_code: request.code }
      : { result: true };
  }),

  contractRoute('authEmailVerify', async (ctx, req) => {
    const email = checkedEmail(req.body.data.email);
    const code = req.body.data.code.trim();
    if (!SIGN_IN_CODE_SHAPE.test(code)) throw new HttpError(400, SIGN_IN_RULE_MESSAGES.invalidCode);
    const check = await ctx.codes.verify(email, code, req.ip, req.session);
    if (!check.ok) throw new HttpError(400, check.message);
    const user = await accountOf(ctx, email, check.codeInvite);
    if (req.session) await ctx.sessions.attachUser(req.session, user.id);
    const signIn = await ctx.refreshTokens.issue(user.id);
    return {
      result: true,
      user_data: await signInUserData(ctx, user),
      jwt: await ctx.auth.signJwt(user.id, signIn.familyId),
      refresh_token: signIn.refreshToken,
    };
  }),

  contractRoute('authRefresh', async (ctx, req) => {
    const rotation = await ctx.refreshTokens.rotate(req.body.refresh_token);
    if (!rotation.ok && rotation.reason === 'reused')
      ctx.events.emit('session.ended', { sessionId: rotation.familyId });
    if (!rotation.ok || !(await ctx.users.findById(rotation.userId)))
      throw new HttpError(401, MESSAGES.refreshFailed);
    return {
      result: true,
      jwt: await ctx.auth.signJwt(rotation.userId, rotation.familyId),
      refresh_token: rotation.refreshToken,
    };
  }),

  // Exit: the refresh token's family ends here, whatever tab or copy holds it: its jwts stop
  // working at once and its sockets close. An unknown or already revoked token answers ok as
  // well, so the answer tells nothing about a token.
  contractRoute('authLogout', async (ctx, req) => {
    const sessionId = await ctx.refreshTokens.revoke(req.body.refresh_token);
    if (sessionId !== null) ctx.events.emit('session.ended', { sessionId });
    return { result: true };
  }),
];
