import { errors, jwtVerify, SignJWT } from 'jose';

/** The longest a jwt may live (reliability guide: short-lived jwt, at most 15 minutes). */
export const MAX_JWT_TTL_SECONDS = 900;

export type JwtCheck =
  /** `expiresAt`: the jwt's `exp` in ms (a socket opened with it is closed then). */
  | { ok: true; userId: number; sessionId: string; expiresAt: number }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' | 'revoked' };

/**
 * HS256 jwt (jose) for a user id and sign-in session; `nowMs` comes from the server clock so
 * tests can move time.
 */
export function signJwt(
  secret: Uint8Array,
  userId: number,
  sessionId: string,
  ttlSeconds: number,
  nowMs: number,
): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({ typ: 'access', sid: sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(userId))
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(secret);
}

/** Checks the signature (HS256 only), then expiry and the claims. Never throws. */
export async function verifyJwt(
  secret: Uint8Array,
  token: string,
  nowMs: number,
): Promise<JwtCheck> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      currentDate: new Date(nowMs),
      requiredClaims: ['sub', 'exp'],
    });
    if (
      typeof payload.sub !== 'string' ||
      !/^\d+$/.test(payload.sub) ||
      payload.typ !== 'access' ||
      typeof payload.sid !== 'string' ||
      payload.sid === ''
    )
      return { ok: false, reason: 'malformed' };
    return {
      ok: true,
      userId: Number(payload.sub),
      sessionId: payload.sid,
      expiresAt: Number(payload.exp) * 1000,
    };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
    if (error instanceof errors.JWSSignatureVerificationFailed)
      return { ok: false, reason: 'signature' };
    return { ok: false, reason: 'malformed' };
  }
}
