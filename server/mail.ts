/**
 * The sign-in code e-mail and how it leaves the server: SMTP through nodemailer (`SMTP_URL`,
 * `MAIL_FROM`), or, for a staging server only, the log (`MAIL_TRANSPORT=log`).
 */
import nodemailer from 'nodemailer';
import { CODE_TTL_MS } from './codes';

const STUDIO_NAME = 'Solana Mafia Wars';
export const CODE_SUBJECT = 'Your Solana Mafia Wars sign-in code';
/** What the player reads after 'Failed to send code: ' when the mail server refuses or is down. */
export const MAIL_FAILED_MESSAGE =
  'The e-mail could not be sent right now. Please try again in a minute.';

export const NO_MAIL_MESSAGE =
  'Production mode needs SMTP_URL (smtp://user:pass@host:587 or smtps://user:pass@host:465) and MAIL_FROM to send sign-in codes; set MAIL_TRANSPORT=log only on a staging server, to write codes to the log instead';

/** One e-mail, ready for any transport. */
export type MailMessage = {
  /** The recipient. */
  readonly email: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
};

/** Delivers one e-mail or throws (refused, timed out, unreachable). */
export type Mailer = (message: MailMessage) => Promise<void>;

/** Time limits of one SMTP delivery, so a stalled mail server fails the request quickly. */
const SMTP_TIMEOUTS = { connectionTimeout: 8_000, greetingTimeout: 8_000, socketTimeout: 15_000 };

/** Rejects anything but smtp:// and smtps:// with a host, before the server starts. */
export function checkSmtpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('SMTP_URL must be a URL like smtp://user:pass@host:587');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname)
    throw new Error('SMTP_URL must start with smtp:// or smtps:// and name a host');
  return url;
}

/**
 * An SMTP mailer (one transport per server). `from` is MAIL_FROM. `verify` is nodemailer's
 * cheap check for readiness: it connects, greets and logs in, then quits, sending nothing.
 */
export function createSmtpMailer(
  smtpUrl: string,
  from: string,
): { send: Mailer; verify(): Promise<void>; close(): void } {
  checkSmtpUrl(smtpUrl);
  const transport = nodemailer.createTransport(smtpUrl, { from, ...SMTP_TIMEOUTS });
  return {
    send: async ({ email, subject, text, html }) => {
      await transport.sendMail({ from, to: email, subject, text, html });
    },
    verify: async () => {
      await transport.verify();
    },
    close: () => transport.close(),
  };
}

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const TTL_MINUTES = Math.round(CODE_TTL_MS / 60_000);

/**
 * The code e-mail: a plain-text part and an HTML part with inline styles only (mail clients drop
 * `<style>` unevenly), no remote images or trackers, `color-scheme` for dark clients, the code as
 * large spaced text a player can copy.
 */
export function codeEmail(email: string, code: string, siteUrl: string): MailMessage {
  const site = siteUrl.replace(/\/+$/, '');
  const text = [
    `Your ${STUDIO_NAME} sign-in code:`,
    '',
    `    ${code}`,
    '',
    `Enter it in the sign-in window on ${site}. It is valid for ${TTL_MINUTES} minutes and works once.`,
    '',
    'We never ask for this code. Do not share it with anyone, not even someone who says they are from our team.',
    '',
    `Did not request this? Ignore this e-mail: nobody can sign in without the code.`,
    '',
    `— ${STUDIO_NAME}`,
    site,
  ].join('\n');

  const siteHtml = escapeHtml(site);
  const gold = '#c9a227';
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${escapeHtml(CODE_SUBJECT)}</title>
<style>@media (prefers-color-scheme: dark){body,.smw-page{background:#0b0a08 !important;}}</style>
</head>
<body class="smw-page" style="margin:0;padding:0;background:#f4f1ea;color:#1b1712;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;">
<div style="display:none;max-height:0;overflow:hidden;">Your code is ${code}. Valid for ${TTL_MINUTES} minutes.</div>
<table role="presentation" class="smw-page" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f1ea;padding:24px 12px;">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#15120e;border-radius:14px;border:1px solid #3a3226;">
<tr><td style="padding:28px 28px 8px 28px;text-align:center;">
<div style="font-family:Georgia,'Times New Roman',serif;font-size:24px;line-height:1.2;color:${gold};letter-spacing:0.5px;">${STUDIO_NAME}</div>
<div style="font-size:13px;line-height:1.4;color:#b8ab93;padding-top:4px;">Build Your Criminal Empire</div>
</td></tr>
<tr><td style="padding:20px 28px 0 28px;text-align:center;">
<p style="margin:0;font-size:16px;line-height:1.5;color:#f3ecdf;">Your sign-in code</p>
<p style="margin:14px 0 0 0;font-family:'SFMono-Regular',Menlo,Consolas,'Liberation Mono',monospace;font-size:40px;line-height:1.15;font-weight:700;letter-spacing:10px;color:#ffffff;background:#241f18;border:1px solid ${gold};border-radius:10px;padding:14px 8px 14px 18px;">${code}</p>
<p style="margin:14px 0 0 0;font-size:14px;line-height:1.5;color:#d9cfbd;">Enter it in the sign-in window. It is valid for <strong style="color:#ffffff;">${TTL_MINUTES} minutes</strong> and works once.</p>
</td></tr>
<tr><td style="padding:22px 28px 0 28px;">
<p style="margin:0;font-size:14px;line-height:1.5;color:#f3ecdf;background:#2b1d12;border-left:3px solid ${gold};padding:10px 12px;border-radius:4px;"><strong>We never ask for this code.</strong> Do not share it with anyone, not even someone who says they are from our team.</p>
<p style="margin:16px 0 0 0;font-size:14px;line-height:1.5;color:#d9cfbd;">Did not request this? Ignore this e-mail: nobody can sign in without the code.</p>
</td></tr>
<tr><td style="padding:24px 28px 28px 28px;text-align:center;">
<a href="${siteHtml}" style="display:inline-block;font-size:15px;font-weight:600;color:#15120e;background:${gold};text-decoration:none;padding:11px 22px;border-radius:999px;">Open ${STUDIO_NAME}</a>
<p style="margin:18px 0 0 0;font-size:12px;line-height:1.5;color:#8f846f;">Sent by ${STUDIO_NAME} because this address was entered at <a href="${siteHtml}" style="color:#b8ab93;">${siteHtml}</a>.</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
  return { email, subject: CODE_SUBJECT, text, html };
}
