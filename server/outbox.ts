import type { Db } from './db';
import type { Logger, ServerMode } from './context';

export const CODE_SUBJECT = 'Your Solana Mafia Wars sign-in code';

export type OutboxMessage = { email: string; code: string; subject: string; at: string };

/** Sends a code e-mail somewhere real (production); the local server has no mail transport. */
export type Mailer = (message: { email: string; subject: string; text: string }) => Promise<void>;

/**
 * Where sign-in code e-mails go. In development mode: the console and the `outbox` table
 * (read through GET /api/dev/outbox). In production mode the code is handed to the mailer only
 * and never written to a log or the database.
 */
export function createOutbox(
  db: Db,
  mode: ServerMode,
  log: Logger,
  now: () => number,
  mailer?: Mailer,
) {
  const insert = db.prepare('INSERT INTO outbox (email, code, subject, at) VALUES (?, ?, ?, ?)');
  const listFor = db.prepare<
    [string],
    { email: string; code: string; subject: string; at: number }
  >('SELECT email, code, subject, at FROM outbox WHERE email = ? ORDER BY id DESC LIMIT 50');
  const listAll = db.prepare<[], { email: string; code: string; subject: string; at: number }>(
    'SELECT email, code, subject, at FROM outbox ORDER BY id DESC LIMIT 50',
  );
  let warned = false;
  return {
    async sendCode(email: string, code: string): Promise<void> {
      const text = `Your sign-in code is ${code}. It is valid for 10 minutes.`;
      if (mode === 'development') {
        insert.run(email, code, CODE_SUBJECT, now());
        log.info(`[outbox] to ${email}: ${CODE_SUBJECT}: ${code}`);
      }
      if (mailer) await mailer({ email, subject: CODE_SUBJECT, text });
      else if (mode === 'production' && !warned) {
        warned = true;
        log.warn('No mailer configured: sign-in code e-mails are not delivered.');
      }
    },
    /** Newest first (development mode only). */
    list(email?: string): OutboxMessage[] {
      const rows = email ? listFor.all(email) : listAll.all();
      return rows.map((row) => ({ ...row, at: new Date(row.at).toISOString() }));
    },
  };
}
export type Outbox = ReturnType<typeof createOutbox>;
