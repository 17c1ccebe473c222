import { createHmac } from 'node:crypto';
import type { Db } from './db';
import { randomToken, sha256 } from './secrets';

export const REFRESH_TTL_SECONDS = 30 * 24 * 3600;
/**
 * A token used again within this long after its rotation gets the same successor again (two tabs
 * refreshing at once, or a retry whose first answer was lost): rotation is idempotent, so a
 * replayed token never adds a token to its family. Later reuse is theft and revokes the family.
 */
export const REFRESH_GRACE_MS = 30_000;

type RefreshRow = {
  id: number;
  family_id: string;
  user_id: number;
  expires_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
};

export type Rotation =
  | { ok: true; userId: number; familyId: string; refreshToken: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' }
  /** A retired token presented after the grace: its family (`familyId`) is now revoked. */
  | { ok: false; reason: 'reused'; familyId: string };

/**
 * Rotating refresh tokens with reuse detection: each refresh retires the token it used and
 * issues the next one in the same family; presenting a retired token again within the grace
 * (REFRESH_GRACE_MS) answers that same successor, after it revokes the family. The successor is
 * a keyed hash of the token it replaces (`key` is the server's secret), so it is never stored
 * in the clear and cannot be worked out from a stolen token.
 */
export function createRefreshTokens(db: Db, key: Buffer, now: () => number, ttlSeconds: number) {
  const insert = db.prepare(
    `INSERT INTO refresh_tokens (token_hash, family_id, user_id, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const find = db.prepare<[string], RefreshRow>(
    'SELECT id, family_id, user_id, expires_at, rotated_at, revoked_at FROM refresh_tokens WHERE token_hash = ?',
  );
  const markRotated = db.prepare('UPDATE refresh_tokens SET rotated_at = ? WHERE id = ?');
  const live = db.prepare<[string], { one: number }>(
    'SELECT 1 AS one FROM refresh_tokens WHERE family_id = ? AND revoked_at IS NULL LIMIT 1',
  );
  const revokeFamily = db.prepare(
    'UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL',
  );

  const store = (token: string, userId: number, familyId: string): string => {
    const at = now();
    insert.run(sha256(token), familyId, userId, at, at + ttlSeconds * 1000);
    return token;
  };
  const successorOf = (token: string): string =>
    createHmac('sha256', key).update(`refresh:${token}`).digest('base64url');

  /** The first token of a new family (a sign-in). */
  const issue = (userId: number): { refreshToken: string; familyId: string } => {
    const familyId = randomToken(12);
    return { refreshToken: store(randomToken(32), userId, familyId), familyId };
  };

  const rotate = db.transaction((token: string): Rotation => {
    const row = find.get(sha256(token));
    if (!row) return { ok: false, reason: 'unknown' };
    const at = now();
    if (row.revoked_at !== null) return { ok: false, reason: 'revoked' };
    if (at >= row.expires_at) return { ok: false, reason: 'expired' };
    const rotated = { ok: true as const, userId: row.user_id, familyId: row.family_id };
    if (row.rotated_at !== null) {
      if (at - row.rotated_at <= REFRESH_GRACE_MS)
        return { ...rotated, refreshToken: successorOf(token) };
      revokeFamily.run(at, row.family_id);
      return { ok: false, reason: 'reused', familyId: row.family_id };
    }
    markRotated.run(at, row.id);
    return { ...rotated, refreshToken: store(successorOf(token), row.user_id, row.family_id) };
  });

  /**
   * Revokes the family of `token` (logout) and answers its id, or null for an unknown token
   * (which changes nothing).
   */
  const revoke = (token: string): string | null => {
    const row = find.get(sha256(token));
    if (!row) return null;
    revokeFamily.run(now(), row.family_id);
    return row.family_id;
  };

  /** A sign-in session is live while its family has a token that is not revoked. */
  const isLive = (familyId: string): boolean => live.get(familyId) !== undefined;

  return { issue, rotate: (token: string): Rotation => rotate(token), revoke, isLive };
}
export type RefreshTokens = ReturnType<typeof createRefreshTokens>;
