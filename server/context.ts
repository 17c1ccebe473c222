import type { IncomingHttpHeaders, Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { LaunchCalendar } from '../contract/calendar';
import type { Schema } from '../contract/schema';
import type { Store } from './store/engine';
import type { ServerEventBus } from './events';
import type { JwtCheck } from './accessToken';
import type { Codes } from './codes';
import type { MailLimits, MailQuota } from './mailQuota';
import type { Outbox } from './outbox';
import type { Sessions } from './sessions';
import type { RefreshTokens } from './tokens';
import type { RateLimits } from './limits';
import type { Users } from './users';

export type ServerMode = 'development' | 'production';

export type ServerConfig = {
  readonly mode: ServerMode;
  readonly host: string;
  readonly dataDir: string;
  /** DATABASE_URL: the shared Postgres; undefined keeps the data folder's SQLite. */
  readonly databaseUrl: string | undefined;
  readonly siteDir: string | undefined;
  /** The version sess/init answers (the client requires API_VERSION). */
  readonly apiVersion: string;
  readonly jwtTtlSeconds: number;
  readonly refreshTtlSeconds: number;
  /** A real Solana JSON-RPC endpoint; when absent the local chain answers at `/rpc`. */
  readonly rpcUrl: string | undefined;
  /** The launch calendar (LAUNCH_AT, EARLY_BIRD_END, PRICE_*_SOL; the spec's by default). */
  readonly calendar: LaunchCalendar;
  /** TICKET_PRICE_SOL: a fixed ticket price in SOL instead of the price by date. */
  readonly ticketPriceSol: string | undefined;
  /** Extra origins for the CSP `connect-src` (API, websocket and RPC hosts). */
  readonly connectSrc: readonly string[];
  /** Site origins allowed to call the API cross-origin (production; development allows localhost). */
  readonly corsOrigins: readonly string[];
  readonly maxBodyBytes: number;
  /** Per-IP limits of the sign-in and session calls (server/limits.ts). */
  readonly rateLimits: RateLimits;
  /** Code e-mails per minute, site-wide and per recipient domain (server/mailQuota.ts). */
  readonly mailLimits: MailLimits;
  /** Send Strict-Transport-Security (the deployment is behind TLS). */
  readonly hsts: boolean;
  /** METRICS_TOKEN: the bearer token of GET /metrics; undefined serves no metrics. */
  readonly metricsToken: string | undefined;
  /** TELEGRAM_URL: the studio's community link; sign-in shows its Telegram step when set. */
  readonly telegramUrl: string | undefined;
};

export type Logger = {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
};

type AuthHelpers = {
  /** A jwt of `userId` in the sign-in session `sessionId` (its refresh token family). */
  signJwt(userId: number, sessionId: string): Promise<string>;
  /** Signature, expiry, claims, and a live session: a jwt of an ended session is `revoked`. */
  verifyJwt(token: string): Promise<JwtCheck>;
};

/**
 * Services other parts of the server add (the local chain, websocket rooms). Extend it by
 * declaration merging in the module that provides the service:
 *
 *   declare module '../context' { interface ServerServices { chain: LocalChain } }
 *
 * @public exported for that merging, which knip does not count as a use.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ServerServices {}

/** Everything a route or plugin needs: the store, the clock, config, events and auth helpers. */
export type ServerContext = {
  readonly config: ServerConfig;
  readonly store: Store;
  readonly events: ServerEventBus;
  readonly log: Logger;
  readonly users: Users;
  readonly auth: AuthHelpers;
  readonly sessions: Sessions;
  readonly codes: Codes;
  readonly mailQuota: MailQuota;
  readonly refreshTokens: RefreshTokens;
  readonly outbox: Outbox;
  readonly services: Partial<ServerServices>;
  /** The server clock in ms; tests inject one to move time. */
  now(): number;
  /** `http://host:port` once listening. */
  baseUrl(): string;
  /** The JSON-RPC URL of the chain: `config.rpcUrl`, or the local chain at `<baseUrl>/rpc`. */
  rpcUrl(): string;
};

export type ApiRequest<B> = {
  readonly body: B;
  /** The session token the client sent in the body, if any. */
  readonly session: string | undefined;
  /** The signed-in user (protected routes only; null elsewhere). */
  readonly userId: number | null;
  readonly headers: IncomingHttpHeaders;
  readonly query: URLSearchParams;
  /** The caller's address as the server sees it (X-Forwarded-For is not trusted). */
  readonly ip: string;
};

/** One API call under `/api/<path>`. The body is checked against `request` before `handle` runs. */
export type ApiRoute<B = unknown> = {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly protected: boolean;
  readonly request: Schema<B>;
  /** Checked before sending in every mode, so the server cannot drift from the contract. */
  readonly response?: Schema<unknown>;
  /** Answered only in development mode (404 in production). */
  readonly devOnly?: boolean;
  handle(ctx: ServerContext, req: ApiRequest<B>): unknown;
};

export type PluginHost = {
  readonly httpServer: Server;
  /** The Fastify app, for a non-API route such as the local chain's `/rpc`. */
  readonly fastify: FastifyInstance;
  addRoute(route: ApiRoute): void;
  /** Runs on close, in reverse order of registration, before the database closes. */
  onClose(cleanup: () => void | Promise<void>): void;
};

/**
 * An optional part of the server (local chain, payment routes, websocket rooms). `setup` runs
 * before the server listens; use `ctx.baseUrl()` lazily.
 */
export type ServerPlugin = {
  readonly name: string;
  setup(ctx: ServerContext, host: PluginHost): void | Promise<void>;
};
