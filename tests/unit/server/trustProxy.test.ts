import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer, StartOptions } from '../../../server/app';
import { PRODUCTION_RATE_LIMITS } from '../../../server/limits';
import { clientAddress, parseTrustProxy, proxyTrust } from '../../../server/proxy';
import { postApi, rawPost, registerUser, startTestServer } from '../../support/api';
import { findNginx, proxyConfig, startNginx, type Nginx } from '../../support/nginx';
import { ROOT } from '../../support/serverProcess';
import { codeIn, startTestSmtp, type TestSmtp } from '../../support/smtp';

/**
 * Behind a proxy every request comes from the proxy. With TRUST_PROXY naming it, the server
 * counts each player by the address the proxy forwards (sign-in code limits, sockets per
 * address, log lines); without it, the socket's address counts (the proxy is one client); a
 * client that is not a trusted proxy is never believed when it writes its own X-Forwarded-For.
 * Real nginx in front of the real server, real SMTP; players are loopback addresses 127.0.0.x
 * (their sockets bound with `localAddress`).
 */
const LIMIT = PRODUCTION_RATE_LIMITS.codeRequest.max;
const SOCKETS_PER_IP = 3;

let smtp: TestSmtp;
const running: { close(): Promise<void> }[] = [];
const nginxes: Nginx[] = [];
beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await Promise.all(nginxes.map((n) => n.stop()));
  await Promise.all(running.map((s) => s.close()));
  await smtp.stop();
});

type Deployment = { server: RunningServer; nginx: Nginx; lines: Record<string, unknown>[] };

/** A production server (its code e-mails to the test's SMTP server) behind its own nginx. */
async function deploy(extra: Partial<StartOptions>): Promise<Deployment> {
  const lines: Record<string, unknown>[] = [];
  const server = await startTestServer({
    mode: 'production',
    localChain: true,
    smtpUrl: smtp.url,
    mailFrom: 'Solana Mafia Wars <play@studio.test>',
    rateLimits: { socketsPerIp: SOCKETS_PER_IP },
    requestLog: {
      write: (text) => {
        for (const line of text.split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
    ...extra,
  });
  running.push(server);
  const nginx = await startNginx({ instances: [`127.0.0.1:${server.port}`] });
  nginxes.push(nginx);
  return { server, nginx, lines };
}

let mailbox = 0;
/** auth/email/init for a new address, sent from `from` to `base` (nginx or the server itself). */
async function askCode(base: string, from: string, headers: Record<string, string> = {}) {
  mailbox += 1;
  const email = `player-${mailbox}@studio.test`;
  const body = Buffer.from(JSON.stringify({ data: { email } }));
  const answer = await rawPost(`${base}/api/auth/email/init`, body, {
    localAddress: from,
    headers,
  });
  return { email, status: answer.status };
}

/** Opens a websocket from `from`; the status of the upgrade's answer (101, or the refusal). */
function socketFrom(base: string, from: string): Promise<{ status: number; ws?: WebSocket }> {
  return new Promise((done, fail) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, { localAddress: from });
    ws.once('open', () => done({ status: 101, ws }));
    ws.once('unexpected-response', (_req, res) => {
      done({ status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('error', (error) => {
      if (ws.readyState !== WebSocket.CLOSED) fail(error);
    });
  });
}

const statusCount = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {});

describe('TRUST_PROXY behind real nginx', () => {
  it('20 players from 20 addresses each get their code; one address alone is still limited', async () => {
    const { nginx, lines } = await deploy({ trustProxy: ['127.0.0.1'] });

    const players = await Promise.all(
      Array.from({ length: 20 }, (_, i) => askCode(nginx.url, `127.0.0.${10 + i}`)),
    );
    expect(statusCount(players.map((p) => p.status))).toEqual({ 200: 20 });
    for (const player of players)
      expect(codeIn((await smtp.next(player.email)).text)).toMatch(/^\d{6}$/);

    // One address, alone: its budget, then 429.
    const alone: number[] = [];
    for (let i = 0; i < LIMIT + 2; i += 1)
      alone.push((await askCode(nginx.url, '127.0.0.77')).status);
    expect(alone).toEqual([...Array(LIMIT).fill(200), 429, 429]);

    // The log names each player's own address, never the proxy's.
    const inits = lines.filter((l) => l.route === '/api/auth/email/init');
    expect(inits).toHaveLength(20 + LIMIT + 2);
    expect(new Set(inits.map((l) => l.ip))).toEqual(
      new Set([...players.map((_, i) => `127.0.0.${10 + i}`), '127.0.0.77']),
    );
    console.log(
      `trust proxy: through nginx 20 addresses → ${statusCount(players.map((p) => p.status))[200]} codes; one address → ${alone.filter((s) => s === 200).length} then 429`,
    );
  });

  it('an X-Forwarded-For written by the client is not believed, through the proxy or around it', async () => {
    const { server, nginx } = await deploy({ trustProxy: ['127.0.0.1'] });
    // Through nginx: nginx appends the real peer, whose own claims to the left are not trusted.
    const through: number[] = [];
    for (let i = 0; i < LIMIT + 1; i += 1)
      through.push(
        (await askCode(nginx.url, '127.0.0.88', { 'X-Forwarded-For': `203.0.113.${i}` })).status,
      );
    expect(through).toEqual([...Array(LIMIT).fill(200), 429]);
    // Around it, straight to the server from an address that is no trusted proxy.
    const around: number[] = [];
    for (let i = 0; i < LIMIT + 1; i += 1)
      around.push(
        (await askCode(server.url, '127.0.0.89', { 'X-Forwarded-For': `198.51.100.${i}` })).status,
      );
    expect(around).toEqual([...Array(LIMIT).fill(200), 429]);
  });

  it('without TRUST_PROXY the proxy is one client: the socket address counts, as before', async () => {
    const { nginx, lines } = await deploy({});
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i += 1)
      statuses.push((await askCode(nginx.url, `127.0.0.${120 + i}`)).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429]);
    const ips = new Set(lines.filter((l) => l.route === '/api/auth/email/init').map((l) => l.ip));
    expect(ips).toEqual(new Set(['127.0.0.1']));
  });

  it('websockets through nginx are counted per player address, not per proxy', async () => {
    const { nginx } = await deploy({ trustProxy: ['127.0.0.1'] });
    const open: WebSocket[] = [];
    try {
      const many = await Promise.all(
        Array.from({ length: SOCKETS_PER_IP * 2 }, (_, i) =>
          socketFrom(nginx.url, `127.0.0.${150 + i}`),
        ),
      );
      open.push(...many.flatMap((s) => (s.ws ? [s.ws] : [])));
      expect(many.map((s) => s.status)).toEqual(Array(SOCKETS_PER_IP * 2).fill(101));
      const one: number[] = [];
      for (let i = 0; i < SOCKETS_PER_IP + 1; i += 1) {
        const s = await socketFrom(nginx.url, '127.0.0.170');
        if (s.ws) open.push(s.ws);
        one.push(s.status);
      }
      expect(one).toEqual([...Array(SOCKETS_PER_IP).fill(101), 429]);
    } finally {
      for (const ws of open) ws.terminate();
    }
  });
});

/** GET `url` from the loopback address `from`: the status, once the body is read. */
const getFrom = (url: string, from: string) =>
  new Promise<number>((done, fail) => {
    request(url, { localAddress: from }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    })
      .on('error', fail)
      .end();
  });

describe('invite clicks behind real nginx', () => {
  it('count one visitor per player address with TRUST_PROXY, one in all without it', async () => {
    const siteDir = mkdtempSync(join(tmpdir(), 'smw-proxy-site-'));
    writeFileSync(join(siteDir, 'index.html'), '<!doctype html><title>Solana Mafia Wars</title>');
    try {
      const clicksThrough = async (trustProxy: string[]) => {
        const server = await startTestServer({ plugins: [], siteDir, trustProxy });
        running.push(server);
        const nginx = await startNginx({ instances: [`127.0.0.1:${server.port}`] });
        nginxes.push(nginx);
        const inviter = await registerUser(server.url, `inviter-${trustProxy.length}@studio.test`);
        const code = inviter.userData.user_invite_code;
        for (let i = 0; i < 5; i += 1)
          expect(await getFrom(`${nginx.url}/r/${code}`, `127.0.0.${200 + i}`)).toBe(200);
        const data = (await postApi(server.url, 'user/data', {}, inviter.jwt)).body.user_data as {
          user_data: { referral: { clicks: number } };
        };
        return data.user_data.referral.clicks;
      };
      expect(await clicksThrough(['127.0.0.1'])).toBe(5);
      expect(await clicksThrough([])).toBe(1);
    } finally {
      rmSync(siteDir, { recursive: true, force: true });
    }
  });
});

describe('the proxy of the tests', () => {
  it('a missing nginx is a failure that says how to install it', () => {
    expect(() => findNginx(['/nonexistent/sbin/nginx'])).toThrow(
      'nginx not found (looked at /nonexistent/sbin/nginx). nginx is needed for the proxy tests: apt-get install -y nginx',
    );
    expect(findNginx()).toMatch(/nginx$/);
  });
});

describe('the nginx configuration of the README', () => {
  it('is the one these tests run, word for word', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /## Running more than one instance[\s\S]*?```nginx\n([\s\S]*?)```/.exec(
      readme,
    )?.[1];
    expect(block).toBe(proxyConfig('80', ['127.0.0.1:8081', '127.0.0.1:8082']));
  });
});

