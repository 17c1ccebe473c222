import type { SpecTransition } from './paths';

/**
 * The transitions product-spec.md requires of each machine, written from the spec and not from
 * the charts (§2 pages, §4 States and transitions, §8 Errors, §9 Constants). Each model test
 * passes its list as `required`: a generated path must walk every one, so a chart that loses one
 * (a removed transition, a wrong target, a guard that never holds) fails its model test.
 * State values are the charts' names for the spec's states; only those names come from the code.
 */
const t = (from: string, event: string, to: string, rule: string): SpecTransition => ({
  from,
  event,
  to,
  rule,
});

export const SPEC_TRANSITIONS = {
  copyFeedback: [
    t('idle', 'copyFeedback.copy', 'copying', '§2 a copy button copies'),
    t('copying', 'xstate.done.actor.writeClipboard', 'copied', "§2 shows 'Copied!'"),
    t('copied', 'xstate.after.copyFeedback', 'idle', "§2, §9 'Copied!' for 2 s"),
    t('copied', 'copyFeedback.copy', 'copying', '§2 every copy copies (also while Copied! shows)'),
  ],
  notifications: [
    t('toast.idle', 'notify.show', 'toast.showing', '§4 notifications are shown'),
    t(
      'toast.showing',
      'xstate.after.notificationDuration',
      'toast.showing',
      '§4 shown one at a time for 3.5 s each (the next queued one follows)',
    ),
    t(
      'toast.showing',
      'xstate.after.notificationDuration',
      'toast.idle',
      '§4 3.5 s each (the last one leaves)',
    ),
    t('banner.hidden', 'info.show', 'banner.visible', '§3 information banner overlay'),
    t(
      'banner.visible',
      'xstate.after.informationDuration',
      'banner.hidden',
      '§4 the information banner clears after 5 s',
    ),
    t('video.closed', 'video.open', 'video.open', '§3 video modal plays a given source'),
    t('video.open', 'video.close', 'video.closed', '§3 closes on overlay click or close button'),
  ],
  theme: [
    t('light', 'theme.cycle', 'dark', '§4 theme cycle: light, dark'),
    t('dark', 'theme.cycle', 'auto', '§4 theme cycle: dark, auto'),
    t('auto', 'theme.cycle', 'light', '§4 theme cycle: auto, then light again'),
  ],
  taglines: [
    t(
      'rotating',
      'xstate.after.taglineRotation',
      'rotating',
      '§2 cycles through five taglines every 3 s',
    ),
  ],
  launch: [
    t(
      'running.countingDown',
      'clock.ticked',
      'running.countingDown',
      '§2 the flip cards count down (each reading is the new time left)',
    ),
    t(
      'running',
      'clock.ticked',
      'trainingOpen',
      '§4 countdown until the start, then Training Open',
    ),
    t(
      'trainingOpen',
      'launch.calendarTold',
      'running.countingDown',
      "§9 the launch calendar is the server's: a launch moved later counts down again",
    ),
  ],
  signIn: [
    t('closed', 'signIn.open', 'open', "§2 'Get Access' opens the sign-in modal"),
    t('open.email', 'signIn.close', 'closed', '§3 the sign-in modal closes (step 1)'),
    t('open.code', 'signIn.close', 'closed', '§3 the sign-in modal closes (step 2)'),
    t('open.telegram', 'signIn.close', 'closed', '§3 the sign-in modal closes (step 3)'),
    t(
      'open.email.form.editing',
      'signIn.submitEmail',
      'open.email.form.sendingCode',
      '§4 step 1: a valid e-mail calls init',
    ),
    t(
      'open.email.form.sendingCode',
      'xstate.done.actor.sendCode',
      'open.code',
      '§4 after a successful init go to step 2',
    ),
    t(
      'open.email.form.sendingCode',
      'xstate.error.actor.sendCode',
      'open.email',
      '§8 a failed init stays on step 1',
    ),
    t('open.code', 'signIn.changeEmail', 'open.email', '§4 Change E-mail returns to step 1'),
    t(
      'open.code.resend.coolingDown',
      'xstate.after.resendCooldown',
      'open.code.resend.ready',
      '§4, §5 resend blocked while the 30 s timer runs',
    ),
    t(
      'open.code.resend.ready',
      'signIn.resend',
      'open.code.resend.resendingCode',
      "§3 'Resend Code' resends",
    ),
    t(
      'open.code.resend.resendingCode',
      'xstate.done.actor.resendCode',
      'open.code.resend.coolingDown',
      '§4 a sent code starts the 30 s resend timer',
    ),
    t(
      'open.code.entry.awaitingCode',
      'signIn.verify',
      'open.code.entry.verifying',
      "§3 Verify ('Verifying...' while busy)",
    ),
    t(
      'open.code.entry.verifying',
      'xstate.error.actor.verifyCode',
      'open.code.entry.awaitingCode',
      '§8 a wrong code stays on step 2',
    ),
    t(
      'open.code.entry.verifying',
      'xstate.done.actor.verifyCode',
      'open.telegram',
      '§3 step 3: Telegram',
    ),
    t(
      'open.code.entry.verifying',
      'xstate.done.actor.verifyCode',
      'closed',
      '§4 signed in when the code is verified',
    ),
    t('open.telegram', 'signIn.backToEmail', 'open.email', "§3 'Back to E-mail'"),
  ],
  session: [
    t(
      'initializing',
      'xstate.done.actor.sessInit',
      'failed',
      '§4 a version other than 0.2.0 fails with the expired-version message',
    ),
    t(
      'initializing',
      'xstate.done.actor.sessInit',
      'loadingSession',
      '§4 a stored session token is loaded',
    ),
    t(
      'initializing',
      'xstate.done.actor.sessInit',
      'creatingSession',
      '§4 without a token a new session is created',
    ),
    t('initializing', 'xstate.error.actor.sessInit', 'failed', '§4 init failure'),
    t(
      'loadingSession',
      'xstate.error.actor.sessLoad',
      'creatingSession',
      '§4 on load failure a new session is created',
    ),
    t('loadingSession', 'xstate.done.actor.sessLoad', 'loadingUser', '§4 with a jwt the user data'),
    t('loadingSession', 'xstate.done.actor.sessLoad', 'loaded', '§4 session loaded'),
    t('creatingSession', 'xstate.done.actor.sessCreate', 'loaded', '§4 session created'),
    t('loadingUser', 'xstate.done.actor.userData', 'loaded', '§4 then the user data is fetched'),
  ],
  home: [
    t('getTicket', 'home.showInvite', 'invite', "§2 two tabs: 'Get Ticket' and 'Invite'"),
    t('invite', 'home.showTicket', 'getTicket', "§2 two tabs: back to 'Get Ticket'"),
    t(
      'invite.codes.loading',
      'xstate.done.actor.inviteCodes',
      'invite.codes.loaded',
      '§7 user/invite/codes lists the invite codes',
    ),
    t(
      'invite.codes.loaded',
      'home.userChanged',
      'invite.codes.loading',
      '§2 the counters follow the server (friends register and buy)',
    ),
    t(
      'invite.codes.failed',
      'home.userChanged',
      'invite.codes.loading',
      '§2 the counters follow the server (also after a failed read)',
    ),
    t('invite.link.idle', 'invite.share', 'invite.link.sharing', '§2 invite link with share'),
    t(
      'invite.link.sharing',
      'xstate.done.actor.shareLink',
      'invite.link.idle',
      '§2 share, then the link is ready again',
    ),
  ],
  errorModal: [
    t('hidden', 'error.reported', 'shown', '§8 global handler: an error shows the error modal'),
    t(
      'hidden',
      'errorModal.open',
      'shown',
      '§3 application error: show flag and info; §4 error modal shown',
    ),
    t(
      'shown',
      'errorModal.close',
      'hidden',
      '§2 Error Detected modal: a Close button and the backdrop close it',
    ),
  ],
  app: [
    t('loading', 'session.loaded', 'loaded', '§4 not loaded to loaded when session init ends'),
    t(
      'loading',
      'session.failed',
      'failed',
      '§4 also on failure (an application error with code Init; the loader shows)',
    ),
  ],
  auth: [
    t('signedOut', 'auth.signedIn', 'signedIn', '§4 signed out to signed in when verified'),
    t('signedIn', 'auth.logout', 'signedOut', '§4 logout clears user, jwt and refresh token'),
    t(
      'signedIn.idle',
      'auth.refresh',
      'signedIn.refreshing',
      '§4 on 401 for a protected call, refresh once',
    ),
    t(
      'signedIn.refreshing',
      'xstate.done.actor.refreshTokens',
      'signedIn.idle',
      '§4 concurrent calls retry with the new token',
    ),
    t(
      'signedIn.refreshing',
      'xstate.error.actor.refreshTokens',
      'signedOut',
      '§4 if refresh fails, log out',
    ),
  ],
  realtime: [
    t('disconnected', 'realtime.connect', 'session.connecting', '§4 disconnected to connecting'),
    t('session.connecting', 'socket.received', 'session.connected', '§4 connecting to connected'),
    t('session.connected', 'socket.closed', 'waiting', '§4 on an abnormal close it reconnects'),
    t(
      'waiting',
      'xstate.after.reconnectDelay',
      'session.connecting',
      '§4 delay 1 s doubled per attempt, capped at 30 s',
    ),
    t(
      'session.connected.heartbeat.beating',
      'xstate.after.pingInterval',
      'session.connected.heartbeat.beating',
      '§4 a ping is sent every 30 s',
    ),
    t(
      'session.connected.liveness.healthy',
      'xstate.after.untilUnhealthy',
      'session.connected.liveness.unhealthy',
      '§4 unhealthy after 60 s without pong',
    ),
    t(
      'session.connected.liveness.unhealthy',
      'xstate.after.untilStale',
      'waiting',
      '§4 no pong for over 120 s: close and reconnect',
    ),
    t('session', 'socket.closed', 'failed', '§4 up to 5 attempts, then error'),
  ],
  payment: [
    t('closed', 'payment.open', 'open', '§2 the Get Ticket tab'),
    t(
      'open.idle',
      'payment.send',
      'open.connecting',
      '§4 connect wallet (one of the two providers)',
    ),
    t(
      'open.connecting',
      'xstate.done.actor.connectWallet',
      'open.fetchingBlockhash',
      '§4 connect wallet, build a transfer',
    ),
    t(
      'open.connecting',
      'xstate.error.actor.connectWallet',
      'open.idle.cancelled',
      '§8 a user rejection shows only the cancelled notice',
    ),
    t(
      'open.sending',
      'xstate.done.actor.sendTransfer',
      'open.waiting',
      '§4 sign and send, then wait',
    ),
    t(
      'open.sending',
      'xstate.error.actor.sendTransfer',
      'open.idle.cancelled',
      '§4 transaction cancelled: flag set when the user cancels a wallet send',
    ),
    t(
      'open.sending',
      'xstate.error.actor.sendTransfer',
      'open.idle.ready',
      '§8 other wallet errors: error modal',
    ),
    t(
      'open.waiting',
      'xstate.after.balanceRefresh',
      'open.confirming',
      '§4 refresh the balance 3 s later',
    ),
    t(
      'open.confirming',
      'xstate.done.actor.confirmBalance',
      'open.granted.celebrating',
      '§4 access_granted: the access-granted modal shows',
    ),
    t(
      'open.idle.cancelled',
      'xstate.after.cancelNotice',
      'open.idle.ready',
      '§2 the cancelled notice auto-hides after 5 s',
    ),
    t(
      'open.idle.cancelled',
      'payment.dismissNotice',
      'open.idle.ready',
      '§2 the cancelled notice is dismissible',
    ),
    t('open.idle', 'payment.refresh', 'open.refreshing', '§2 the refresh button'),
    t(
      'open.granted.celebrating',
      'payment.closeModal',
      'open.granted.done',
      "§3 'Ticket Purchased!' closes via X, button or overlay",
    ),
  ],
  /**
   * The live-site rule (README: a change the server makes to a signed-in player's data is on
   * their page within 10 s, with or without the socket), as the user-data service must walk it.
   */
  userData: [
    t(
      'signedOut',
      'userData.signedIn',
      'signedIn.sync.fetching',
      'a jwt that came without user data (another tab) reads user/data at once',
    ),
    t(
      'signedIn.sync.current',
      'userData.changed',
      'signedIn.sync.fetching',
      'a change the server announces is read at once',
    ),
    t(
      'signedIn.sync.fetching',
      'xstate.done.actor.fetchUserData',
      'signedIn.sync.current',
      'the answer reaches the page',
    ),
    t(
      'signedIn.sync.fetching',
      'xstate.done.actor.fetchUserData',
      'signedIn.sync.fetching',
      'a change heard while a read was on its way is read once more after it',
    ),
    t(
      'signedIn.sync.fetching',
      'xstate.error.actor.fetchUserData',
      'signedIn.sync.fetching',
      'a failed read is retried when a change was heard meanwhile',
    ),
    t(
      'signedIn.sync.fetching',
      'xstate.error.actor.fetchUserData',
      'signedIn.sync.current',
      'a failed read waits for the next change or poll',
    ),
    t(
      'signedIn.poll.paused',
      'userData.notLive',
      'signedIn.poll.ticking',
      'without the socket, a visible page polls',
    ),
    t(
      'signedIn.poll.ticking',
      'xstate.after.pollInterval',
      'signedIn.sync.fetching',
      'each poll reads user/data',
    ),
    t('signedIn.poll.ticking', 'userData.live', 'signedIn.poll.paused', 'the socket back: no poll'),
    t(
      'signedIn.poll.ticking',
      'userData.hidden',
      'signedIn.poll.paused',
      'a hidden page does not poll',
    ),
    t(
      'signedIn.sync.current',
      'userData.live',
      'signedIn.sync.fetching',
      'the socket back after a loss: what was missed is read once',
    ),
    t('signedIn', 'userData.signedOut', 'signedOut', 'signed out: nothing is read'),
  ],
} satisfies Record<string, readonly SpecTransition[]>;
