import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * Debian's nginx in front of one or more servers, as a deployment runs it: started by the test
 * with a configuration and prefix of its own (`nginx -c CONF -p PREFIX`, in the foreground) on a
 * free loopback port, stopped by the test. The part of the configuration a deployment copies
 * (`proxyConfig`: the upstream of the instances, websocket upgrade, `X-Forwarded-For`) is the
 * README's "Running more than one instance" text, word for word; the rest only keeps this nginx
 * to its own folder (pid, logs, temporary files).
 */
export type Nginx = {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** The folder of its configuration, logs and temporary files (removed by `stop`). */
  readonly prefix: string;
  /** What nginx wrote to its error log so far. */
  errorLog(): string;
  /** Stops nginx (SIGQUIT, SIGKILL after 5 s) and removes its folder. */
  stop(): Promise<void>;
};

export type NginxOptions = {
  /** The instances, as `host:port` (round-robin between them). */
  instances: readonly string[];
  /**
   * Lets a test choose the instance of each browser: a request with the cookie
   * `smw_test_instance=N` goes to instance N (1-based), any other request round-robin as
   * deployed. The site never sets that cookie: only a test's browser context carries it.
   */
  pinByCookie?: boolean;
};

/** The cookie a test sets on a browser context to pin it to one instance (`pinByCookie`). */
export const PIN_COOKIE = 'smw_test_instance';

/** The deployment's configuration with `proxy_pass` to the instance a pinned request names. */
function pinnedConfig(listen: string, instances: readonly string[]): string {
  const deployed = proxyConfig(listen, instances);
  const pass = '        proxy_pass http://smw;';
  if (!deployed.includes(pass)) throw new Error('nginx: the proxy configuration has no proxy_pass');
  const targets = instances.map((instance, i) => `    "${i + 1}" ${instance};`).join('\n');
  return `map $cookie_${PIN_COOKIE} $smw_target {
    default smw;
${targets}
}

${deployed.replace(pass, '        proxy_pass http://$smw_target;')}`;
}

const NGINX_HELP =
  'nginx is needed for the proxy tests: apt-get install -y nginx (or set NGINX_PATH)';

/** Where nginx is looked for: NGINX_PATH, /usr/sbin/nginx, then `nginx` on the PATH. */
const nginxCandidates = (): string[] =>
  [
    process.env.NGINX_PATH,
    '/usr/sbin/nginx',
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'nginx')),
  ].filter((path): path is string => Boolean(path));

/** The first executable of `candidates`; else an error that says how to install nginx. */
export function findNginx(candidates: readonly string[] = nginxCandidates()): string {
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // next
    }
  }
  throw new Error(`nginx not found (looked at ${candidates.join(', ')}). ${NGINX_HELP}`);
}

/**
 * The `http {}` part of a deployment's nginx configuration: one upstream of every instance,
 * websocket upgrades on any path (the site's `/ws`), the client's address appended to
 * `X-Forwarded-For` for the servers' TRUST_PROXY. TLS is the operator's (a `listen 443 ssl` and
 * certificates in place of the plain `listen`).
 */
export function proxyConfig(listen: string, instances: readonly string[]): string {
  return `map $http_upgrade $connection_upgrade {
    default upgrade;
    ''      '';
}

upstream smw {
${instances.map((instance) => `    server ${instance} max_fails=0;`).join('\n')}
    keepalive 32;
}

server {
    listen ${listen};

    location / {
        proxy_pass http://smw;
        proxy_http_version 1.1;
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_connect_timeout 2s;
        proxy_read_timeout 150s;
        proxy_next_upstream error timeout http_502 http_503;
    }
}
`;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const address = probe.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

const accepts = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });

const exited = (child: ChildProcess): Promise<void> =>
  new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once('exit', () => done());
  });

/** Starts nginx in front of `instances`; resolves once it accepts connections. */
export async function startNginx(options: NginxOptions): Promise<Nginx> {
  const binary = findNginx();
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const prefix = mkdtempSync(join(tmpdir(), 'smw-nginx-'));
    for (const dir of ['logs', 'tmp']) mkdirSync(join(prefix, dir));
    const conf = join(prefix, 'nginx.conf');
    // As root, nginx's workers would run as nobody, who cannot use this folder.
    const user = process.getuid?.() === 0 ? 'user root;\n' : '';
    writeFileSync(
      conf,
      `${user}worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log ${prefix}/logs/access.log;
    client_body_temp_path ${prefix}/tmp/body;
    proxy_temp_path ${prefix}/tmp/proxy;
    fastcgi_temp_path ${prefix}/tmp/fastcgi;
    uwsgi_temp_path ${prefix}/tmp/uwsgi;
    scgi_temp_path ${prefix}/tmp/scgi;

${(options.pinByCookie ? pinnedConfig : proxyConfig)(`127.0.0.1:${port}`, options.instances)
  .split('\n')
  .map((line) => (line ? `    ${line}` : line))
  .join('\n')}}
`,
    );
    const child = spawn(binary, ['-c', conf, '-p', prefix], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const spawnError = new Promise<Error>((done) => child.once('error', done));
    const errorLog = () => {
      try {
        return readFileSync(join(prefix, 'logs/error.log'), 'utf8');
      } catch {
        return '';
      }
    };
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited(child);
        clearTimeout(timer);
      }
      rmSync(prefix, { recursive: true, force: true });
    };
    // Up within 10 s (polled every 20 ms), or it has exited and says why.
    let up = false;
    for (let poll = 0; poll < 500 && !up; poll += 1) {
      if (child.exitCode !== null) break;
      up = await accepts(port);
      if (!up) await new Promise((done) => setTimeout(done, 20));
    }
    if (up) return { url: `http://127.0.0.1:${port}`, port, prefix, errorLog, stop };
    const why = `${printed}${errorLog()}`.trim();
    const failedToSpawn = await Promise.race([
      spawnError,
      new Promise<undefined>((done) => setTimeout(done, 10)),
    ]);
    await stop();
    if (failedToSpawn)
      throw new Error(`nginx could not run: ${failedToSpawn.message}. ${NGINX_HELP}`);
    // Another process took the free port between the probe and nginx: try another.
    if (/Address already in use/.test(why) && attempt < 3) continue;
    throw new Error(`nginx did not start (${binary} -c ${conf} -p ${prefix}): ${why}`);
  }
}
