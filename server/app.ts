import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_VERSION } from '../contract/api';
import { createCodes } from './codes';
import type {
  Logger,
  PluginHost,
  RawHandler,
  ServerConfig,
  ServerContext,
  ServerMode,
  ServerPlugin,
} from './context';
import { openDatabase, type Db } from './db';
import { createEventBus, type ServerEventBus } from './events';
import { createApi } from './api';
import { HttpError, sendError } from './http';
import { MAX_JWT_TTL_SECONDS, signJwt, verifyJwt } from './jwt';
import { createOutbox, type Mailer } from './outbox';
import { PLUGINS } from './plugins';
import { isSolAmount } from './pricing';
import { ROUTES } from './routes/index';
import { loadSecret } from './secrets';
import { createSessions } from './sessions';
import { createStaticSite, inviteCodeOfPage } from './static';
import { createRefreshTokens, REFRESH_TTL_SECONDS } from './tokens';
import { createUsers } from './users';

export type StartOptions = {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  dataDir: string;
  mode: ServerMode;
  /** A built site to serve (SPA fallback to index.html, pre-rendered route pages when present). */
  siteDir?: string;
  apiVersion?: string;
  /** At most 900 (15 minutes). */
  jwtTtlSeconds?: number;
  rpcUrl?: string;
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
  mailer?: Mailer;
  maxBodyBytes?: number;
};

export type RunningServer = {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  httpServer: Server;
  db: Db;
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

function buildConfig(opts: StartOptions): ServerConfig {
  const jwtTtlSeconds = opts.jwtTtlSeconds ?? MAX_JWT_TTL_SECONDS;
  if (!Number.isInteger(jwtTtlSeconds) || jwtTtlSeconds < 1 || jwtTtlSeconds > MAX_JWT_TTL_SECONDS)
    throw new Error(`jwtTtlSeconds must be an integer from 1 to ${MAX_JWT_TTL_SECONDS}`);
  const ticketPriceSol = opts.ticketPriceSol ?? (process.env.TICKET_PRICE_SOL || undefined);
  if (ticketPriceSol !== undefined && !isSolAmount(ticketPriceSol))
    throw new Error(`TICKET_PRICE_SOL must be a SOL amount like 0.22, got ${ticketPriceSol}`);
  const connectSrc = [...(opts.connectSrc ?? [])];
  if (opts.rpcUrl) connectSrc.push(new URL(opts.rpcUrl).origin);
  return {
    mode: opts.mode,
    host: opts.host ?? '127.0.0.1',
    dataDir: opts.dataDir,
    siteDir: opts.siteDir,
    apiVersion: opts.apiVersion ?? API_VERSION,
    jwtTtlSeconds,
    refreshTtlSeconds: REFRESH_TTL_SECONDS,
    rpcUrl: opts.rpcUrl,
    ticketPriceSol: ticketPriceSol?.trim(),
    connectSrc,
    corsOrigins: opts.corsOrigins ?? [],
    maxBodyBytes: opts.maxBodyBytes ?? 64 * 1024,
  };
}

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  if (opts.mode !== 'development' && opts.mode !== 'production')
    throw new Error(`mode must be development or production, got ${String(opts.mode)}`);
  const config = buildConfig(opts);
  const now = opts.now ?? Date.now;
  const log = opts.log === 'silent' ? SILENT_LOGGER : (opts.log ?? CONSOLE_LOGGER);
  const db = openDatabase(config.dataDir);
  const jwtSecret = loadSecret(config.dataDir, 'jwt-secret');
  const walletKey = loadSecret(config.dataDir, 'wallet-key');
  const codeKey = loadSecret(config.dataDir, 'code-key');
  const events = createEventBus(log.error);
  let baseUrl = '';

  const ctx: ServerContext = {
    config,
    db,
    events,
    log,
    users: createUsers(db, walletKey, now),
    auth: {
      signJwt: (userId) => signJwt(jwtSecret, userId, config.jwtTtlSeconds, now()),
      verifyJwt: (token) => verifyJwt(jwtSecret, token, now()),
    },
    sessions: createSessions(db, now),
    codes: createCodes(db, codeKey, now),
    refreshTokens: createRefreshTokens(db, now, config.refreshTtlSeconds),
    outbox: createOutbox(db, config.mode, log, now, opts.mailer),
    services: {},
    now,
    baseUrl: () => baseUrl,
    rpcUrl: () => config.rpcUrl ?? `${baseUrl}/rpc`,
  };

  const api = createApi(ctx);
  ROUTES.forEach(api.addRoute);
  const rawHandlers: { prefix: string; handler: RawHandler }[] = [];
  const cleanups: (() => void | Promise<void>)[] = [];

  const site = config.siteDir ? createStaticSite(config.siteDir, config.connectSrc) : undefined;

  const httpServer = createServer((req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      log.error(`Unhandled error on ${req.method} ${req.url}: ${describe(error)}`);
      if (!res.headersSent) sendError(res, new HttpError(500, 'Internal server error'));
      else res.destroy();
    });
  });
  httpServer.requestTimeout = 30_000;
  httpServer.headersTimeout = 20_000;
  httpServer.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      sendError(res, new HttpError(400, 'Malformed request URL'));
      return;
    }
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      await api.handle(req, res, url);
      return;
    }
    const raw = rawHandlers.find(
      ({ prefix }) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`),
    );
    if (raw) {
      await raw.handler(req, res, url);
      return;
    }
    if (site && (req.method === 'GET' || req.method === 'HEAD')) {
      const file = site.resolveFile(url.pathname);
      if (file) {
        if (file.isPage && req.method === 'GET') countInviteClick(req, url);
        await site.serve(req, res, url.pathname, file);
        return;
      }
    }
    sendError(res, new HttpError(404, `Not found: ${url.pathname}`));
  }

  /** A page served through an invite link counts as one click for the code's owner. */
  function countInviteClick(req: IncomingMessage, url: URL): void {
    const purpose = String(req.headers['sec-purpose'] ?? req.headers.purpose ?? '');
    if (purpose.includes('prefetch')) return;
    const code = inviteCodeOfPage(url);
    if (!code) return;
    const inviterId = ctx.users.recordClick(code);
    if (inviterId !== null) events.emit('invite.clicked', { inviterId, code: code.toUpperCase() });
  }

  const host: PluginHost = {
    httpServer,
    addRoute: api.addRoute,
    addRawHandler: (prefix, handler) =>
      rawHandlers.push({ prefix: prefix.replace(/\/+$/, ''), handler }),
    onClose: (cleanup) => cleanups.push(cleanup),
  };

  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    for (const cleanup of [...cleanups].reverse()) {
      try {
        await cleanup();
      } catch (error) {
        log.error(`Cleanup failed: ${describe(error)}`);
      }
    }
    await new Promise<void>((done) => {
      httpServer.close(() => done());
      httpServer.closeAllConnections();
    });
    events.removeAll();
    db.close();
  };

  try {
    for (const plugin of opts.plugins ?? PLUGINS) await plugin.setup(ctx, host);
    await new Promise<void>((done, fail) => {
      httpServer.once('error', fail);
      httpServer.listen(opts.port ?? 0, config.host, () => {
        httpServer.off('error', fail);
        done();
      });
    });
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
  return { url: baseUrl, port, httpServer, db, events, ctx, close };
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
