/**
 * The registry of spec clauses: every rule of product-spec.md the tests check (or, with a reason,
 * do not), written from the spec and not from the charts. A clause id reads `§<section>.<area>.<rule>`;
 * its title is the spec's own words, shortened. Oracle entries (`ORACLE_CLAUSES`), spec transitions
 * (`tests/support/specTransitions.ts`), the path drivers' state checks (`Driver.clauses`) and tagged
 * assertions (`specExpect`) name these ids, so a failure names the rule it broke and
 * `npm run test:paths` prints coverage by clause (tests/model/clauses.test.ts fails when a clause
 * marked testable has no check).
 *
 * Like the oracle, this file imports nothing: the rules come from the spec alone.
 */

export type Clause = {
  id: string;
  /** The spec section, e.g. '§4'. */
  section: string;
  /** The rule in the spec's words, short. */
  title: string;
} & ({ testable: true } | { testable: false; reason: string });

/** '§4' for '§4.signin.toCode'; 'reading' for the product's own readings. */
const sectionOf = (id: string): string => id.split('.')[0] ?? id;

const c = (id: string, title: string): Clause => ({
  id,
  section: sectionOf(id),
  title,
  testable: true,
});
const not = (id: string, title: string, reason: string): Clause => ({
  id,
  section: sectionOf(id),
  title,
  testable: false,
  reason,
});

