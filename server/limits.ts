/**
 * Every HTTP-layer limit of the server in one place. Production uses these numbers; development
 * (and the test suites, which sign many users up from 127.0.0.1) gets generous ones unless a
 * test passes its own through `StartOptions.rateLimits`.
 */
export type RateLimit = { readonly max: number; readonly windowMs: number };

export type RateLimits = {
  /** auth/email/init: sign-in codes asked for, per IP. */
  readonly codeRequest: RateLimit;
  /** auth/email/verify: code attempts, per IP. */
  readonly codeVerify: RateLimit;
  /** sess/create: visitor sessions created, per IP. */
  readonly sessionCreate: RateLimit;
  /** invite/check and user/inviter: invite codes looked up, per IP (each call its own count). */
  readonly inviteLookup: RateLimit;
  /** The local chain's /rpc: JSON-RPC calls per IP (each call of a batch counts). */
  readonly rpcCalls: RateLimit;
  /** Open websockets per IP (refused at the upgrade, 429, beyond). */
  readonly socketsPerIp: number;
  /** Open websockets per signed-in user, or per visitor session for a guest (closed 1008 beyond). */
  readonly socketsPerOwner: number;
  /**
   * Open TCP connections per client address (an IPv6 /64 counts as one), HTTP keep-alive,
   * idle and websockets together; a connection beyond is closed as it arrives
   * (server/connectionCap.ts).
   */
  readonly connectionsPerAddress: number;
};

const TEN_MINUTES = 10 * 60_000;

export const PRODUCTION_RATE_LIMITS: RateLimits = {
  codeRequest: { max: 10, windowMs: TEN_MINUTES },
  codeVerify: { max: 30, windowMs: TEN_MINUTES },
  sessionCreate: { max: 100, windowMs: TEN_MINUTES },
  // A player checks a link or types a friend's code a few times; a guesser of codes needs
  // millions of tries (an invite code has 8 or more letters and digits).
  inviteLookup: { max: 60, windowMs: TEN_MINUTES },
  rpcCalls: { max: 600, windowMs: 60_000 },
  socketsPerIp: 50,
  socketsPerOwner: 10,
  // A browser keeps up to 6 connections to a host (Fastify keeps an idle one 72 s) and a socket
  // per tab: 256 leaves room for an office or a household behind one address (the 50 sockets
  // per IP and some 30 browsers), while three addresses can no longer hold a server's 20,000
  // descriptors (they held 19,978 of them without a cap).
  connectionsPerAddress: 256,
};

/**
 * Development and tests: the production limits a thousandfold, so that a test suite or a
 * developer's reloads never meet them, while every limit still exists and works.
 */
const DEVELOPMENT_FACTOR = 1000;
export const DEVELOPMENT_RATE_LIMITS: RateLimits = {
  codeRequest: scaled(PRODUCTION_RATE_LIMITS.codeRequest),
  codeVerify: scaled(PRODUCTION_RATE_LIMITS.codeVerify),
  sessionCreate: scaled(PRODUCTION_RATE_LIMITS.sessionCreate),
  inviteLookup: scaled(PRODUCTION_RATE_LIMITS.inviteLookup),
  rpcCalls: scaled(PRODUCTION_RATE_LIMITS.rpcCalls),
  socketsPerIp: PRODUCTION_RATE_LIMITS.socketsPerIp * DEVELOPMENT_FACTOR,
  socketsPerOwner: PRODUCTION_RATE_LIMITS.socketsPerOwner * DEVELOPMENT_FACTOR,
  connectionsPerAddress: PRODUCTION_RATE_LIMITS.connectionsPerAddress * DEVELOPMENT_FACTOR,
};

function scaled(limit: RateLimit): RateLimit {
  return { max: limit.max * DEVELOPMENT_FACTOR, windowMs: limit.windowMs };
}

/** Which API path each limit guards. */
export const RATE_LIMITED_PATHS: Readonly<
  Record<string, 'codeRequest' | 'codeVerify' | 'sessionCreate' | 'inviteLookup'>
> = {
  'auth/email/init': 'codeRequest',
  'auth/email/verify': 'codeVerify',
  'sess/create': 'sessionCreate',
  'invite/check': 'inviteLookup',
  'user/inviter': 'inviteLookup',
};

/** API request bodies larger than this get 413. */
export const MAX_BODY_BYTES = 64 * 1024;
/** The local chain's JSON-RPC: body cap (413 above) and the largest batch it answers. */
export const MAX_RPC_BODY_BYTES = 64 * 1024;
export const MAX_RPC_BATCH = 20;

export const rateLimitMessage = (retryAfterSeconds: number): string =>
  `Too many requests from your network. Please try again in ${Math.max(1, Math.ceil(retryAfterSeconds / 60))} min.`;

/** Joins and leaves one websocket may send per window; more get one error frame and are ignored. */
export const SOCKET_JOIN_LIMIT: RateLimit = { max: 20, windowMs: 10_000 };
/** Chat messages per signed-in user across all their sockets. */
export const CHAT_LIMIT = { max: 5, windowMs: 10_000 } as const;
/** Dropped chat messages after which a socket is closed (policy violation). */
export const CHAT_DROPS_BEFORE_CLOSE = 50;
/** A socket whose unsent frames pass this many bytes (a reader that does not read) is dropped. */
export const MAX_SOCKET_SEND_BUFFER_BYTES = 1024 * 1024;
/**
 * Presence (`room_update`) goes out at most once per room per tick, with the count at that time:
 * a storm of joins costs one frame per member per tick, not one per member per join.
 */
export const PRESENCE_TICK_MS = 1_000;

export type WindowCounter = {
  /** Counts `cost` for `key`; answers the wait in ms when that would pass the limit (nothing counted). */
  take(key: string, cost: number): { ok: true } | { ok: false; retryAfterMs: number };
};

/**
 * A fixed-window counter per key (an IP) in memory: at most `limit.max` units per window. Keys
 * whose window has passed are swept as new ones arrive, so the map stays bounded by the keys
 * active within one window.
 */
export function createWindowCounter(limit: RateLimit, now: () => number = Date.now): WindowCounter {
  const windows = new Map<string, { start: number; used: number }>();
  let lastSweep = 0;
  return {
    take(key, cost) {
      const at = now();
      if (at - lastSweep >= limit.windowMs) {
        lastSweep = at;
        for (const [k, w] of windows) if (at - w.start >= limit.windowMs) windows.delete(k);
      }
      let window = windows.get(key);
      if (!window || at - window.start >= limit.windowMs) {
        window = { start: at, used: 0 };
        windows.set(key, window);
      }
      if (window.used + cost > limit.max)
        return { ok: false, retryAfterMs: window.start + limit.windowMs - at };
      window.used += cost;
      return { ok: true };
    },
  };
}
