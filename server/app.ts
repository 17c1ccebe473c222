import { createHmac } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastifyCompress from '@fastify/compress';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type HTTPMethods,
} from 'fastify';
import { API_VERSION } from '../contract/api';
import { calendarFromEnv, type LaunchCalendar } from '../contract/calendar';
import { createCodes } from './codes';
import type {
  Logger,
  PluginHost,
  ServerConfig,
  ServerContext,
  ServerMode,
  ServerPlugin,
} from './context';
import { openStore, type Store } from './store/engine';
import { migrateStore } from './store/migrations';
import { loadSecrets } from './store/secrets';
import { shareEvents } from './store/sharedEvents';
import { watchEndedSessions } from './store/endedSessions';
import { createEventBus, type ServerEventBus } from './events';
import { createApi } from './api';
import { bearerAuth } from './bearerAuth';
import { MAX_JWT_TTL_SECONDS, signJwt, verifyJwt } from './accessToken';
import { errorBody, HttpError } from './http';
import {
  createWindowCounter,
  DEVELOPMENT_RATE_LIMITS,
  MAX_BODY_BYTES,
  PRODUCTION_RATE_LIMITS,
  rateLimitMessage,
  type RateLimits,
} from './limits';
import { createSmtpMailer, NO_MAIL_MESSAGE, type Mailer } from './mail';
import { createOutbox, type MailDelivery } from './outbox';
import {
  createMailQuota,
  DEVELOPMENT_MAIL_LIMITS,
  PRODUCTION_MAIL_LIMITS,
  type MailLimits,
} from './mailQuota';
import { PLUGINS } from './plugins';
import { proxyTrust, setProxyTrust } from './proxy';
import { isStorageUnavailable, storageUnavailable } from './storageErrors';
import { capConnections } from './connectionCap';
import { chainCheck, mailCheck, registerReadiness, type ReadinessCheck } from './ready';
import { isPositiveSol } from '../contract/money';
import { contractRoute } from './routes/define';
import { ROUTES } from './routes/index';
import {
  createDailyLog,
  DAY_MS,
  LOG_RETENTION_DAYS,
  pruneLogFiles,
  pruneStoredMail,
  RETENTION_PASS_MS,
} from './retention';
import { createSessions } from './sessions';
import { checkMailFrom } from './startChecks';
import { sharedRateStore } from './rateStore';
import {
  HSTS_MAX_AGE_SECONDS,
  inviteCodeOfPage,
  PERMISSIONS_POLICY,
  registerStaticSite,
} from './static';
import { createRefreshTokens, REFRESH_TTL_SECONDS } from './tokens';
import { createUsers } from './users';

