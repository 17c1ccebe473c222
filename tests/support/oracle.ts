/**
 * The spec oracle: every timer, limit and message the tests check, written from
 * `product-spec.md` (§4 States and transitions, §5 Validation, §8 Errors, §9 Constants).
 *
 * This file must not import the machines, the api client or the shared contract: a test whose
 * expected value comes from the code under test cannot catch that code breaking the spec.
 * tests/model/oracle.test.ts enforces it.
 */

const SECOND = 1000;

/** Timed rules (milliseconds), each with the spec line it comes from. */
export const SPEC_TIMERS = {
  /** §4 Sign-in steps, §5, §9: "start a 30 s resend timer"; "Resend is blocked while the 30 s timer runs". */
  resendCooldown: 30 * SECOND,
  /** §9 "notification 3.5 s"; §4 "shown one at a time for 3.5 s each". */
  notification: 3.5 * SECOND,
  /** §4, §9 "The information banner clears after 5 s". */
  informationBanner: 5 * SECOND,
  /** §2, §9 "shows Copied! for 2 s". */
  copyFeedback: 2 * SECOND,
  /** §2, §9 "auto-hides after 5 s" (Transaction cancelled notice). */
  cancelNotice: 5 * SECOND,
  /** §2, §9 "cycles through five taglines every 3 s". */
  taglineRotation: 3 * SECOND,
  /** §4, §9 "refresh the balance 3 s later". */
  balanceRefresh: 3 * SECOND,
  /** §4, §9 "A ping is sent every 30 s". */
  ping: 30 * SECOND,
  /** §4, §9 "Health is reported unhealthy after 60 s without pong". */
  unhealthy: 60 * SECOND,
  /** §4, §9 "If no pong for over 120 s it closes and reconnects". */
  stale: 120 * SECOND,
  /** §4, §9 "delay 1 s doubled per attempt and capped at 30 s". */
  backoffBase: 1 * SECOND,
  backoffCap: 30 * SECOND,
} as const;

/**
 * The live-site rule (the spec names no number; the product's reading): a change the server makes
 * to a signed-in player's data is on their open page within 10 s, with or without the socket.
 */
export const LIVE_UPDATE_WITHIN_MS = 10 * SECOND;

/** §4, §9 "up to 5 attempts". */
export const RECONNECT_ATTEMPTS = 5;

/** §4: the delay before reconnect attempt `attempt` (1-based): 1 s × 2^(attempt−1), at most 30 s. */
export function specBackoff(attempt: number): number {
  return Math.min(SPEC_TIMERS.backoffBase * 2 ** (attempt - 1), SPEC_TIMERS.backoffCap);
}

/** Limits (§5, §9). */
export const SPEC_LIMITS = {
  codeLength: 6,
  inviteCodeMax: 30,
  fallbackInviteCodeLength: 8,
  notificationQueueCap: 99,
  requiredVersion: '0.2.0',
  friendsForAccess: 2,
  lamportsPerSol: 1_000_000_000,
  /** §9 ticket prices in SOL: before Nov 20, Nov 20 – Dec 20, after Dec 20; page default 0.22. */
  ticketPricesSol: [0.22, 0.33, 0.55] as const,
  defaultTicketSol: 0.22,
  oldTicketSol: 0.55,
  /** §1 and §4: launch / training start. */
  launchAt: Date.UTC(2025, 11, 20, 0, 0, 0),
  /** §9: Early Bird until Nov 20 (the second price tier from then). */
  earlyBirdEnd: Date.UTC(2025, 10, 20, 0, 0, 0),
} as const;

/**
 * The same two instants as the ISO 8601 texts the server sends in public_data (`launch_at`,
 * `early_bird_end`), each with its zone: §1 writes the launch this way; the Early Bird's end is
 * the first instant of Nov 20 (UTC).
 */
export const SPEC_INSTANTS = {
  launchAt: '2025-12-20T00:00:00Z',
  earlyBirdEnd: '2025-11-20T00:00:00Z',
} as const;

/** §2 Home and §9: the texts that name a date, as the spec words them (before the date). */
export const SPEC_DATED_TEXTS = {
  startsHeader: 'Starts December 20',
  earlyBirdBadge: 'Until Nov 20',
  trainingStarts: 'Training starts December 20',
  /** §2: once the countdown reaches the start. */
  trainingOpen: 'Boarding now · Training Open',
} as const;