export const CLAUSES = [
  // §1 What the product does
  c('§1.launch.date', "training opens 2025-12-20T00:00:00Z, shown as 'December 20'"),
  c('§1.invite.entry', 'entry can be earned by inviting 2 friends who each buy a ticket'),
  not(
    '§1.docs.gamefacts',
    'game facts stated in the docs pages (token, fights, income)',
    'docs prose, not behaviour: checked as page text by the docs pages, no rule to model',
  ),

  // §2 Screens and routes
  c(
    '§2.routes.ref',
    '/r/{code} and /ref/{code} store the invite code (only when non-empty), then Home',
  ),
  c(
    '§2.bonus.invitation',
    "invitation via ref is required to enter after Nov 20 (a friend's invite code names one)",
  ),
  c('§2.routes.docs', '/docs redirects to /docs/intro; unknown doc ids fall back to intro'),
  not('§2.routes.table', 'the router table beyond the routes above', 'the spec says: not shown'),
  c(
    '§2.shell.loader',
    'an app loader is shown until the session has loaded, or when an application error is set',
  ),
  c('§2.shell.signinOverlay', 'the sign-in modal is an overlay only when not authenticated'),
  c(
    '§2.loading.connectionError',
    "a set application error shows Connection Error with its text (default 'Unable to connect…') and Reload Page",
  ),
  c('§2.errorModal.show', 'Error Detected modal: message, optional solution, component and file'),
  c('§2.errorModal.close', 'a Close button and a click on the backdrop both close it'),
  c('§2.errorModal.copy', "Copy Error Details copies a summary and shows 'Copied!' for 2 s"),
  c(
    '§2.banner.types',
    'information banner: success, error, warning, info, load (spinner); a click hides it',
  ),
  c(
    '§2.toast.queue',
    'toast: a count badge when more are queued; clear icon clears the queue; a click hides it',
  ),
  c('§2.signin.steps', 'sign-in modal: step 1 e-mail, step 2 Verify E-mail, step 3 Telegram'),
  c('§2.signin.busy', "busy labels: 'Sending...' on Continue, 'Verifying...' on Verify"),
  c('§2.signin.resendLabel', "the resend button shows 'Resend in Ns' or 'Resend Code'"),
  c(
    '§2.signin.inviteShown',
    'the active invite code (upper-cased) shows when set and the step is not 2',
  ),
  not(
    '§2.signin.wallet',
    'wallet sign-in',
    'the spec says: wallet sign-in flags exist, but wallet sign-in itself is not shown',
  ),
  c('§2.video.modal', 'video modal plays a source; closes on overlay click or the close button'),
  c('§2.home.countdown', 'flip-card countdown (Days, Hours, Minutes, Seconds) to the start'),
  c('§2.home.trainingOpen', "once reached it shows 'Boarding now · Training Open'"),
  c('§2.home.taglines', 'a subheader cycles through five taglines every 3 s'),
  c('§2.home.getAccess', "'Get Access' opens the sign-in modal"),
  c(
    '§2.home.optionCards',
    "two selectable option cards: 'Early Bird Entry' and 'Invite 2 friends'",
  ),
  c('§2.home.tabs', "logged in: two tabs, 'Get Ticket' and 'Invite'"),
  c('§2.copy.feedback', "a copy button copies and shows 'Copied!' for 2 s"),
  c(
    '§2.ticket.connecting',
    "'Send in Solflare' / 'Send in Phantom' show 'Connecting...'; all disabled while connecting",
  ),
  c('§2.ticket.cancelNotice', "'Transaction cancelled…' is dismissible and auto-hides after 5 s"),
  c('§2.ticket.refresh', 'the refresh button refreshes the balance (loading state)'),
  c(
    '§2.ticket.startInviting',
    "with access, a 'Start Inviting Friends' button switches to the Invite tab",
  ),
  c(
    '§2.invite.link',
    'invite link (origin + /r/ + code) with copy and share; counters follow the server',
  ),
  c(
    '§2.grantedModal.close',
    "'Ticket Purchased!' closes via an X, the button, or a click on the overlay",
  ),

  // §3 Entities
  c('§3.storage.keys', 'browser storage keys: jwt, refreshToken, sessionToken, theme, codeInvite'),
  not('§3.server.entities', 'server-side entities and game data', 'the spec says: not shown'),

  // §4 States and transitions
  c(
    '§4.app.load',
    'not loaded to loaded when session init ends, also on failure (application error with code Init)',
  ),
  c(
    '§4.session.version',
    'a returned version other than 0.2.0 fails with the expired-version message',
  ),
  c(
    '§4.session.load',
    'a stored session token is loaded; on failure it is removed and a new session created',
  ),
  c('§4.session.create', 'without a token a new session is created (cookie-consent flag set)'),
  c('§4.session.userData', 'when a jwt exists the user data is then fetched'),
  c(
    '§4.auth.signIn',
    'signed out to signed in when the e-mail code is verified (jwt, refresh token, user data stored)',
  ),
  c('§4.auth.logout', 'logout clears user, jwt, refresh token and access flag'),
  c('§4.auth.flag', 'auth is true when jwt and user data both exist'),
  c('§4.access.flag', 'access flag: true when user_access equals 1 (overrides user_lvl > 1)'),
  c('§4.signin.toCode', 'after a successful init go to step 2'),
  c('§4.signin.resendTimer', 'a sent code starts a 30 s resend timer'),
  c('§4.signin.changeEmail', 'Change E-mail returns to step 1 and clears the code'),
  not('§4.signin.telegramInit', 'Telegram step initialisation', 'the spec says: not shown'),
  c(
    '§4.token.refresh',
    'on 401 for a protected call refresh once; concurrent calls wait and retry',
  ),
  c('§4.token.refreshFails', 'if refresh fails, log out'),
  c('§4.theme.cycle', 'theme cycle: light, dark, auto, then light again; stored; default auto'),
  c('§4.notify.duration', 'notifications shown one at a time for 3.5 s each'),
  c('§4.notify.cap', 'at most 99 queued (older ones dropped)'),
  c('§4.banner.duration', 'the information banner clears after 5 s'),
  c('§4.realtime.states', 'realtime connection: disconnected, connecting, connected or error'),
  c('§4.realtime.reconnect', 'an abnormal close reconnects, up to 5 attempts, then error'),
  c('§4.realtime.backoff', 'reconnect delay 1 s doubled per attempt, capped at 30 s'),
  c('§4.realtime.rejoin', 'joined rooms are rejoined after reconnect'),
  c('§4.realtime.ping', 'a ping is sent every 30 s'),
  c('§4.realtime.stale', 'no pong for over 120 s: it closes and reconnects'),
  c('§4.realtime.unhealthy', 'health is reported unhealthy after 60 s without pong'),
  c(
    '§4.payment.flow',
    'connect wallet, build a transfer of the ticket price to the payment wallet, sign and send',
  ),
  c('§4.payment.refresh', 'refresh the balance 3 s later'),
  c('§4.payment.granted', 'if the refresh reports access_granted, the access-granted modal shows'),
  c(
    '§4.payment.cancelled',
    'transaction cancelled: flag set when the user cancels a wallet send; retry possible',
  ),
  c('§4.launch.countdown', 'countdown until 2025-12-20T00:00:00Z, then the Training Open state'),
  c('§4.errorModal.shown', 'error modal: shown or hidden'),

  // §5 Validation rules
  c(
    '§5.email',
    "e-mail must match the pattern, otherwise 'Please enter valid e-mail address.' and no call",
  ),
  c('§5.code', "code must be exactly 6 digits, otherwise 'Please enter a valid 6-digit code.'"),
  c('§5.code.boxes', 'one digit per box, auto-advance; Verify disabled until all six are filled'),
  c('§5.invite.sanitize', 'invite code: letters and digits only, cut to 30 characters'),
  c('§5.invite.fallback', 'a random 8-character fallback code when none exists'),
  c('§5.resend.blocked', 'resend is blocked while the 30 s timer runs'),
  c('§5.payment.requires', 'payment requires a wallet address and a blockhash from the server'),
  not(
    '§5.terms.age',
    'terms eligibility: age 18 or more',
    'a sentence of the terms page; the product asks no age, so there is no behaviour to check',
  ),

  // §6 Roles and permissions
  c('§6.visitor', 'a visitor (no jwt) may read docs, view the landing page and sign in'),
  c(
    '§6.protected',
    "protected paths need a bearer jwt; without one 'No JWT token available for protected route'",
  ),
  not('§6.admin', 'admin role', 'the spec says: not shown'),

  // §7 Calls
  c('§7.calls.auth', 'auth/email/init and auth/email/verify carry their payloads'),
  c('§7.calls.inviteCodes', 'user/invite/codes lists the invite codes'),
  not('§7.calls.responses', 'the rest of each response shape', 'the spec says: not shown'),

  c(
    '§7.realtime.frames',
    'realtime sends join and leave {room}, message {room, message, data}, ping, each with a timestamp',
  ),
  c(
    '§7.realtime.notifications',
    "a notification with data.type and data.text becomes an information banner ('New notification')",
  ),

  // §8 Error catalogue
  c('§8.sendFailed', "code send failure: 'Failed to send code: {error}'"),
  c(
    '§8.verifyFailed',
    "'Failed to verify code. Please try again.' (or the server message); boxes cleared",
  ),
  c(
    '§8.session.errors',
    "session init: expired version, 'Unable to connect…', or 'Failed to load session'",
  ),
  c('§8.token.errors', "'No refresh token available'; 'Token refresh failed'"),
  c(
    '§8.wallet.errors',
    "wallet errors in the error modal: not detected, network, insufficient funds, 'Failed to process payment'",
  ),
  c('§8.wallet.rejection', 'a user rejection shows only the cancelled notice'),
  c(
    '§8.payment.errors',
    "'Failed to get blockhash…', 'Payment wallet address not found', 'Wallet ID not found'…",
  ),
  c('§8.refreshBalance', "'Failed to refresh balance' (error modal)"),
  c(
    '§8.realtime.error',
    "realtime server error: banner with the message or 'WebSocket error occurred'",
  ),
  c(
    '§8.global.handler',
    "global handler: error modal or warning; 'An unexpected error occurred'; 404",
  ),

  // §9 Business constants and limits
  c('§9.version', 'required API version 0.2.0'),
  c('§9.prices', 'ticket 0.22 / 0.33 / 0.55 SOL by date; page default 0.22, old price 0.55'),
  c('§9.lamports', 'amount converted to lamports at 1e9 per SOL'),
  c('§9.earlyBird', 'Early Bird until Nov 20'),
  c('§9.timers.copy', 'copy feedback 2 s'),
  c('§9.timers.cancel', 'cancel notice 5 s'),
  c('§9.timers.tagline', 'tagline rotation 3 s'),
  c('§9.limits.code', 'code length 6'),
  c('§9.limits.invite', 'invite code max 30 characters (fallback 8)'),
  c(
    '§9.realtime.limits',
    'ping 30 s, 5 attempts, backoff 1 s × 2^n capped at 30 s, stale 120 s, healthy 60 s',
  ),
  not(
    '§9.widths',
    'widths: banner 792 px, toast 396 px',
    'layout, checked by the look screenshots, not by a rule',
  ),
  not('§9.gangsterPrice', 'amount steps for each next Gangster price', 'the spec says: not shown'),

  // The product's own readings where the spec is silent (README, docs/spec-readings.md)
  c(
    'reading.live',
    "a change the server makes to a signed-in player's data is on their page within 10 s",
  ),
] as const satisfies readonly Clause[];

