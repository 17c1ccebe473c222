/**
 * What production refuses before the first player, each by the name of the variable (and the
 * path, where one is involved): a sender that is not an address, a mail server or chain node that
 * does not answer, a data folder that is missing, not a folder, not writable or not on a disk, a
 * site folder without a site, a metrics token short enough to guess.
 *
 * Every check is bounded in time (START_CHECK_TIMEOUT_MS for the network ones); nothing here
 * can hang a start. The policy for the mail server and the node is to refuse: a server that
 * cannot mail a code or read the chain would fail its first player, so it does not start, and
 * the process manager's restart (systemd `Restart=on-failure`) is the retry.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statfsSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import addressparser from 'nodemailer/lib/addressparser';
import { createRpcCaller, RpcCallError } from './chain/rpcClient';
import { createSmtpMailer } from './mail';

/** How long the mail server and the chain node each have to answer at start. */
const START_CHECK_TIMEOUT_MS = 4_000;
/** The shortest METRICS_TOKEN accepted (128 bits as hex is 32 characters). */
const MIN_METRICS_TOKEN_LENGTH = 32;

/** A configuration mistake: the message names the variable; the process exits 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * File systems that keep no files (Linux `statfs` magic numbers): a data folder there loses
 * everything or cannot be made at all (Node's recursive mkdir spins forever under /proc).
 */
const PSEUDO_FILE_SYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x1cd1, 'devpts'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x6165676c, 'pstore'],
  [0x62656570, 'configfs'],
  [0xcafe4a11, 'bpf'],
]);

const errorCode = (error: unknown): string =>
  error instanceof Error && 'code' in error ? String(error.code) : String(error);

/** The nearest folder of `path` that exists (the path itself when it does). */
function nearestExisting(path: string): string {
  let at = path;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

/**
 * Makes sure `path` (named by `name`, e.g. DATA_DIR) is a writable folder on a real file system.
 * A missing folder is an error (a typo would otherwise start a fresh, empty store) unless `create`
 * (DATA_DIR_CREATE=1, `--init`, or development mode): then it is made, readable by its owner only.
 */
export function checkDataFolder(name: string, path: string, create: boolean): void {
  const anchor = nearestExisting(path);
  let fsType: number;
  try {
    fsType = Number(statfsSync(anchor).type);
  } catch (error) {
    throw new ConfigError(`${name}=${path} cannot be examined (${errorCode(error)})`);
  }
  const pseudo = PSEUDO_FILE_SYSTEMS.get(fsType);
  if (pseudo)
    throw new ConfigError(
      `${name}=${path} is on ${pseudo}, a file system that keeps no files: choose a folder on a disk`,
    );
  if (!existsSync(path)) {
    if (!create)
      throw new ConfigError(
        `${name}=${path} does not exist (a typo?): point it at the data folder, or start once with DATA_DIR_CREATE=1 (or --init) to create a new, empty one`,
      );
    try {
      mkdirSync(path, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new ConfigError(`${name}=${path} cannot be created (${errorCode(error)})`);
    }
  }
  if (!statSync(path).isDirectory()) throw new ConfigError(`${name}=${path} is not a folder`);
  // A real write, flushed: a read-only mount or a folder of another user fails here, by name.
  const probe = join(path, `.write-check-${process.pid}`);
  try {
    const fd = openSync(probe, 'w', 0o600);
    try {
      writeSync(fd, 'ok');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new ConfigError(
      `${name}=${path} is not writable by this server (uid ${process.getuid?.() ?? '?'}: ${errorCode(error)})`,
    );
  } finally {
    rmSync(probe, { force: true });
  }
}

/** SITE_DIR names a built site: a folder with its index.html. */
export function checkSiteFolder(path: string): void {
  if (!existsSync(path))
    throw new ConfigError(
      `SITE_DIR=${path} does not exist: build the site (npm run build) and point SITE_DIR at its dist folder`,
    );
  if (!statSync(path).isDirectory()) throw new ConfigError(`SITE_DIR=${path} is not a folder`);
  if (!readdirSync(path).includes('index.html'))
    throw new ConfigError(
      `SITE_DIR=${path} holds no index.html: it is not a built site (npm run build writes dist/)`,
    );
}

/**
 * MAIL_FROM is one address, with or without a display name: `Solana Mafia Wars <play@studio.example>`
 * or `play@studio.example`. Returns it trimmed.
 */
export function checkMailFrom(raw: string): string {
  const value = raw.trim();
  const parsed = addressparser(value, { flatten: true });
  const only = parsed.length === 1 ? parsed[0] : undefined;
  if (!only || !/^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+$/.test(only.address))
    throw new ConfigError(
      `MAIL_FROM must be one e-mail address such as "Solana Mafia Wars <play@studio.example>", got "${raw}"`,
    );
  return value;
}

/** METRICS_TOKEN, when set, is long enough not to be guessed. */
export function checkMetricsToken(token: string): void {
  if (token.length < MIN_METRICS_TOKEN_LENGTH)
    throw new ConfigError(
      `METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters, got ${token.length} (make one with: openssl rand -hex 32)`,
    );
}

/** SOLANA_RPC_URL is an http(s) URL (checked before anything is opened). */
export function checkRpcUrlForm(raw: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new ConfigError(
      `SOLANA_RPC_URL must be the http:// or https:// URL of a Solana JSON-RPC node, got "${raw}"`,
    );
  return url;
}

/** Rejects after `ms` with `message`, unless `work` settles first. */
async function within<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The node answers `getHealth`, or at least `getVersion` (a node behind its peers still is one). */
export async function checkRpcAnswers(raw: string): Promise<void> {
  const url = checkRpcUrlForm(raw);
  const shown = `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  const call = createRpcCaller(raw, { timeoutMs: START_CHECK_TIMEOUT_MS });
  try {
    await call('getHealth', []);
    return;
  } catch (error) {
    // No answer at all (refused, timed out, not JSON): getVersion cannot help. A node's own
    // error (behind its peers, the method not offered) is asked getVersion next.
    if (!(error instanceof RpcCallError))
      throw new ConfigError(
        `SOLANA_RPC_URL=${shown} does not answer (${describe(error)}): the server does not start without its chain node`,
      );
  }
  try {
    await call('getVersion', []);
  } catch (error) {
    throw new ConfigError(
      `SOLANA_RPC_URL=${shown} is not a Solana JSON-RPC node that answers getHealth or getVersion (${describe(error)})`,
    );
  }
}

/** The mail server greets and accepts the login (nodemailer's `verify`; nothing is sent). */
export async function checkSmtpAnswers(smtpUrl: string, from: string): Promise<void> {
  const url = new URL(smtpUrl);
  const shown = `${url.protocol}//${url.host}`;
  const smtp = createSmtpMailer(smtpUrl, from);
  try {
    await within(
      smtp.verify(),
      START_CHECK_TIMEOUT_MS,
      `no answer in ${START_CHECK_TIMEOUT_MS} ms`,
    );
  } catch (error) {
    throw new ConfigError(
      `SMTP_URL=${shown} cannot be used (${describe(error)}): the server does not start without a mail server to send sign-in codes`,
    );
  } finally {
    smtp.close();
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${errorCode(error.cause)}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
