import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_FAILED_MESSAGE, NO_MAIL_MESSAGE, CODE_SUBJECT } from '../../../server/mail';
import type { RunningServer } from '../../../server/app';
import { postApi, startTestServer } from '../../support/api';
import { codeIn, startTestSmtp, type TestSmtp } from '../../support/smtp';

/**
 * Production sign-in mail through a real SMTP server on 127.0.0.1 (smtp-server), each message
 * parsed as MIME (mailparser): the code e-mail's parts, a refused delivery, the retry.
 */
let smtp: TestSmtp;
let server: RunningServer | undefined;
const lines: string[] = [];
const collect = (line: string) => void lines.push(line);

beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(() => smtp.stop());
afterEach(async () => {
  await server?.close();
  server = undefined;
  lines.length = 0;
  await smtp.start();
});

const startProduction = () =>
  startTestServer({
    plugins: [],
    mode: 'production',
    localChain: true,
    smtpUrl: smtp.url,
    mailFrom: 'Solana Mafia Wars <play@studio.test>',
    siteUrl: 'https://play.studio.test/',
    log: { info: collect, warn: collect, error: collect },
  });

const init = (url: string, email: string) =>
  postApi(url, 'auth/email/init', { data: { email, code_invite: '', resend: false } });

describe('production sign-in mail (SMTP)', () => {
  it('e-mails the code in an HTML and a text part; the code never reaches the log', async () => {
    server = await startProduction();
    const sent = await init(server.url, 'Player@Site.Test');
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ result: true });
    const mail = await smtp.next('player@site.test');
    expect(mail.subject).toBe(CODE_SUBJECT);
    expect(mail.from?.text).toContain('play@studio.test');
    const code = codeIn(mail.text);
    expect(code).toMatch(/^\d{6}$/);
    expect(codeIn(typeof mail.html === 'string' ? mail.html : '')).toBe(code);
    const html = String(mail.html);
    // A message players trust: lifetime, the site, never share, ignore if not requested.
    for (const part of [mail.text ?? '', html]) {
      expect(part).toContain('10 minutes');
      expect(part).toContain('https://play.studio.test');
      expect(part).toContain('We never ask for this code');
      expect(part).toMatch(/Did not request this\? Ignore this e-mail/);
    }
    // No remote images or trackers; readable in dark clients.
    expect(html).not.toMatch(/<img|url\(|src=/i);
    expect(html).toContain('name="color-scheme"');
    const verified = await postApi(server.url, 'auth/email/verify', {
      data: { email: 'player@site.test', code },
    });
    expect(verified.status).toBe(200);
    expect(lines.join('\n')).not.toContain(code!);
  });

  it(`a refused delivery answers '${MAIL_FAILED_MESSAGE}', starts no cooldown, and a retry works once the mail server is back`, async () => {
    server = await startProduction();
    await smtp.stop();
    const failed = await init(server.url, 'down@site.test');
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ message: MAIL_FAILED_MESSAGE });
    await smtp.start();
    const again = await init(server.url, 'down@site.test');
    expect(again.status).toBe(200);
    const code = codeIn((await smtp.next('down@site.test')).text);
    const verified = await postApi(server.url, 'auth/email/verify', {
      data: { email: 'down@site.test', code },
    });
    expect(verified.status).toBe(200);
    expect(lines.join('\n')).not.toContain(code!);
  });

  it('retries a failed delivery once inside the request', async () => {
    let calls = 0;
    server = await startTestServer({
      plugins: [],
      mode: 'production',
      localChain: true,
      mailer: async () => {
        calls += 1;
        if (calls === 1) throw new Error('421 try again later');
      },
    });
    expect((await init(server.url, 'flaky@site.test')).status).toBe(200);
    expect(calls).toBe(2);
  });

  it('production refuses to start without SMTP_URL, or with SMTP_URL but no MAIL_FROM', async () => {
    await expect(
      startTestServer({ plugins: [], mode: 'production', localChain: true, mailer: undefined }),
    ).rejects.toThrow(NO_MAIL_MESSAGE);
    await expect(
      startTestServer({ plugins: [], mode: 'production', localChain: true, smtpUrl: smtp.url }),
    ).rejects.toThrow(/MAIL_FROM/);
    await expect(
      startTestServer({
        plugins: [],
        mode: 'production',
        localChain: true,
        smtpUrl: 'http://mail.example',
        mailFrom: 'a@b.c',
      }),
    ).rejects.toThrow(/SMTP_URL must start with smtp:\/\/ or smtps:\/\//);
  });
});
