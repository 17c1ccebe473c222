import { object } from '../../contract/schema';
import { FRIENDS_FOR_ACCESS } from '../../contract/spec';
import type { ServerContext, ServerPlugin } from '../context';
import { sha256 } from '../secrets';
import { attachRealtime, type Identity, type RealtimeServer, type RoomRelay } from './rooms';

declare module '../context' {
  interface ServerServices {
    realtime: RealtimeServer;
    /** The rooms of the other instances on one Postgres (set by the app before the plugins). */
    roomRelay: RoomRelay;
  }
}

/** GET /api/dev/realtime (development mode only): sockets, room members and joins, for tests. */
const DEV_REALTIME_PATH = 'dev/realtime';

/** Texts of the pushes to the `notifications` room. */
export const REALTIME_NOTICES = {
  accessGranted: 'Access granted! Your ticket has been issued.',
  /** Access through friends' tickets: no ticket of the player's own was issued. */
  accessGrantedByFriends: `Access granted! ${FRIENDS_FOR_ACCESS} friends bought tickets with your invite code.`,
  inviteRegistered: 'A friend registered with your invite code.',
  inviteConfirmed: 'A friend bought a ticket with your invite code.',
} as const;

/**
 * A jwt identifies the user; a known visitor session alone is a guest (rooms, no personal pushes).
 * The credentials are checked here and dropped: nothing of them is kept or logged.
 */
async function identify(
  ctx: ServerContext,
  credentials: { jwt?: string; session?: string },
): Promise<Identity | null> {
  if (credentials.jwt) {
    const check = await ctx.auth.verifyJwt(credentials.jwt);
    if (check.ok && (await ctx.users.findById(check.userId)))
      return {
        userId: check.userId,
        sessionId: check.sessionId,
        owner: `user:${check.userId}`,
        expiresAt: check.expiresAt,
      };
    return null;
  }
  if (credentials.session && (await ctx.sessions.load(credentials.session)))
    return {
      userId: null,
      sessionId: null,
      owner: `visitor:${sha256(credentials.session)}`,
      expiresAt: null,
    };
  return null;
}

export const realtimePlugin: ServerPlugin = {
  name: 'realtime',
  setup(ctx, host) {
    const realtime = attachRealtime(host.httpServer, {
      authenticate: (credentials) => identify(ctx, credentials),
      now: () => ctx.now(),
      log: ctx.log,
      limits: ctx.config.rateLimits,
      ...(ctx.services.roomRelay ? { relay: ctx.services.roomRelay } : {}),
    });
    ctx.services.realtime = realtime;
    const unsubscribe = [
      // Every change to a user's data reaches that user (and only them) as a typed event.
      ctx.events.on('access.granted', ({ userId, via }) => {
        const text =
          via === 'invites'
            ? REALTIME_NOTICES.accessGrantedByFriends
            : REALTIME_NOTICES.accessGranted;
        realtime.notifyUser(userId, { type: 'success', text }, 'access.granted');
      }),
      ctx.events.on('invite.registered', ({ inviterId }) => {
        realtime.notifyUser(
          inviterId,
          { type: 'info', text: REALTIME_NOTICES.inviteRegistered },
          'invite.registered',
        );
      }),
      ctx.events.on('invite.confirmed', ({ inviterId }) => {
        realtime.notifyUser(
          inviterId,
          { type: 'success', text: REALTIME_NOTICES.inviteConfirmed },
          'invite.confirmed',
        );
      }),
      ctx.events.on('invite.clicked', ({ inviterId }) => {
        realtime.notifyUser(inviterId, null, 'invite.clicked');
      }),
      ctx.events.on('balance.changed', ({ userId }) => {
        realtime.notifyUser(userId, null, 'balance.changed');
      }),
      ctx.events.on('codes.issued', ({ userId }) => {
        realtime.notifyUser(userId, null, 'codes.issued');
      }),
      // Exit (or a replayed stolen token) ends the session's sockets with it.
      ctx.events.on('session.ended', ({ sessionId }) => {
        realtime.closeSession(sessionId);
      }),
    ];
    host.addRoute({
      method: 'GET',
      path: DEV_REALTIME_PATH,
      protected: false,
      devOnly: true,
      request: object({}),
      handle: () => realtime.stats(),
    });
    host.onClose(async () => {
      for (const off of unsubscribe) off();
      await realtime.close();
    });
  },
};