export type ClauseId = (typeof CLAUSES)[number]['id'];

export const CLAUSE_BY_ID: ReadonlyMap<string, Clause> = new Map(
  (CLAUSES as readonly Clause[]).map((clause) => [clause.id, clause]),
);

/** `§4.signin.resendTimer (a sent code starts a 30 s resend timer)`. */
export function clauseLabel(id: string): string {
  const clause = CLAUSE_BY_ID.get(id);
  return clause ? `${clause.id} (${clause.title})` : `${id} (not in the clause registry)`;
}

/**
 * The clause each oracle entry (tests/support/oracle.ts) comes from, by `<export>.<key>`.
 * tests/model/clauses.test.ts checks that every entry is linked and every link names a clause.
 */
export const ORACLE_CLAUSES: Record<string, ClauseId> = {
  'SPEC_TIMERS.resendCooldown': '§4.signin.resendTimer',
  'SPEC_TIMERS.notification': '§4.notify.duration',
  'SPEC_TIMERS.informationBanner': '§4.banner.duration',
  'SPEC_TIMERS.copyFeedback': '§9.timers.copy',
  'SPEC_TIMERS.cancelNotice': '§9.timers.cancel',
  'SPEC_TIMERS.taglineRotation': '§9.timers.tagline',
  'SPEC_TIMERS.balanceRefresh': '§4.payment.refresh',
  'SPEC_TIMERS.ping': '§4.realtime.ping',
  'SPEC_TIMERS.unhealthy': '§4.realtime.unhealthy',
  'SPEC_TIMERS.stale': '§4.realtime.stale',
  'SPEC_TIMERS.backoffBase': '§4.realtime.backoff',
  'SPEC_TIMERS.backoffCap': '§4.realtime.backoff',
  RECONNECT_ATTEMPTS: '§4.realtime.reconnect',
  specBackoff: '§4.realtime.backoff',
  'SPEC_LIMITS.codeLength': '§9.limits.code',
  'SPEC_LIMITS.inviteCodeMax': '§9.limits.invite',
  'SPEC_LIMITS.fallbackInviteCodeLength': '§5.invite.fallback',
  'SPEC_LIMITS.notificationQueueCap': '§4.notify.cap',
  'SPEC_LIMITS.requiredVersion': '§9.version',
  'SPEC_LIMITS.friendsForAccess': '§1.invite.entry',
  'SPEC_LIMITS.lamportsPerSol': '§9.lamports',
  'SPEC_LIMITS.ticketPricesSol': '§9.prices',
  'SPEC_LIMITS.defaultTicketSol': '§9.prices',
  'SPEC_LIMITS.oldTicketSol': '§9.prices',
  'SPEC_LIMITS.launchAt': '§1.launch.date',
  'SPEC_LIMITS.earlyBirdEnd': '§9.earlyBird',
  'SPEC_INSTANTS.launchAt': '§1.launch.date',
  'SPEC_INSTANTS.earlyBirdEnd': '§9.earlyBird',
  SITE_TAGLINES: '§2.home.taglines',
  'SPEC_DATED_TEXTS.startsHeader': '§1.launch.date',
  'SPEC_DATED_TEXTS.earlyBirdBadge': '§9.earlyBird',
  'SPEC_DATED_TEXTS.trainingStarts': '§1.launch.date',
  'SPEC_DATED_TEXTS.trainingOpen': '§2.home.trainingOpen',
  specCountdownCards: '§2.home.countdown',
  SPEC_LAMPORTS: '§9.lamports',
  'SPEC_MESSAGES.invalidEmail': '§5.email',
  'SPEC_MESSAGES.invalidCode': '§5.code',
  'SPEC_MESSAGES.verifyFailed': '§8.verifyFailed',
  'SPEC_MESSAGES.sendFailed': '§8.sendFailed',
  'SPEC_MESSAGES.expiredVersion': '§4.session.version',
  'SPEC_MESSAGES.connect': '§8.session.errors',
  'SPEC_MESSAGES.sessionFailed': '§8.session.errors',
  'SPEC_MESSAGES.noJwt': '§6.protected',
  'SPEC_MESSAGES.noRefreshToken': '§8.token.errors',
  'SPEC_MESSAGES.refreshFailed': '§8.token.errors',
  'SPEC_MESSAGES.cancelled': '§8.wallet.rejection',
  'SPEC_MESSAGES.phantomMissing': '§8.wallet.errors',
  'SPEC_MESSAGES.solflareMissing': '§8.wallet.errors',
  'SPEC_MESSAGES.networkFailed': '§8.wallet.errors',
  'SPEC_MESSAGES.insufficientFunds': '§8.wallet.errors',
  'SPEC_MESSAGES.paymentFailed': '§8.wallet.errors',
  'SPEC_MESSAGES.paymentFailedSolution': '§8.wallet.errors',
  'SPEC_MESSAGES.blockhashFailed': '§8.payment.errors',
  'SPEC_MESSAGES.publicKeyFailed': '§8.payment.errors',
  'SPEC_MESSAGES.walletAddressMissing': '§8.payment.errors',
  'SPEC_MESSAGES.walletIdMissing': '§8.payment.errors',
  'SPEC_MESSAGES.refreshBalanceFailed': '§8.refreshBalance',
  'SPEC_MESSAGES.websocketError': '§8.realtime.error',
  'SPEC_MESSAGES.defaultRealtimeNotification': '§8.realtime.error',
  'SPEC_MESSAGES.unexpected': '§8.global.handler',
  'SPEC_MESSAGES.notFound': '§8.global.handler',
  'SPEC_MESSAGES.copied': '§2.copy.feedback',
  'SPEC_MESSAGES.resendIn': '§2.signin.resendLabel',
  'SPEC_MESSAGES.resendReady': '§2.signin.resendLabel',
  'SPEC_MESSAGES.trainingOpen': '§2.home.trainingOpen',
  EMAIL_EDGES: '§5.email',
  CODE_EDGES: '§5.code',
  VERSION_EDGES: '§4.session.version',
  INVITE_CODE_EDGES: '§5.invite.sanitize',
  isSpecEmail: '§5.email',
  isSpecCode: '§5.code',
  SPEC_THEME: '§4.theme.cycle',
};

/** The clause of a spec timer, by the chart's delay name (the names SPEC_DELAY_BY_NAME knows). */
export const DELAY_CLAUSES: Record<string, ClauseId> = {
  resendCooldown: '§4.signin.resendTimer',
  resendTick: '§2.signin.resendLabel',
  notificationDuration: '§4.notify.duration',
  informationDuration: '§4.banner.duration',
  copyFeedback: '§9.timers.copy',
  cancelNotice: '§9.timers.cancel',
  taglineRotation: '§9.timers.tagline',
  balanceRefresh: '§4.payment.refresh',
  pingInterval: '§4.realtime.ping',
  untilUnhealthy: '§4.realtime.unhealthy',
  untilStale: '§4.realtime.stale',
  reconnectDelay: '§4.realtime.backoff',
};