/**
 * The same texts from their date on: the spec words them only before (docs/spec-readings.md: the
 * header and receipt, the Early Bird card and bonus box, the tier names).
 */
export const README_DATED_TEXTS = {
  /** The hero header from the launch on. */
  headerFromLaunch: 'Training is open: get your ticket and join now',
  /** The receipt's training line from the launch on. */
  receiptFromLaunch: (day: string) => `Training has been open since ${day}: your gang can play now`,
  /** The ticket card once the Early Bird has ended (badged with the tier's price). */
  ticketCard: 'Entry Ticket',
  /** The bonus box once the Early Bird has ended (no extras promised). */
  bonusAfterEarlyBird: 'Your ticket',
  tierEarlyBird: 'Early Bird price',
  tierBeforeLaunch: 'Pre-launch price',
  tierFromLaunch: 'Launch price',
} as const;

/**
 * §2 flip cards (Days, Hours, Minutes, Seconds) for the time left, counted in whole seconds
 * rounded up so the cards never read all zeros before the start.
 */
export function specCountdownCards(msLeft: number) {
  let seconds = msLeft <= 0 ? 0 : Math.ceil(msLeft / 1000);
  const days = Math.floor(seconds / 86_400);
  seconds -= days * 86_400;
  const hours = Math.floor(seconds / 3_600);
  seconds -= hours * 3_600;
  const minutes = Math.floor(seconds / 60);
  return { days, hours, minutes, seconds: seconds - minutes * 60 };
}

/** §9: SOL → lamports at 1e9 per SOL, written out so a rounding error cannot hide. */
export const SPEC_LAMPORTS = {
  0.22: 220_000_000,
  0.33: 330_000_000,
  0.55: 550_000_000,
} as const;

/** The fixed texts of §2, §5 and §8, character for character. */
export const SPEC_MESSAGES = {
  invalidEmail: 'Please enter valid e-mail address.',
  invalidCode: 'Please enter a valid 6-digit code.',
  verifyFailed: 'Failed to verify code. Please try again.',
  sendFailed: (error: string) => `Failed to send code: ${error}`,
  expiredVersion: (version: string) =>
    `Expired version. Please reload the app - version ${version} is required`,
  connect: 'Unable to connect to the server. Please check your internet connection and try again.',
  sessionFailed: 'Failed to load session',
  noJwt: 'No JWT token available for protected route',
  noRefreshToken: 'No refresh token available',
  refreshFailed: 'Token refresh failed',
  cancelled: "Transaction cancelled. Click the button again when you're ready.",
  phantomMissing: 'Phantom wallet not detected',
  solflareMissing: 'Solflare wallet not detected',
  networkFailed: 'Network connection failed',
  insufficientFunds: 'Insufficient funds',
  paymentFailed: 'Failed to process payment',
  paymentFailedSolution: 'Please try again or contact support if the issue persists',
  blockhashFailed: 'Failed to get blockhash from server',
  publicKeyFailed: 'Failed to get wallet public key',
  walletAddressMissing: 'Payment wallet address not found',
  walletIdMissing: 'Wallet ID not found',
  refreshBalanceFailed: 'Failed to refresh balance',
  websocketError: 'WebSocket error occurred',
  defaultRealtimeNotification: 'New notification',
  unexpected: 'An unexpected error occurred',
  notFound: '404: Resource not found',
  copied: 'Copied!',
  resendIn: (seconds: number) => `Resend in ${seconds}s`,
  resendReady: 'Resend Code',
  trainingOpen: 'Boarding now · Training Open',
} as const;

/**
 * The error modal's solutions (§8 "message and solution"). The spec words only the default one
 * (SPEC_MESSAGES.paymentFailedSolution) and says what the wallet one does (install the extension);
 * the others are the site's own wording, pinned here so that a change to what players read is
 * a deliberate one, made in both places.
 */
