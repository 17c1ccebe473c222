/**
 * Whether a jwt's `exp` has passed: its user/data would only be refused, so the app's refresh
 * goes first. A jwt that cannot be read counts as current (the server decides).
 */
export function hasExpired(jwt: string, nowMs: number): boolean {
  try {
    const payload = jwt.split('.')[1] ?? '';
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as {
      exp?: unknown;
    };
    return typeof claims.exp === 'number' && claims.exp * 1000 <= nowMs;
  } catch {
    return false;
  }
}
