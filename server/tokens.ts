import { createHmac } from 'node:crypto';
import type { Store } from './store/engine';
import { randomToken, sha256 } from './secrets';

export const REFRESH_TTL_SECONDS = 30 * 24 * 3600;
/**
 * A token used again within this long after its rotation gets the same successor again (two tabs
 * refreshing at once, or a retry whose first answer was lost): rotation is idempotent, so a
 * replayed token never adds a token to its family. Later reuse is theft and revokes the family.
 */
export const REFRESH_GRACE_MS = 30_000;

type Rotation =
  | { ok: true; userId: number; familyId: string; refreshToken: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' }
  /** A retired token presented after the grace: its family (`familyId`) is now revoked. */
  | { ok: false; reason: 'reused'; familyId: string };

export type RefreshTokens = {
  /** The first token of a new family (a sign-in). */
  issue(userId: number): Promise<{ refreshToken: string; familyId: string }>;
  rotate(token: string): Promise<Rotation>;
  /**
   * Revokes the family of `token` (logout) and answers its id, or null for an unknown token
   * (which changes nothing).
   */
  revoke(token: string): Promise<string | null>;
  /** A sign-in session is live while its family has a token that is not revoked. */
  isLive(familyId: string): Promise<boolean>;
};

/**
 * Rotating refresh tokens with reuse detection: each refresh retires the token it used and
 * issues the next one in the same family; presenting a retired token again within the grace
 * (REFRESH_GRACE_MS) answers that same successor, after it revokes the family. The successor is
 * a keyed hash of the token it replaces (`key` is the server's secret), so it is never stored
 * in the clear and cannot be worked out from a stolen token.
 *
 * Two refreshes of one token at once are decided by the database: the token's row is locked
 * and retired by one conditional update, so exactly one of them stores the successor and the
 * other answers the same successor through the grace.
 */
export function createRefreshTokens(
  store: Store,
  key: Buffer,
  now: () => number,
  ttlSeconds: number,
): RefreshTokens {
  const { db } = store;
  const successorOf = (token: string): string =>
    createHmac('sha256', key).update(`refresh:${token}`).digest('base64url');
  const revokeFamily = async (familyId: string, at: number) => {
    await db
      .updateTable('refresh_tokens')
      .set({ revoked_at: at })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  };
  const find = (token: string) =>
    db
      .selectFrom('refresh_tokens')
      .select(['id', 'family_id', 'user_id', 'expires_at', 'rotated_at', 'revoked_at'])
      .where('token_hash', '=', sha256(token))
      .executeTakeFirst();

  return {
    async issue(userId) {
      const familyId = randomToken(12);
      const refreshToken = randomToken(32);
      const at = now();
      await db
        .insertInto('refresh_tokens')
        .values({
          token_hash: sha256(refreshToken),
          family_id: familyId,
          user_id: userId,
          created_at: at,
          expires_at: at + ttlSeconds * 1000,
        })
        .execute();
      return { refreshToken, familyId };
    },

    rotate: (token) =>
      db.transaction().execute(async (trx): Promise<Rotation> => {
        const found = await trx
          .selectFrom('refresh_tokens')
          .select('id')
          .where('token_hash', '=', sha256(token))
          .executeTakeFirst();
        if (!found) return { ok: false, reason: 'unknown' };
        await store.lockRow(trx, 'refresh_tokens', found.id);
        const row = await trx
          .selectFrom('refresh_tokens')
          .select(['id', 'family_id', 'user_id', 'expires_at', 'rotated_at', 'revoked_at'])
          .where('id', '=', found.id)
          .executeTakeFirstOrThrow();
        const at = now();
        if (row.revoked_at !== null) return { ok: false, reason: 'revoked' };
        if (at >= row.expires_at) return { ok: false, reason: 'expired' };
        const rotated = { ok: true as const, userId: row.user_id, familyId: row.family_id };
        const successor = successorOf(token);
        if (row.rotated_at !== null) {
          if (at - row.rotated_at <= REFRESH_GRACE_MS)
            return { ...rotated, refreshToken: successor };
          await trx
            .updateTable('refresh_tokens')
            .set({ revoked_at: at })
            .where('family_id', '=', row.family_id)
            .where('revoked_at', 'is', null)
            .execute();
          return { ok: false, reason: 'reused', familyId: row.family_id };
        }
        await trx
          .updateTable('refresh_tokens')
          .set({ rotated_at: at })
          .where('id', '=', row.id)
          .where('rotated_at', 'is', null)
          .execute();
        await trx
          .insertInto('refresh_tokens')
          .values({
            token_hash: sha256(successor),
            family_id: row.family_id,
            user_id: row.user_id,
            created_at: at,
            expires_at: at + ttlSeconds * 1000,
          })
          .execute();
        return { ...rotated, refreshToken: successor };
      }),

    async revoke(token) {
      const row = await find(token);
      if (!row) return null;
      await revokeFamily(row.family_id, now());
      return row.family_id;
    },

    async isLive(familyId) {
      const row = await db
        .selectFrom('refresh_tokens')
        .select('id')
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