export type StartOptions = {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  dataDir: string;
  /** DATABASE_URL (`postgres://…`): the shared Postgres instead of `dataDir`'s SQLite. */
  databaseUrl?: string;
  mode: ServerMode;
  /** A built site to serve (SPA fallback to index.html, pre-rendered route pages when present). */
  siteDir?: string;
  apiVersion?: string;
  /** At most 900 (15 minutes). */
  jwtTtlSeconds?: number;
  rpcUrl?: string;
  /** The launch calendar; defaults to the environment's (calendarFromEnv), the spec's when unset. */
  calendar?: LaunchCalendar;
  /** A fixed ticket price in SOL; defaults to env TICKET_PRICE_SOL, then the price by date. */
  ticketPriceSol?: string;
  /** The server clock (ms since epoch): code expiry, jwt expiry, price by date. */
  now?: () => number;
  /** Where the server writes its lines; 'silent' for tests. */
  log?: Logger | 'silent';
  /** Extra CSP connect-src origins (API, websocket and RPC hosts of a production set-up). */
  connectSrc?: readonly string[];
  /** Origins of a site served elsewhere (a CDN) that may call this API. */
  corsOrigins?: readonly string[];
  /** Replaces the default plugin list of server/plugins.ts. */
  plugins?: readonly ServerPlugin[];
  /** A mail transport of the caller's (tests); else `smtpUrl`. */
  mailer?: Mailer;
  /** SMTP_URL: `smtp://user:pass@host:587` or `smtps://…:465`. */
  smtpUrl?: string;
  /** MAIL_FROM: the sender of the code e-mails, e.g. `Solana Mafia Wars <play@studio.example>`. */
  mailFrom?: string;
  /** MAIL_TRANSPORT=log: a staging server writes codes to its log instead of e-mailing them. */
  mailToLog?: boolean;
  /** SITE_URL: the site's address in the e-mails (default: this server's own URL). */
  siteUrl?: string;
  maxBodyBytes?: number;
  /** Per-IP limits (server/limits.ts); defaults by mode: strict in production, generous in development. */
  rateLimits?: Partial<RateLimits>;
  /** Code e-mails per minute (server/mailQuota.ts); defaults by mode, like rateLimits. */
  mailLimits?: Partial<MailLimits>;
  /** Send Strict-Transport-Security (env HSTS=1: the deployment is behind TLS). */
  hsts?: boolean;
  /**
   * One JSON line per request (Fastify's logger, pino): `true` writes them to stdout (production,
   * server/main.ts), a stream of the caller's receives them (tests); off by default.
   */
  requestLog?: boolean | { write(line: string): void };
  /** How long a stop waits for requests in flight before cutting them (default 10 s). */
  closeGraceMs?: number;
  /** METRICS_TOKEN: serves Prometheus metrics at /metrics to this bearer token; absent, no /metrics. */
  metricsToken?: string;
  /** TELEGRAM_URL: the studio's community link (https); defaults to the environment's. */
  telegramUrl?: string;
  /**
   * Production only: run the in-process chain although no SOLANA_RPC_URL is given (env
   * LOCAL_CHAIN=1). Without either, production refuses to start: no free tickets by accident.
   */
  localChain?: boolean;
  /**
   * TRUST_PROXY: addresses and CIDRs of the proxies in front (server/proxy.ts). A request from
   * one of them is counted by the client address its `X-Forwarded-For` names (limits, logs,
   * invite clicks, sockets per address); without a list, by the socket's address.
   */
  trustProxy?: readonly string[];
  /** How long a readiness outcome stands, in ms (server/ready.ts; default READY_CACHE_MS). */
  readyCacheMs?: number;
  /**
   * LOG_DIR: the request lines go to one file per UTC day there (server/retention.ts) instead of
   * `requestLog`, and the files older than `logRetentionDays` are deleted.
   */
  logDir?: string;
  /** LOG_RETENTION_DAYS: days logs and stored code e-mails are kept (default 90). */
  logRetentionDays?: number;
};

/** How long close() lets requests in flight finish. */
const CLOSE_GRACE_MS = 10_000;

export const NO_CHAIN_MESSAGE =
  'Production mode needs SOLANA_RPC_URL (a Solana node); set LOCAL_CHAIN=1 to run the in-process chain instead';

export type RunningServer = {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  httpServer: Server;
  store: Store;
  events: ServerEventBus;
  ctx: ServerContext;
  close(): Promise<void>;
};

const CONSOLE_LOGGER: Logger = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
  error: (message) => console.error(message),
};
const SILENT_LOGGER: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** TELEGRAM_URL as given, checked to be an https link; undefined when unset. */
function telegramUrlOf(raw: string | undefined): string | undefined {
  const url = raw?.trim();
  if (!url) return undefined;
  if (!/^https:\/\/[^\s]+$/.test(url) || url.length > 300 || !URL.canParse(url))
    throw new Error(`TELEGRAM_URL must be an https link like https://t.me/yourgroup, got ${url}`);
  return url;
}

