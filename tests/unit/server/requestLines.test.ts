import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../server/app';
import type { MailMessage } from '../../../server/mail';
import { postApi, startTestServer } from '../../support/api';
import { codeIn } from '../../support/smtp';

/**
 * The request log tells what was answered: the status each response really had (a file of the
 * site is a 200, not the 404 a second answer used to write over it, with a "Reply was already
 * sent" warning), the client's address, and the signed-in user's id.
 */
type Line = Record<string, unknown> & { level: number; msg: string };
let server: RunningServer;
let siteDir: string;
const lines: Line[] = [];
const mails: MailMessage[] = [];

beforeAll(async () => {
  siteDir = mkdtempSync(join(tmpdir(), 'smw-lines-'));
  writeFileSync(join(siteDir, 'index.html'), '<!doctype html><title>Home shell</title>');
  writeFileSync(join(siteDir, '404.html'), '<!doctype html><title>Not found shell</title>');
  mkdirSync(join(siteDir, 'assets'));
  writeFileSync(join(siteDir, 'assets/app-1.js'), `console.log(${'1'.repeat(3000)});`);
  writeFileSync(join(siteDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  server = await startTestServer({
    mode: 'production',
    localChain: true,
    siteDir,
    mailer: async (message) => {
      mails.push(message);
    },
    requestLog: {
      write: (text) => {
        for (const line of text.split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Line);
      },
    },
  });
}, 30_000);
afterAll(async () => {
  await server.close();
  rmSync(siteDir, { recursive: true, force: true });
});

const requestLines = () => lines.filter((l) => l.msg === 'request');
const warnings = () => lines.filter((l) => l.level >= 40);

describe('request lines', () => {
  it('2,000 static requests log 2,000 lines with status 200 and no warning', async () => {
    const paths = ['/', '/assets/app-1.js', '/favicon.svg', '/docs'];
    const before = lines.length;
    const statuses: number[] = [];
    // 2,000 requests, 20 at a time over keep-alive connections.
    for (let batch = 0; batch < 100; batch += 1)
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const response = await fetch(`${server.url}${paths[(batch * 20 + i) % paths.length]}`);
            await response.arrayBuffer();
            return response.status;
          }),
        )),
      );
    expect(statuses.filter((s) => s === 200)).toHaveLength(2000);
    await new Promise((done) => setTimeout(done, 100));
    const logged = lines.slice(before);
    const requests = logged.filter((l) => l.msg === 'request');
    const byStatus = requests.reduce<Record<string, number>>(
      (n, l) => ({ ...n, [String(l.status)]: (n[String(l.status)] ?? 0) + 1 }),
      {},
    );
    console.log(
      `request lines: 2000 static requests → ${requests.length} lines ${JSON.stringify(byStatus)}, ${logged.filter((l) => l.level >= 40).length} warnings, ${logged.length} lines in all`,
    );
    expect(byStatus).toEqual({ 200: 2000 });
    expect(logged.filter((l) => l.level >= 40)).toEqual([]);
    expect(logged).toHaveLength(2000);
    expect(new Set(requests.map((l) => l.path))).toEqual(new Set(paths));
    expect(new Set(requests.map((l) => l.ip))).toEqual(new Set(['127.0.0.1']));
  }, 60_000);

  it('a page not found is logged 404, a HEAD 200, each once and without a warning', async () => {
    const before = lines.length;
    expect((await fetch(`${server.url}/no/such/page`)).status).toBe(404);
    expect((await fetch(`${server.url}/assets/missing-1.js`)).status).toBe(404);
    expect((await fetch(`${server.url}/`, { method: 'HEAD' })).status).toBe(200);
    await new Promise((done) => setTimeout(done, 50));
    const logged = lines.slice(before);
    expect(logged.map((l) => [l.method, l.path, l.status])).toEqual([
      ['GET', '/no/such/page', 404],
      ['GET', '/assets/missing-1.js', 404],
      ['HEAD', '/', 200],
    ]);
    expect(warnings()).toEqual([]);
  });

  it("a signed-in call's line carries the user id; an anonymous one none, and no token", async () => {
    const email = 'lines@studio.test';
    const created = await postApi(server.url, 'sess/create', {
      data: { language: 'en', user_agent: 'tests' },
    });
    const session = String(created.body.sessionToken);
    expect(
      (await postApi(server.url, 'auth/email/init', { session, data: { email } })).status,
    ).toBe(200);
    const code = codeIn(mails.at(-1)?.text)!;
    const verified = await postApi(server.url, 'auth/email/verify', {
      session,
      data: { email, code },
    });
    expect(verified.status).toBe(200);
    const jwt = String(verified.body.jwt);
    const userId = (await server.ctx.users.findByEmail(email))!.id;
    const before = lines.length;
    expect((await postApi(server.url, 'user/data', { session }, jwt)).status).toBe(200);
    expect((await postApi(server.url, 'sess/init', {})).status).toBe(200);
    await new Promise((done) => setTimeout(done, 50));
    // (The server's own calls to its in-process chain's /rpc have lines of their own.)
    const after = lines.slice(before);
    const signedIn = after.find((l) => l.route === '/api/user/data');
    const anonymous = after.find((l) => l.route === '/api/sess/init');
    expect(signedIn).toMatchObject({
      route: '/api/user/data',
      status: 200,
      userId,
      ip: '127.0.0.1',
    });
    expect(anonymous).toMatchObject({ route: '/api/sess/init', status: 200, ip: '127.0.0.1' });
    expect(anonymous).not.toHaveProperty('userId');
    const text = JSON.stringify(requestLines());
    for (const secret of [jwt, code, session, String(verified.body.refresh_token)])
      expect(text).not.toContain(secret);
  });
});
