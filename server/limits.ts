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
};

const TEN_MINUTES = 10 * 60_000;

export const PRODUCTION_RATE_LIMITS: RateLimits = {
  codeRequest: { max: 10, windowMs: TEN_MINUTES },
  codeVerify: { max: 30, windowMs: TEN_MINUTES },
  sessionCreate: { max: 100, windowMs: TEN_MINUTES },
};

export const DEVELOPMENT_RATE_LIMITS: RateLimits = {
  codeRequest: { max: 10_000, windowMs: TEN_MINUTES },
  codeVerify: { max: 30_000, windowMs: TEN_MINUTES },
  sessionCreate: { max: 100_000, windowMs: TEN_MINUTES },
};

/** Which API path each limit guards. */
export const RATE_LIMITED_PATHS: Readonly<Record<string, keyof RateLimits>> = {
  'auth/email/init': 'codeRequest',
  'auth/email/verify': 'codeVerify',
  'sess/create': 'sessionCreate',
};

/** API request bodies larger than this get 413. */
export const MAX_BODY_BYTES = 64 * 1024;
/** The local chain's JSON-RPC: body cap (413 above) and the largest batch it answers. */
export const MAX_RPC_BODY_BYTES = 64 * 1024;
export const MAX_RPC_BATCH = 20;

export const rateLimitMessage = (retryAfterSeconds: number): string =>
  `Too many requests from your network. Please try again in ${Math.max(1, Math.ceil(retryAfterSeconds / 60))} min.`;
