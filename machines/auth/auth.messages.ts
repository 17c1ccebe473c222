/** Fixed token texts of the spec (§6, §8); src/api/contract.ts re-uses them. */
export const AUTH_MESSAGES = {
  noJwt: 'No JWT token available for protected route',
  noRefreshToken: 'No refresh token available',
  refreshFailed: 'Token refresh failed',
} as const;
