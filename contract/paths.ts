/**
 * Which API paths carry the bearer jwt and which never renew it (§7): read by the client on
 * every call and by the contract's call table (contract/api.ts).
 */
const PROTECTED_COIN = [
  'trending',
  'signals',
  'getpack',
  'trades',
  'ohlc',
  'cohort',
  'star',
  'buy',
  'sell',
  'orders',
  'my',
  'draft',
  'position',
  'preorder',
  'presell',
  'preorders',
  'listauth',
  'wait',
  'info',
  'content',
  'chart',
];

/** §7: paths under user/, pro/ and coin/ (and its listed sub-paths) carry the bearer jwt. */
export function isProtectedPath(path: string): boolean {
  const p = path.replace(/^\/+/, '');
  if (p.startsWith('user/') || p.startsWith('pro/')) return true;
  if (p.startsWith('coin/')) {
    const sub = p.slice('coin/'.length).split('/')[0] ?? '';
    return PROTECTED_COIN.includes(sub) || sub.length > 0;
  }
  return false;
}

/** auth/* and sess/* never trigger a token refresh on 401. */
export function isRefreshExempt(path: string): boolean {
  const p = path.replace(/^\/+/, '');
  return p.startsWith('auth/') || p.startsWith('sess/');
}
