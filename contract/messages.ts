/** Fixed texts of the spec (§6, §8) that the client, the machines and the server share. */
export const AUTH_MESSAGES = {
  noJwt: 'No JWT token available for protected route',
  noRefreshToken: 'No refresh token available',
  refreshFailed: 'Token refresh failed',
} as const;

export const SESSION_MESSAGES = {
  connect: 'Unable to connect to the server. Please check your internet connection and try again.',
  sessionFailed: 'Failed to load session',
  expiredVersion: (version: string) =>
    `Expired version. Please reload the app - version ${version} is required`,
} as const;

/** Fixed texts of the spec (§6, §8) that the client and the server both use. */
export const MESSAGES = {
  ...AUTH_MESSAGES,
  ...SESSION_MESSAGES,
} as const;

/** Sign-in texts of §5 and §8 that the sign-in machine shows and the server answers with. */
export const SIGN_IN_RULE_MESSAGES = {
  invalidEmail: 'Please enter valid e-mail address.',
  invalidCode: 'Please enter a valid 6-digit code.',
} as const;