export const SITE_SOLUTIONS = {
  phantomMissing: 'Install the Phantom extension from phantom.com, then reload this page.',
  solflareMissing: 'Install the Solflare extension from solflare.com, then reload this page.',
  localWalletMissing: 'Start the site with npm start (local chain), then reload this page.',
  network: 'Check your internet connection and try again.',
  insufficientFunds:
    'Your wallet does not hold enough SOL for the ticket and the network fee. Top it up and try again.',
  publicKey: 'Unlock your wallet, connect it to this site and try again.',
  addressNotFound: 'Reload the page; if the address is still missing, contact support.',
  walletIdNotFound: 'Reload the page; if the problem persists, contact support.',
  refresh: 'Check your connection and reload the page.',
} as const;

/**
 * §2 "A subheader cycles through five taglines every 3 s": the spec counts them, the words are
 * the site's, pinned here in their order so a change to what visitors read is made in both places.
 */
export const SITE_TAGLINES = [
  'Recruit Gangsters. Arm them. Take the city.',
  'Own Properties that pay $GNG every hour.',
  'Raid rival Gangs and loot their uncollected $GNG.',
  'Every $GNG spent in game flows back to the Fund.',
  'Bring your crew: earn 5% of what your friends spend.',
] as const;

/** The site's own messages beside §8's (the development wallet is no part of the spec). */
export const SITE_MESSAGES = {
  localWalletMissing: 'Local test wallet not available',
  /** The banner of a tab whose session another tab ended (§4 Logout, read across tabs). */
  signedOutElsewhere: 'You signed out in another tab.',
} as const;

/** §5 e-mail rule: non-space text, an @, text, a dot, text. Inputs at the pattern's edges. */
export const EMAIL_EDGES = {
  valid: ['a@b.c', ' player@example.com ', 'x.y@sub.domain.io', 'a+b@c.de'],
  invalid: ['', 'a@b', 'ab.c', '@b.c', 'a@.c', 'a@b.', 'a b@c.d', 'a@b c.d'],
} as const;

/** §5 code rule: exactly 6 digits. */
export const CODE_EDGES = {
  valid: '123456',
  short: '12345',
  long: '1234567',
} as const;

/** §4 session rule: the returned version must be exactly 0.2.0. */
export const VERSION_EDGES = {
  accepted: ['0.2.0'],
  refused: ['0.1.9', '0.2.1', '0.3.0', '0.2', '0.20.0'],
} as const;

/** §5 invite code: letters and digits kept, cut to 30. */
export const INVITE_CODE_EDGES = {
  thirty: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ1234',
  thirtyOne: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ12345',
} as const;

/**
 * The spec's duration of a chart's named delay, by the delay's name in `setup({ delays })`.
 * Path executors advance time by these numbers (never by the machine's own).
 */
export const SPEC_DELAY_BY_NAME: Record<string, number> = {
  resendCooldown: SPEC_TIMERS.resendCooldown,
  resendTick: SECOND,
  notificationDuration: SPEC_TIMERS.notification,
  informationDuration: SPEC_TIMERS.informationBanner,
  copyFeedback: SPEC_TIMERS.copyFeedback,
  cancelNotice: SPEC_TIMERS.cancelNotice,
  taglineRotation: SPEC_TIMERS.taglineRotation,
  balanceRefresh: SPEC_TIMERS.balanceRefresh,
  pingInterval: SPEC_TIMERS.ping,
};

/** The spec duration of `xstate.after.<delay>.<stateId>`; throws for delays the spec does not time. */
export function specDelay(afterEventType: string): number {
  const name = /^xstate\.after\.([^.]+)\./.exec(afterEventType)?.[1];
  const ms = name === undefined ? undefined : SPEC_DELAY_BY_NAME[name];
  if (ms === undefined) throw new Error(`the spec oracle has no duration for ${afterEventType}`);
  return ms;
}

/** §5: non-space text, an @, text, a dot, text (surrounding spaces are not part of an address). */
export function isSpecEmail(email: string): boolean {
  return /^\S+@\S+\.\S+$/.test(email.trim());
}

/** §5: exactly 6 digits. */
export function isSpecCode(code: string): boolean {
  return /^[0-9]{6}$/.test(code);
}

/** §4 Theme cycle: "light, dark, auto, then light again; stored and applied; default auto". */
export const SPEC_THEME = {
  cycle: ['light', 'dark', 'auto'] as const,
  default: 'auto' as const,
  next: { light: 'dark', dark: 'auto', auto: 'light' } as const,
  /** §3 browser storage keys: the theme is kept under `theme`. */
  storageKey: 'theme',
};
