import type { Db } from './db';
import { randomToken, sha256 } from './secrets';

export type SessionStart = {
  language: string;
  user_agent: string;
  utm_source?: string | undefined;
  utm_campaign?: string | undefined;
  utm_medium?: string | undefined;
};

/** Visitor sessions (sess/create, sess/load); the token is stored hashed. */
export function createSessions(db: Db, now: () => number) {
  const insert = db.prepare(
    `INSERT INTO sessions (token_hash, language, user_agent, utm_source, utm_campaign, utm_medium,
       created_at, last_seen_at)
     VALUES (@token_hash, @language, @user_agent, @utm_source, @utm_campaign, @utm_medium, @at, @at)`,
  );
  const touch = db.prepare('UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?');
  const attach = db.prepare('UPDATE sessions SET user_id = ? WHERE token_hash = ?');
  return {
    create(start: SessionStart): string {
      const token = randomToken(24);
      insert.run({
        token_hash: sha256(token),
        language: start.language,
        user_agent: start.user_agent,
        utm_source: start.utm_source ?? null,
        utm_campaign: start.utm_campaign ?? null,
        utm_medium: start.utm_medium ?? null,
        at: now(),
      });
      return token;
    },
    /** True when the token is known (and marks it seen). */
    load(token: string): boolean {
      return touch.run(now(), sha256(token)).changes > 0;
    },
    attachUser(token: string, userId: number): void {
      attach.run(userId, sha256(token));
    },
  };
}
export type Sessions = ReturnType<typeof createSessions>;
