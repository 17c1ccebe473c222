/**
 * Fixed texts of the spec (§8) that the session bootstrap sets as the application error.
 * src/api/contract.ts re-uses them, so the client, the server and the machines share one source.
 */
export const REQUIRED_VERSION = '0.2.0';

export const SESSION_MESSAGES = {
  connect: 'Unable to connect to the server. Please check your internet connection and try again.',
  sessionFailed: 'Failed to load session',
  expiredVersion: (version: string) =>
    `Expired version. Please reload the app - version ${version} is required`,
} as const;