function buildConfig(opts: StartOptions): ServerConfig {
  const jwtTtlSeconds = opts.jwtTtlSeconds ?? MAX_JWT_TTL_SECONDS;
  if (!Number.isInteger(jwtTtlSeconds) || jwtTtlSeconds < 1 || jwtTtlSeconds > MAX_JWT_TTL_SECONDS)
    throw new Error(`jwtTtlSeconds must be an integer from 1 to ${MAX_JWT_TTL_SECONDS}`);
  const ticketPriceSol = opts.ticketPriceSol ?? (process.env.TICKET_PRICE_SOL || undefined);
  if (ticketPriceSol !== undefined && !isPositiveSol(ticketPriceSol))
    throw new Error(`TICKET_PRICE_SOL must be a SOL amount like 0.22, got ${ticketPriceSol}`);
  const connectSrc = [...(opts.connectSrc ?? [])];
  if (opts.rpcUrl) connectSrc.push(new URL(opts.rpcUrl).origin);
  return {
    mode: opts.mode,
    host: opts.host ?? '127.0.0.1',
    dataDir: opts.dataDir,
    databaseUrl: opts.databaseUrl || undefined,
    siteDir: opts.siteDir,
    apiVersion: opts.apiVersion ?? API_VERSION,
    jwtTtlSeconds,
    refreshTtlSeconds: REFRESH_TTL_SECONDS,
    rpcUrl: opts.rpcUrl,
    calendar: opts.calendar ?? calendarFromEnv(process.env),
    ticketPriceSol: ticketPriceSol?.trim(),
    connectSrc,
    corsOrigins: opts.corsOrigins ?? [],
    maxBodyBytes: opts.maxBodyBytes ?? MAX_BODY_BYTES,
    rateLimits: {
      ...(opts.mode === 'production' ? PRODUCTION_RATE_LIMITS : DEVELOPMENT_RATE_LIMITS),
      ...opts.rateLimits,
    },
    mailLimits: {
      ...(opts.mode === 'production' ? PRODUCTION_MAIL_LIMITS : DEVELOPMENT_MAIL_LIMITS),
      ...opts.mailLimits,
    },
    hsts: opts.hsts ?? false,
    metricsToken: opts.metricsToken || undefined,
    telegramUrl: telegramUrlOf(opts.telegramUrl ?? process.env.TELEGRAM_URL),
  };
}

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  if (opts.mode !== 'development' && opts.mode !== 'production')
    throw new Error(`mode must be development or production, got ${String(opts.mode)}`);
  if (opts.mode === 'production' && !opts.rpcUrl && !opts.localChain)
    throw new Error(NO_CHAIN_MESSAGE);
  const delivery = mailDelivery(opts);
  const config = buildConfig(opts);
  const now = opts.now ?? Date.now;
  const log = opts.log === 'silent' ? SILENT_LOGGER : (opts.log ?? CONSOLE_LOGGER);
  const store = openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  let secrets;
  try {
    await migrateStore(store);
    secrets = await loadSecrets(store, config.dataDir, now());
  } catch (error) {
    await store.close().catch(() => {});
    // A database that cannot be reached is named by its variable (never with its password).
    if (config.databaseUrl && error instanceof Error && 'code' in error && !('severity' in error))
      throw new Error(`DATABASE_URL=${store.location} cannot be reached (${error.message})`);
    throw error;
  }
  const {
    'jwt-secret': jwtSecret,
    'wallet-key': walletKey,
    'code-key': codeKey,
    'refresh-key': refreshKey,
  } = secrets;
  const localEvents = createEventBus(log.error);
  // On Postgres the facts pages must see reach every instance (server/store/sharedEvents.ts).
  const shared =
    config.databaseUrl !== undefined
      ? await shareEvents(config.databaseUrl, store, localEvents, log).catch(async (error) => {
          await store.close().catch(() => {});
          throw error;
        })
      : undefined;
  const events = shared?.bus ?? localEvents;
  // Sessions an operations command ended (a deleted player): each instance reads them itself.
  const endedSessions = await watchEndedSessions(store, localEvents, log).catch(async (error) => {
    await shared?.close();
    await store.close().catch(() => {});
    throw error;
  });
  // One warning a minute while a mail limit refuses code e-mails (a spam run, or a limit too low).
  let mailWarnedAt = -Infinity;
  events.on('mail.refused', ({ limit }) => {
    if (now() - mailWarnedAt < 60_000) return;
    mailWarnedAt = now();
    log.warn(
      `Mail limit reached (${limit === 'site' ? 'site-wide' : 'per recipient domain'}): sign-in e-mails are refused until the minute is over (MAIL_LIMIT_PER_MINUTE, MAIL_LIMIT_PER_DOMAIN_PER_MINUTE)`,
    );
  });
  let baseUrl = '';
  // Logs and stored code e-mails kept LOG_RETENTION_DAYS (server/retention.ts): a pass at start,
  // at each new day of the log files, and every hour.
  const retentionDays = opts.logRetentionDays ?? LOG_RETENTION_DAYS;
  // One pass at a time; one asked for during a pass runs after it (with the clock of then: a
  // new day's pass never folds into one that began the day before).
  let retaining: Promise<void> | undefined;
  let retainAgain = false;
  const retain = (): Promise<void> => {
    if (retaining) {
      retainAgain = true;
      return retaining;
    }
    retaining = (async () => {
      do {
        retainAgain = false;
        if (opts.logDir) pruneLogFiles(opts.logDir, now(), retentionDays);
        await pruneStoredMail(store, now(), retentionDays);
      } while (retainAgain);
    })()
      .catch((error: unknown) => log.warn(`Retention pass failed: ${describe(error)}`))
      .finally(() => (retaining = undefined));
    return retaining;
  };
  const dailyLog = opts.logDir ? createDailyLog(opts.logDir, now, () => void retain()) : undefined;
  await retain();
  const retentionTimer = setInterval(() => void retain(), RETENTION_PASS_MS);
  retentionTimer.unref();
  const refreshTokens = createRefreshTokens(store, refreshKey, now, config.refreshTtlSeconds);

  const ctx: ServerContext = {
    config,
    store,
    events,
    log,
    users: createUsers(store, walletKey, now),
    auth: {
      signJwt: (userId, sessionId) =>
        signJwt(jwtSecret, userId, sessionId, config.jwtTtlSeconds, now()),
      verifyJwt: async (token) => {
        const check = await verifyJwt(jwtSecret, token, now());
        return check.ok && !(await refreshTokens.isLive(check.sessionId))
          ? { ok: false, reason: 'revoked' }
          : check;
      },
    },
    sessions: createSessions(store, now),
    codes: createCodes(store, codeKey, now),
    mailQuota: createMailQuota(store, config.mailLimits, now),
    refreshTokens,
    outbox: createOutbox(
      store,
      config.mode,
      log,
      now,
      delivery,
      () => opts.siteUrl || baseUrl,
      events,
      retentionDays * DAY_MS,
    ),
    services: shared ? { roomRelay: shared.rooms } : {},
    now,
    baseUrl: () => baseUrl,
    rpcUrl: () => config.rpcUrl ?? `${baseUrl}/rpc`,
  };

  const trust = proxyTrust(opts.trustProxy ?? []);
  const app = Fastify({
    logger: requestLogger(dailyLog ?? opts.requestLog),
    trustProxy: trust ?? false,
    logController: new RequestLines(),
    bodyLimit: config.maxBodyBytes,
    requestTimeout: 30_000,
    exposeHeadRoutes: false,
    routerOptions: { ignoreTrailingSlash: true },
    // A path the router cannot decode (a malformed escape, say an invite link cut mid-character)
    // is sent, for a page, to the same path without its escapes (an invite link then reaches the
    // invite page, anything else the site's own answer); else a 404 like any other.
    frameworkErrors: (error, req, reply) => {
      const [path = '/', query] = req.url.split(/\?(.*)/s, 2);
      if (
        error.code === 'FST_ERR_BAD_URL' &&
        (req.method === 'GET' || req.method === 'HEAD') &&
        !isApiPath(req.url)
      ) {
        // Always a path of this site (`//host` would leave it).
        const cleaned = `/${path.replace(/%[0-9A-Fa-f]{0,2}/g, '').replace(/^[/\\]+/, '')}`;
        void reply.redirect(query ? `${cleaned}?${query}` : cleaned, 302);
        return;
      }
      const status = error.code === 'FST_ERR_BAD_URL' ? 404 : (error.statusCode ?? 400);
      void sendError(
        reply as FastifyReply,
        new HttpError(status, status === 404 ? notFoundMessage(req.url) : error.message),
      );
    },
  });
  const httpServer: Server = app.server;
  httpServer.headersTimeout = 20_000;
  // The websocket upgrade reads the client's address by the same trusted proxies.
  setProxyTrust(httpServer, trust);
  // One address cannot hold thousands of (idle) connections: server/connectionCap.ts.
  capConnections(httpServer, { max: config.rateLimits.connectionsPerAddress, trust, log });

  // JSON bodies, read up to the route's limit by Fastify's own JSON parser (prototype keys
  // refused); an empty body reads as `{}`. Bad JSON is a 400 with a message the site shows (the
  // local chain's /rpc answers its JSON-RPC parse error instead).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (String(body).trim() === '') return done(null, {});
    parseJson(req, String(body), (error, value) =>
      done(error ? new HttpError(400, 'Malformed JSON in request body') : null, value),
    );
  });
  const registerOtherMethods = answerOtherMethods(app);

  // While stopping, an answer ends its connection: a kept-alive one would hold the stop up.
  let stopping = false;
  app.addHook('onResponse', async () => {
    if (stopping) setImmediate(() => httpServer.closeIdleConnections());
  });

  app.addHook('onSend', async (_req, reply) => {
    if (stopping) reply.header('Connection', 'close');
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
  });

  // Security headers on every answer: nosniff, the referrer policy, no framing, HSTS only behind
  // TLS. Each page's Content-Security-Policy carries the hashes of that page's own inline blocks,
  // so server/static.ts sets it per page rather than helmet one policy for all.
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    // A wallet's sign-in window keeps its opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    strictTransportSecurity: config.hsts
      ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true }
      : false,
  });

  // A full or read-only disk: one warning a minute while writes are refused (server/storageErrors.ts).
  let storageWarnedAt = -Infinity;
  const storageWarning = (detail: string) => {
    if (Date.now() - storageWarnedAt < 60_000) return;
    storageWarnedAt = Date.now();
    log.warn(`Storage refuses writes (answered 503): ${detail.split('\n')[0] ?? detail}`);
  };
  app.setErrorHandler((error: FastifyError | HttpError, req, reply) => {
    if (error instanceof HttpError) return sendError(reply, error);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return sendError(
        reply,
        new HttpError(
          413,
          `Request body too large (limit ${req.routeOptions.bodyLimit ?? config.maxBodyBytes} bytes)`,
        ),
      );
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return sendError(reply, new HttpError(status, error.message));
    if (isStorageUnavailable(error)) {
      storageWarning(describe(error));
      return sendError(reply, storageUnavailable());
    }
    log.error(`Unhandled error on ${req.method} ${req.url}: ${describe(error)}`);
    return sendError(reply, new HttpError(500, 'Internal server error'));
  });

  await app.register(fastifyCors, {
    origin: (origin, done) => {
      if (!origin) return done(null, false);
      done(
        null,
        config.mode === 'development'
          ? LOCAL_ORIGIN.test(origin)
          : config.corsOrigins.includes(origin),
      );
    },
    allowedHeaders: ['Content-Type', 'Authorization'],
    methods: ['GET', 'POST', 'OPTIONS'],
    exposedHeaders: ['Retry-After'],
    maxAge: 600,
  });
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['gzip'] });
  // On Postgres every instance counts into one budget per address (server/rateStore.ts).
  await app.register(fastifyRateLimit, {
    global: false,
    ...(store.engine === 'postgres' ? { store: sharedRateStore(store) } : {}),
  });
  limitRpcCalls(app, config.rateLimits);

  await app.register(bearerAuth, { ctx });
  const api = createApi(app, ctx);
  ROUTES.forEach(api.addRoute);
  api.addRoute(
    contractRoute('inviteClick', async (_ctx, req) => {
      await countClick(req.body.data.code, req.ip);
      return { result: true };
    }),
  );
  const cleanups: (() => void | Promise<void>)[] = [];

  const serveSite = config.siteDir
    ? await registerStaticSite(app, config.siteDir, config.connectSrc, countInviteClick, {
        // Earlier releases' hashed files stay servable (server/siteReleases.ts).
        dataDir: config.dataDir,
      })
    : undefined;

  const notFound = (req: FastifyRequest, reply: FastifyReply) =>
    sendError(reply, new HttpError(404, notFoundMessage(req.url)));
  app.setNotFoundHandler(notFound);
  // The site answers every other GET and HEAD (a route, so compression and 304s apply). A file
  // being sent is answered by `return reply` (its stream ends the reply); only a path the site
  // has no file for gets the 404.
  if (serveSite)
    app.route({
      method: ['GET', 'HEAD'],
      url: '/*',
      handler: async (req, reply) =>
        !isApiPath(req.url) && (await serveSite(req, reply)) ? reply : notFound(req, reply),
    });

  // Readiness (server/ready.ts): every part a player's request needs, one check each.
  const readiness: ReadinessCheck[] = [
    {
      name: 'database',
      unreachable:
        config.databaseUrl === undefined
          ? 'the store (DATA_DIR/site.sqlite) cannot be read'
          : 'the database (DATABASE_URL) cannot be reached',
      probe: async () => {
        await store.raw(store.db, 'SELECT 1 AS one');
      },
    },
  ];
  if (config.rpcUrl) readiness.push(chainCheck(config.rpcUrl));
  if (delivery.kind === 'mailer' && delivery.verify) readiness.push(mailCheck(delivery.verify));
  registerReadiness(app, readiness, log, { cacheMs: opts.readyCacheMs });

  /** A page served through an invite link counts as one click for the code's owner. */
  async function countInviteClick(req: FastifyRequest): Promise<void> {
    const purpose = String(req.headers['sec-purpose'] ?? req.headers.purpose ?? '');
    if (purpose.includes('prefetch')) return;
    let url: URL;
    try {
      url = new URL(req.url, 'http://localhost');
    } catch {
      return;
    }
    const code = inviteCodeOfPage(url);
    if (code) await countClick(code, req.ip);
  }

  /** One click on `code` from address `ip`, for the code's owner (a page, or a static host's). */
  async function countClick(code: string, ip: string): Promise<void> {
    // The visitor is a keyed hash of the address: counted once per window, never stored plainly.
    const visitor = createHmac('sha256', codeKey).update(ip).digest('hex').slice(0, 32);
    // A click that cannot be counted never keeps the page from its visitor.
    const inviterId = await ctx.users.recordClick(code, visitor).catch((error: unknown) => {
      log.warn(`Invite click not counted: ${describe(error)}`);
      return null;
    });
    if (inviterId !== null) events.emit('invite.clicked', { inviterId, code: code.toUpperCase() });
  }

  const host: PluginHost = {
    httpServer,
    fastify: app,
    addRoute: api.addRoute,
    onClose: (cleanup) => cleanups.push(cleanup),
  };

  let closing: Promise<void> | undefined;
  /**
   * A graceful stop: stops accepting connections (a request arriving on a kept-alive one gets
   * 503), tells every websocket it is going away (1001, so pages reconnect to the next server),
   * lets requests in flight finish for up to `closeGraceMs` and then cuts what is left, stops the
   * plugins (payment watch, chain), checkpoints the SQLite WAL into the database file and closes the store.
   */
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      stopping = true;
      const drained = app.close();
      try {
        await ctx.services.realtime?.close();
      } catch (error) {
        log.error(`Closing the sockets failed: ${describe(error)}`);
      }
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'late'>((done) => {
        timer = setTimeout(() => done('late'), opts.closeGraceMs ?? CLOSE_GRACE_MS);
      });
      if ((await Promise.race([drained.then(() => 'drained' as const), graceOver])) === 'late') {
        log.warn('Stopping: requests still in flight after the grace period are cut');
        httpServer.closeAllConnections();
      }
      clearTimeout(timer);
      await drained;
      if (delivery.kind === 'mailer') delivery.close?.();
      for (const cleanup of [...cleanups].reverse()) {
        try {
          await cleanup();
        } catch (error) {
          log.error(`Cleanup failed: ${describe(error)}`);
        }
      }
      await endedSessions.stop();
      clearInterval(retentionTimer);
      await retaining;
      dailyLog?.close();
      await shared?.close();
      events.removeAll();
      try {
        await store.checkpoint();
      } catch (error) {
        log.error(`WAL checkpoint failed: ${describe(error)}`);
      }
      await store.close();
    })());

  try {
    for (const plugin of opts.plugins ?? PLUGINS) await plugin.setup(ctx, host);
    registerOtherMethods();
    await app.listen({ port: opts.port ?? 0, host: config.host });
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }

  const { port } = httpServer.address() as AddressInfo;
  const shownHost = ['0.0.0.0', '::', ''].includes(config.host)
    ? '127.0.0.1'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host;
  baseUrl = `http://${shownHost}:${port}`;
  return { url: baseUrl, port, httpServer, store, events, ctx, close };
}

