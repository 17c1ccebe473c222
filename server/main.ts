import { resolve } from 'node:path';
import { startServer, type RunningServer } from './app';
import { lockDataFolder, type DataLock } from './dataLock';
import { checkSmtpUrl } from './mail';
import { parseTrustProxy } from './proxy';
import {
  checkDataFolder,
  checkMailFrom,
  checkMetricsToken,
  checkRpcAnswers,
  checkRpcUrlForm,
  checkSiteFolder,
  checkSmtpAnswers,
  ConfigError,
} from './startChecks';

/**
 * The server: `npm run server` (production unless SERVER_MODE=development), or through
 * `npm start` (development, with the local-mode build of the site).
 */
const env = process.env;
const mode = env.SERVER_MODE === 'development' ? 'development' : 'production';
if (env.SERVER_MODE && env.SERVER_MODE !== mode) {
  console.error(`SERVER_MODE must be development or production, got ${env.SERVER_MODE}`);
  process.exit(2);
}
const list = (value: string | undefined) => (value ?? '').split(/[\s,]+/).filter(Boolean);
const port = Number(env.PORT ?? '8080');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${env.PORT}`);
  process.exit(2);
}

const mailTransport = env.MAIL_TRANSPORT || 'smtp';
if (mailTransport !== 'smtp' && mailTransport !== 'log') {
  console.error(`MAIL_TRANSPORT must be smtp or log, got ${mailTransport}`);
  process.exit(2);
}

/** A positive whole number from the environment, or undefined when unset; else exits naming it. */
function positiveInteger(name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} must be a whole number of at least 1, got ${raw}`);
    process.exit(2);
  }
  return value;
}
const mailPerMinute = positiveInteger('MAIL_LIMIT_PER_MINUTE');
const mailPerDomain = positiveInteger('MAIL_LIMIT_PER_DOMAIN_PER_MINUTE');
const logRetentionDays = positiveInteger('LOG_RETENTION_DAYS');
const logDir = env.LOG_DIR ? resolve(env.LOG_DIR) : undefined;

let trustProxy: string[];
try {
  trustProxy = parseTrustProxy(env.TRUST_PROXY);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}

const dataDir = resolve(env.DATA_DIR || '.data');
const siteDir = env.SITE_DIR ? resolve(env.SITE_DIR) : undefined;
// A data folder is made only when asked (a typo must not start a fresh, empty store); development
// makes its own.
const createDataDir =
  mode === 'development' || env.DATA_DIR_CREATE === '1' || process.argv.includes('--init');
let mailFrom: string | undefined;
try {
  if (env.MAIL_FROM) mailFrom = checkMailFrom(env.MAIL_FROM);
  if (env.SMTP_URL) checkSmtpUrl(env.SMTP_URL);
  if (env.SOLANA_RPC_URL) checkRpcUrlForm(env.SOLANA_RPC_URL);
  if (env.METRICS_TOKEN) checkMetricsToken(env.METRICS_TOKEN);
  if (siteDir) checkSiteFolder(siteDir);
  checkDataFolder('DATA_DIR', dataDir, createDataDir);
  // A log folder is made when missing (no data is lost by a typo there).
  if (logDir) checkDataFolder('LOG_DIR', logDir, true);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
if (mode === 'production' && !siteDir)
  console.log(
    `No SITE_DIR: this server answers the API only and assumes the site is served from another origin (a static host or CDN), which must be listed in CORS_ORIGINS${env.CORS_ORIGINS ? '' : ' (none is: no page of another origin can call this API)'}.`,
  );
let lock: DataLock | undefined;
let server: RunningServer | undefined;
let stopping: string | undefined;

/**
 * Stops gracefully: the server (once it runs), then the data folder's lock. A second signal
 * while the server is still starting ends the process at once.
 */
const stop = (signal: string) => {
  if (stopping && !server) {
    lock?.release();
    process.exit(1);
  }
  if (stopping) return;
  stopping = signal;
  console.log(`${signal}: stopping`);
  if (server) void closeAndExit(server);
};
const closeAndExit = (running: RunningServer) =>
  running.close().then(
    () => {
      lock?.release();
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      lock?.release();
      process.exit(1);
    },
  );
// Taken before anything else: a signal that comes as soon as the start line is read (a process
// manager, a test) or while the server starts must find the graceful stop, not the default death.
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

try {
  // One data folder, one server: taken before anything in it is opened.
  lock = lockDataFolder(dataDir);
  // Production asks its mail server and chain node before the first player does (bounded in time:
  // server/startChecks.ts); a refusal exits 2, and the process manager's restart is the retry.
  if (mode === 'production')
    await Promise.all([
      env.SMTP_URL && mailTransport === 'smtp'
        ? checkSmtpAnswers(env.SMTP_URL, mailFrom ?? 'check@localhost')
        : undefined,
      env.SOLANA_RPC_URL ? checkRpcAnswers(env.SOLANA_RPC_URL) : undefined,
    ]);
  server = await startServer({
    port,
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    trustProxy,
    mode,
    siteDir,
    apiVersion: env.API_VERSION || undefined,
    rpcUrl: env.SOLANA_RPC_URL || undefined,
    connectSrc: list(env.CSP_CONNECT_SRC),
    corsOrigins: list(env.CORS_ORIGINS),
    hsts: env.HSTS === '1',
    localChain: env.LOCAL_CHAIN === '1',
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom,
    mailToLog: mailTransport === 'log',
    mailLimits: {
      ...(mailPerMinute ? { perMinute: mailPerMinute } : {}),
      ...(mailPerDomain ? { perDomainPerMinute: mailPerDomain } : {}),
    },
    siteUrl: env.SITE_URL || undefined,
    // Production writes one JSON line per request (REQUEST_LOG=0 turns it off).
    metricsToken: env.METRICS_TOKEN || undefined,
    requestLog: env.REQUEST_LOG ? env.REQUEST_LOG === '1' : mode === 'production',
    // LOG_DIR: those lines go to daily files there instead, kept LOG_RETENTION_DAYS (90).
    logDir,
    ...(logRetentionDays ? { logRetentionDays } : {}),
  });
  if (mode === 'production' && mailTransport === 'log' && !env.SMTP_URL)
    console.warn(
      'WARNING: MAIL_TRANSPORT=log writes every sign-in code to this log and e-mails none. Staging only: never run a launch like this.',
    );
  if (mode === 'production' && !env.SOLANA_RPC_URL)
    console.warn(
      'Warning: LOCAL_CHAIN=1 runs the in-process chain in production mode; tickets are paid on this machine only.',
    );
  if (stopping) {
    // Told to stop while starting: stop now.
    void closeAndExit(server);
  } else {
    // The pid is this node process's own: the one to signal (no npm or shell in between).
    console.log(`Solana Mafia Wars is running at ${server.url}/ (pid ${process.pid})`);
    if (mode === 'development')
      console.log('Development mode: sign-in codes go to the console and /api/dev/outbox.');
  }
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    lock?.release();
    process.exit(2);
  }
  console.error(
    `Could not start the server: ${error instanceof Error ? error.message : String(error)}`,
  );
  lock?.release();
  process.exit(1);
}
