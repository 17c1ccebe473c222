/**
 * When a jwt expires (its `exp`, in ms), or null for a jwt that cannot be read or has none.
 */
export function jwtExpiresAt(jwt: string): number | null {
  try {
    const payload = jwt.split('.')[1] ?? '';
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as {
      exp?: unknown;
    };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : null;
  } catch {
    return null;
  }
}

/**
 * Whether a jwt's `exp` has passed: its user/data would only be refused, so the app's refresh
 * goes first. A jwt that cannot be read counts as current (the server decides).
 */
export function hasExpired(jwt: string, nowMs: number): boolean {
  const expiresAt = jwtExpiresAt(jwt);
  return expiresAt !== null && expiresAt <= nowMs;
}