/**
 * How code e-mails leave: the caller's mailer, SMTP, the log (staging) or, in development only,
 * nowhere but the outbox. Production refuses to start without a way to reach players.
 */
function mailDelivery(opts: StartOptions): MailDelivery & { verify?: () => Promise<void> } {
  if (opts.mailer) return { kind: 'mailer', mailer: opts.mailer };
  if (opts.smtpUrl) {
    const from = opts.mailFrom?.trim() ? checkMailFrom(opts.mailFrom) : undefined;
    if (!from && opts.mode === 'production')
      throw new Error('Production mode needs MAIL_FROM (the sender of the sign-in e-mails)');
    const smtp = createSmtpMailer(opts.smtpUrl, from || 'Solana Mafia Wars <no-reply@localhost>');
    return { kind: 'mailer', mailer: smtp.send, close: smtp.close, verify: smtp.verify };
  }
  if (opts.mailToLog) return { kind: 'log' };
  if (opts.mode === 'production') throw new Error(NO_MAIL_MESSAGE);
  return { kind: 'none' };
}

/**
 * The local chain's `/rpc` (when a plugin serves it) answers at most `rpcCalls` JSON-RPC calls per
 * IP and window, each call of a batch counted; beyond, 429 with Retry-After and a JSON-RPC error,
 * before the chain does any work.
 */
