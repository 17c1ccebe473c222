import type { Store } from './store/engine';
import type { Logger, ServerMode } from './context';
import type { ServerEventBus } from './events';
import { CODE_SUBJECT, codeEmail, type Mailer } from './mail';

export type OutboxMessage = { email: string; code: string; subject: string; at: string };

/** How sign-in code e-mails leave the server (server/mail.ts builds them). */
export type MailDelivery =
  /** A real transport (SMTP in production; a test's own mailer). */
  | { kind: 'mailer'; mailer: Mailer; close?: () => void }
  /** Staging only (MAIL_TRANSPORT=log): the code is written to the log, never e-mailed. */
  | { kind: 'log' }
  /** Development without SMTP_URL: the outbox table and the console only. */
  | { kind: 'none' };

/** Waits this long before the one retry of a delivery that failed. */
const MAIL_RETRY_DELAY_MS = 300;

/**
 * Where sign-in code e-mails go. Development mode keeps every code in the `outbox` table (read
 * through GET /api/dev/outbox) and on the console, and also e-mails it when SMTP_URL is set. In
 * production the code goes to the transport only and never to a log line or the database (but
 * for MAIL_TRANSPORT=log, a staging server's explicit choice). A failed delivery is retried once;
 * a second failure throws, so the request answers with an error.
 */
export function createOutbox(
  { db }: Store,
  mode: ServerMode,
  log: Logger,
  now: () => number,
  delivery: MailDelivery,
  siteUrl: () => string,
  events?: ServerEventBus,
  /** How long a code e-mail stays in the outbox (LOG_RETENTION_DAYS). */
  keepMs = Infinity,
) {
  const columns = ['email', 'code', 'subject', 'at'] as const;
  return {
    async sendCode(email: string, code: string): Promise<void> {
      if (mode === 'development') {
        // Kept as long as the logs: what is older goes as this one comes.
        if (Number.isFinite(keepMs))
          await db
            .deleteFrom('outbox')
            .where('at', '<', now() - keepMs)
            .execute();
        await db
          .insertInto('outbox')
          .values({ email, code, subject: CODE_SUBJECT, at: now() })
          .execute();
        log.info(`[outbox] to ${email}: ${CODE_SUBJECT}: ${code}`);
      }
      if (delivery.kind === 'log' && mode === 'production')
        log.warn(`[MAIL_TRANSPORT=log] sign-in code for ${email}: ${code} (not e-mailed)`);
      if (delivery.kind !== 'mailer') {
        events?.emit('code.sent', { via: delivery.kind === 'log' ? 'log' : 'outbox' });
        return;
      }
      const message = codeEmail(email, code, siteUrl());
      try {
        await delivery.mailer(message);
      } catch (first) {
        log.warn(`Mail delivery failed once, retrying: ${reason(first)}`);
        await new Promise((done) => setTimeout(done, MAIL_RETRY_DELAY_MS));
        try {
          await delivery.mailer(message);
        } catch (second) {
          log.error(`Mail delivery failed: ${reason(second)}`);
          events?.emit('code.failed', {});
          throw second;
        }
      }
      events?.emit('code.sent', { via: 'mail' });
    },
    /** Newest first (development mode only). */
    async list(email?: string): Promise<OutboxMessage[]> {
      const rows = await db
        .selectFrom('outbox')
        .select(columns)
        .$if(email !== undefined, (q) => q.where('email', '=', email ?? ''))
        .orderBy('id', 'desc')
        .limit(50)
        .execute();
      return rows.map((row) => ({ ...row, at: new Date(row.at).toISOString() }));
    },
  };
}
export type Outbox = ReturnType<typeof createOutbox>;

/** A transport's error without the message itself (never the code). */
const reason = (error: unknown): string =>
  error instanceof Error
    ? `${error.name}${'code' in error ? ` ${String(error.code)}` : ''}: ${error.message}`
    : String(error);
