/**
 * Browser storage as the machines see it at boot (§3 keys: jwt, refreshToken, sessionToken,
 * theme, codeInvite). src/main.tsx reads storage once and passes this snapshot down; writes go
 * through actions each machine names and src/ provides.
 */
export type StoredValues = {
  jwt: string | null;
  refreshToken: string | null;
  sessionToken: string | null;
  theme: string | null;
  codeInvite: string | null;
};

/** The input every long-lived service receives from the app machine. */
export type ServiceInput = { stored: StoredValues };

export const EMPTY_STORED: StoredValues = {
  jwt: null,
  refreshToken: null,
  sessionToken: null,
  theme: null,
  codeInvite: null,
};