function limitRpcCalls(app: FastifyInstance, limits: RateLimits): void {
  const counter = createWindowCounter(limits.rpcCalls);
  app.addHook('preHandler', async (req, reply) => {
    if (req.routeOptions.url !== '/rpc' || req.method !== 'POST') return;
    const take = counter.take(req.ip, rpcCallCount(req.body));
    if (take.ok) return;
    const seconds = Math.max(1, Math.ceil(take.retryAfterMs / 1000));
    return reply
      .code(429)
      .headers({ 'Retry-After': String(seconds), 'Cache-Control': 'no-store' })
      .send({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32005, message: rateLimitMessage(seconds) },
      });
  });
}

/** Calls in a JSON-RPC body: a batch's length (at least 1), else 1; the route judges the rest. */
const rpcCallCount = (body: unknown): number =>
  Array.isArray(body) ? Math.max(1, body.length) : 1;

const METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A path the server answers, asked with another method, gets 405 with `Allow` rather than 404:
 * every route registered with a fixed path is noted as it is added, and before the server
 * listens one shared handler takes the other methods of each such path.
 */
function answerOtherMethods(app: FastifyInstance): () => void {
  const methodsOf = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (/[*:]/.test(route.url)) return;
    const methods = methodsOf.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    methodsOf.set(route.url, methods);
  });
  return () => {
    for (const [url, methods] of [...methodsOf]) {
      const allow = [...methods].filter((method) => METHODS.includes(method as HTTPMethods));
      const others = METHODS.filter((method) => !methods.has(method));
      if (allow.length === 0 || others.length === 0) continue;
      app.route({
        method: others,
        url,
        handler: async (req) => {
          throw new HttpError(405, `Method ${req.method} not allowed on ${url}`, {
            Allow: allow.join(', '),
          });
        },
      });
    }
  };
}

