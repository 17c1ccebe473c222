/**
 * Which API paths carry the bearer jwt and which never renew it (§7): read by the client on
 * every call and by the contract's call table (contract/api.ts).
 */

/** §7: paths under user/, pro/ and coin/ (any call under coin/) carry the bearer jwt. */
export function isProtectedPath(path: string): boolean {
  const p = path.replace(/^\/+/, '');
  if (p.startsWith('user/') || p.startsWith('pro/')) return true;
  return /^coin\/[^/]/.test(p);
}

/** auth/* and sess/* never trigger a token refresh on 401. */
export function isRefreshExempt(path: string): boolean {
  const p = path.replace(/^\/+/, '');
  return p.startsWith('auth/') || p.startsWith('sess/');
}
