import type { Store } from './store/engine';
import { randomToken, sha256 } from './secrets';

type SessionStart = {
  language: string;
  user_agent: string;
  utm_source?: string | undefined;
  utm_campaign?: string | undefined;
  utm_medium?: string | undefined;
};

/** Visitor sessions (sess/create, sess/load); the token is stored hashed. */
export type Sessions = {
  create(start: SessionStart): Promise<string>;
  /** True when the token is known (and marks it seen). */
  load(token: string): Promise<boolean>;
  attachUser(token: string, userId: number): Promise<void>;
};

export function createSessions({ db }: Store, now: () => number): Sessions {
  return {
    async create(start) {
      const token = randomToken(24);
      const at = now();
      await db
        .insertInto('sessions')
        .values({
          token_hash: sha256(token),
          language: start.language,
          user_agent: start.user_agent,
          utm_source: start.utm_source ?? null,
          utm_campaign: start.utm_campaign ?? null,
          utm_medium: start.utm_medium ?? null,
          created_at: at,
          last_seen_at: at,
        })
        .execute();
      return token;
    },
    async load(token) {
      const result = await db
        .updateTable('sessions')
        .set({ last_seen_at: now() })
        .where('token_hash', '=', sha256(token))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async attachUser(token, userId) {
      await db
        .updateTable('sessions')
        .set({ user_id: userId })
        .where('token_hash', '=', sha256(token))
        .execute();
    },
  };
}