describe('TRUST_PROXY entries', () => {
  it('takes addresses and CIDRs, refuses anything else naming it', () => {
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8 ::1,fd00::/8')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
    expect(parseTrustProxy(undefined)).toEqual([]);
    for (const bad of ['localhost', '10.0.0.0/33', '10.0.0.1/8/1', '300.1.1.1', 'true'])
      expect(() => parseTrustProxy(bad)).toThrow(`TRUST_PROXY must list`);
  });

  it('walks X-Forwarded-For from the right only through trusted hops', () => {
    const trust = proxyTrust(['10.0.0.0/8', '127.0.0.1']);
    const req = (socket: string, xff?: string) =>
      ({
        socket: { remoteAddress: socket },
        headers: xff === undefined ? {} : { 'x-forwarded-for': xff },
      }) as unknown as Parameters<typeof clientAddress>[0];
    expect(clientAddress(req('127.0.0.1', '1.2.3.4'), trust)).toBe('1.2.3.4');
    expect(clientAddress(req('::ffff:127.0.0.1', '1.2.3.4'), trust)).toBe('1.2.3.4');
    // Two proxies of ours, then the client; what the client wrote to the left is ignored.
    expect(clientAddress(req('127.0.0.1', '6.6.6.6, 1.2.3.4, 10.1.2.3'), trust)).toBe('1.2.3.4');
    expect(clientAddress(req('1.2.3.4', '6.6.6.6'), trust)).toBe('1.2.3.4');
    expect(clientAddress(req('127.0.0.1'), trust)).toBe('127.0.0.1');
    expect(clientAddress(req('127.0.0.1', '6.6.6.6'), undefined)).toBe('127.0.0.1');
  });
});
