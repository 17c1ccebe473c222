import { createHmac, timingSafeEqual } from 'node:crypto';

/** The longest a jwt may live (reliability guide: short-lived jwt, at most 15 minutes). */
export const MAX_JWT_TTL_SECONDS = 900;

export type JwtClaims = { sub: string; iat: number; exp: number; typ: 'access' };

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

const mac = (secret: Buffer, input: string): Buffer =>
  createHmac('sha256', secret).update(input).digest();

/** HS256 jwt for a user id; `nowMs` comes from the server clock so tests can move time. */
export function signJwt(secret: Buffer, userId: number, ttlSeconds: number, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const claims: JwtClaims = { sub: String(userId), iat, exp: iat + ttlSeconds, typ: 'access' };
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

export type JwtCheck =
  { ok: true; userId: number } | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

/** Checks the signature first, then the header, then expiry. Never throws. */
export function verifyJwt(secret: Buffer, token: string, nowMs: number): JwtCheck {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part)))
    return { ok: false, reason: 'malformed' };
  const [header, payload, signature] = parts as [string, string, string];
  const expected = mac(secret, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'signature' };
  if (header !== HEADER) return { ok: false, reason: 'malformed' };
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof claims !== 'object' || claims === null) return { ok: false, reason: 'malformed' };
  const { sub, exp, typ } = claims as Record<string, unknown>;
  if (typeof sub !== 'string' || !/^\d+$/.test(sub) || typeof exp !== 'number' || typ !== 'access')
    return { ok: false, reason: 'malformed' };
  if (nowMs >= exp * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, userId: Number(sub) };
}