/**
 * Anything that could carry a secret is cut from a log line should a later line include it:
 * headers with credentials, bodies (codes, tokens, e-mails), the contract's token fields.
 */
const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.body',
  'body',
  '*.body',
  'headers.authorization',
  '*.jwt',
  '*.refresh_token',
  '*.sessionToken',
  '*.session',
  '*.code',
  '*.secret',
];

/**
 * One line per request, when it is answered: the route's pattern and the path without its query,
 * so nothing a request carries in its body, headers or query string (codes, tokens) reaches it;
 * the client's address (through TRUST_PROXY's proxies) and, signed in, the user's id.
 */
class RequestLines extends LogController {
  override incomingRequest(): void {}
  override routeNotFound(): void {}
  override requestCompleted(
    error: Error | null | undefined,
    req: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: req.method,
      route: req.routeOptions.url ?? null,
      path: pathOf(req.url),
      status: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
      ip: req.ip,
      ...(req.userId != null ? { userId: req.userId } : {}),
    };
    if (error) req.log.error({ ...line, error: error.message }, 'request');
    else req.log.info(line, 'request');
  }
}

function requestLogger(option: StartOptions['requestLog']) {
  if (!option) return false;
  return {
    level: 'info',
    redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
    ...(option === true ? {} : { stream: option }),
  };
}

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

const pathOf = (url: string): string => url.split('?')[0] ?? '/';
const isApiPath = (url: string): boolean => {
  const path = pathOf(url);
  return path === '/api' || path.startsWith('/api/');
};
const notFoundMessage = (url: string): string => {
  const path = pathOf(url);
  return isApiPath(url) ? `Unknown API path: ${path.replace(/\/+$/, '')}` : `Not found: ${path}`;
};

function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  return reply
    .code(error.status)
    .headers({ 'Cache-Control': 'no-store', ...error.headers })
    .type('application/json; charset=utf-8')
    .send(errorBody(error.message));
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
