/** The systemIds of the long-lived services the app machine spawns: one constant map. */
export const SYSTEM_IDS = {
  app: 'app',
  session: 'session',
  auth: 'auth',
  signIn: 'signIn',
  payment: 'payment',
  notifications: 'notifications',
  errorModal: 'errorModal',
  theme: 'theme',
  realtime: 'realtime',
  launch: 'launch',
  home: 'home',
  userData: 'userData',
} as const;

export type SystemId = (typeof SYSTEM_IDS)[keyof typeof SYSTEM_IDS];
