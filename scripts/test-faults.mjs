#!/usr/bin/env node
// `npm run test:faults`: planted faults, each written from one rule of the spec (a timer, a limit,
// a text), each one small text substitution in machines/, src/api or contract/. Every fault is
// applied in a temporary copy of the repository (tracked files of this working tree, node_modules
// linked), never in the working tree. The copy runs the model tests of the machine the fault is in
// (`vitest run --project model <files>`); a fault the model misses then meets the unit tests of
// the same area. The file is put back after each fault. One vitest at a time (shared 2-core box).
//
// A fault the model misses in UTC meets the model files that read an instant again under the zones
// of scripts/model-zones.mjs (as `npm test` runs them).
//
// Prints per fault whether the model caught it and the first line of its first failure (which
// should name the spec clause, under 200 characters), then `faults: N/M caught by model tests`,
// how many of those first lines name a clause, and `faults: model N/M caught, all N/M caught`.
// Exits non-zero when a fault escapes every test. FAULTS=id1,id2 runs only those faults;
// FAULT_SET=services only round three's (what the services hand each other), FAULT_SET=spec the
// earlier ones.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ZONE_FILES, ZONES } from './model-zones.mjs';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * Each fault: where (file, the exact text and its replacement, which must occur once), the spec
 * rule it breaks, and the area whose tests should catch it.
 */
const FAULTS = [
  // Sign-in (§4 Sign-in steps, §5, §9).
  f(
    'resend-29s',
    'signIn',
    'machines/signIn/signIn.machine.ts',
    'resendCooldown: ({ context }) => context.resendSecondsLeft * 1000,',
    'resendCooldown: ({ context }) => context.resendSecondsLeft * 1000 - 1000,',
    'resend 30 s',
  ),
  f(
    'resend-countdown-31',
    'signIn',
    'machines/signIn/signIn.machine.ts',
    'resendSecondsLeft: RESEND_SECONDS }',
    'resendSecondsLeft: RESEND_SECONDS + 1 }',
    'Resend in 30s countdown',
  ),
  f(
    'resend-tick-slow',
    'signIn',
    'machines/signIn/signIn.machine.ts',
    'resendTick: 1000,',
    'resendTick: 1100,',
    'countdown ticks each second',
  ),
  f(
    'code-5-digits',
    'signIn',
    'machines/signIn/signIn.rules.ts',
    'return digits.length === CODE_LENGTH && digits.every(isDigit);',
    'return digits.filter(isDigit).length >= CODE_LENGTH - 1;',
    'code exactly 6 digits',
  ),
  f(
    'email-no-dot',
    'signIn',
    'machines/signIn/signIn.rules.ts',
    'const EMAIL = /^\\S+@\\S+\\.\\S+$/;',
    'const EMAIL = /^\\S+@\\S+$/;',
    'e-mail needs a dot after @',
  ),
  f(
    'email-untrimmed',
    'signIn',
    'machines/signIn/signIn.rules.ts',
    'EMAIL.test(email.trim())',
    'EMAIL.test(email)',
    'e-mail trimmed',
  ),
  f(
    'msg-invalid-email',
    'signIn',
    'contract/messages.ts',
    "invalidEmail: 'Please enter valid e-mail address.'",
    "invalidEmail: 'Please enter a valid e-mail address.'",
    'text: invalid e-mail',
  ),
  f(
    'msg-invalid-code',
    'signIn',
    'contract/messages.ts',
    "invalidCode: 'Please enter a valid 6-digit code.'",
    "invalidCode: 'Please enter a valid six-digit code.'",
    'text: invalid code',
  ),
  // Notifications (§4, §9).
  f(
    'toast-3s',
    'notifications',
    'machines/notifications/notifications.types.ts',
    'NOTIFICATION_MS = 3_500',
    'NOTIFICATION_MS = 3_000',
    'toast 3.5 s',
  ),
  f(
    'toast-3.501s',
    'notifications',
    'machines/notifications/notifications.types.ts',
    'NOTIFICATION_MS = 3_500',
    'NOTIFICATION_MS = 3_501',
    'toast 3.5 s',
  ),
  f(
    'banner-5.5s',
    'notifications',
    'machines/notifications/notifications.types.ts',
    'INFORMATION_MS = 5_000',
    'INFORMATION_MS = 5_500',
    'banner 5 s',
  ),
  f(
    'queue-100',
    'notifications',
    'machines/notifications/notifications.types.ts',
    'QUEUE_CAP = 99',
    'QUEUE_CAP = 100',
    'queue 99',
  ),
  f(
    'queue-98',
    'notifications',
    'machines/notifications/notifications.machine.ts',
    '.slice(-context.queueCap)',
    '.slice(1 - context.queueCap)',
    'queue 99',
  ),
  f(
    'queue-skips',
    'notifications',
    'machines/notifications/notifications.machine.ts',
    'queue: ({ context }) => context.queue.slice(1),',
    'queue: ({ context }) => context.queue.slice(2),',
    'toasts one at a time, in order',
  ),
  // Copy feedback (§2, §9).
  f(
    'copy-2.5s',
    'copyFeedback',
    'machines/copyFeedback/copyFeedback.types.ts',
    'COPY_FEEDBACK_MS = 2_000',
    'COPY_FEEDBACK_MS = 2_500',
    'copy 2 s',
  ),
  f(
    'copy-1.999s',
    'copyFeedback',
    'machines/copyFeedback/copyFeedback.types.ts',
    'COPY_FEEDBACK_MS = 2_000',
    'COPY_FEEDBACK_MS = 1_999',
    'copy 2 s',
  ),
  f(
    'msg-copied',
    'copyFeedback',
    'machines/copyFeedback/copyFeedback.types.ts',
    "COPIED_LABEL = 'Copied!'",
    "COPIED_LABEL = 'Copied'",
    'text: Copied!',
  ),
  // Payment (§2, §4, §8, §9).
  f(
    'balance-refresh-3.001s',
    'payment',
    'machines/payment/payment.types.ts',
    'balanceRefresh: 3_000,',
    'balanceRefresh: 3_001,',
    'balance refresh 3 s',
  ),
  f(
    'balance-refresh-2s',
    'payment',
    'machines/payment/payment.types.ts',
    'balanceRefresh: 3_000,',
    'balanceRefresh: 2_000,',
    'balance refresh 3 s',
  ),
  f(
    'cancel-4.999s',
    'payment',
    'machines/payment/payment.types.ts',
    'cancelNotice: 5_000,',
    'cancelNotice: 4_999,',
    'cancel notice 5 s',
  ),
  f(
    'cancel-6s',
    'payment',
    'machines/payment/payment.types.ts',
    'cancelNotice: 5_000,',
    'cancelNotice: 6_000,',
    'cancel notice 5 s',
  ),
  f(
    'msg-cancelled',
    'payment',
    'machines/payment/payment.types.ts',
    'CANCELLED_NOTICE = "Transaction cancelled.',
    'CANCELLED_NOTICE = "Transaction canceled.',
    'text: cancelled notice',
  ),
  f(
    'msg-insufficient',
    'payment',
    'machines/payment/payment.types.ts',
    "message: 'Insufficient funds',",
    "message: 'Insufficient balance',",
    'text: Insufficient funds',
  ),
  f(
    'msg-phantom-missing',
    'payment',
    'machines/payment/payment.types.ts',
    "message: 'Phantom wallet not detected',",
    "message: 'Phantom not detected',",
    'text: Phantom wallet not detected',
  ),
  f(
    'msg-network',
    'payment',
    'machines/payment/payment.types.ts',
    "message: 'Network connection failed',",
    "message: 'Network failed',",
    'text: Network connection failed',
  ),
  f(
    'msg-blockhash',
    'payment',
    'machines/payment/payment.types.ts',
    "message: 'Failed to get blockhash from server',",
    "message: 'Failed to get blockhash',",
    'text: blockhash',
  ),
  // Realtime (§4, §9).
  f(
    'ping-31s',
    'realtime',
    'machines/realtime/realtime.types.ts',
    'pingIntervalMs: 30_000,',
    'pingIntervalMs: 31_000,',
    'ping 30 s',
  ),
  f(
    'unhealthy-61s',
    'realtime',
    'machines/realtime/realtime.types.ts',
    'healthyLimitMs: 60_000,',
    'healthyLimitMs: 61_000,',
    'unhealthy 60 s',
  ),
  f(
    'unhealthy-59.999s',
    'realtime',
    'machines/realtime/realtime.types.ts',
    'healthyLimitMs: 60_000,',
    'healthyLimitMs: 59_999,',
    'unhealthy 60 s',
  ),
  f(
    'stale-119s',
    'realtime',
    'machines/realtime/realtime.types.ts',
    'staleLimitMs: 120_000,',
    'staleLimitMs: 119_000,',
    'stale 120 s',
  ),
  f(
    'stale-121s',
    'realtime',
    'machines/realtime/realtime.types.ts',
    'staleLimitMs: 120_000,',
    'staleLimitMs: 121_000,',
    'stale 120 s',
  ),
  f(
    'attempts-6',
    'realtime',
    'machines/realtime/realtime.types.ts',
    'maxAttempts: 5,',
    'maxAttempts: 6,',
    '5 attempts',
  ),
  f(
    'attempts-4',
    'realtime',
    'machines/realtime/realtime.types.ts',
    'maxAttempts: 5,',
    'maxAttempts: 4,',
    '5 attempts',
  ),
  f(
    'attempts-off-by-one',
    'realtime',
    'machines/realtime/realtime.machine.ts',
    'context.attempt < REALTIME.maxAttempts',
    'context.attempt <= REALTIME.maxAttempts',
    '5 attempts',
  ),
  f(
    'backoff-base-2s',
    'realtime',
    'machines/realtime/realtime.types.ts',
    'backoffBaseMs: 1_000,',
    'backoffBaseMs: 2_000,',
    'backoff 1 s base',
  ),
  f(
    'backoff-cap-10s',
    'realtime',
    'machines/realtime/realtime.types.ts',
    'backoffCapMs: 30_000,',
    'backoffCapMs: 10_000,',
    'backoff capped at 30 s',
  ),
  f(
    'backoff-linear',
    'realtime',
    'machines/realtime/realtime.types.ts',
    'REALTIME.backoffBaseMs * 2 ** exponent',
    'REALTIME.backoffBaseMs * (exponent + 1)',
    'backoff doubles',
  ),
  f(
    'backoff-shifted',
    'realtime',
    'machines/realtime/realtime.types.ts',
    'Math.max(0, attempt - 1)',
    'Math.max(0, attempt)',
    'backoff 1·2ⁿ from 1 s',
  ),
  f(
    'msg-ws-error',
    'realtime',
    'contract/realtime.ts',
    "DEFAULT_SERVER_ERROR_TEXT = 'WebSocket error occurred'",
    "DEFAULT_SERVER_ERROR_TEXT = 'WebSocket error'",
    'text: WebSocket error occurred',
  ),
  f(
    'msg-new-notification',
    'realtime',
    'contract/realtime.ts',
    "DEFAULT_NOTIFICATION_TEXT = 'New notification'",
    "DEFAULT_NOTIFICATION_TEXT = 'Notification'",
    'text: New notification',
  ),
  // Session (§4 Session, §8, §9).
  f(
    'version-prefix-0.2',
    'session',
    'machines/session/session.machine.ts',
    'params.version !== REQUIRED_VERSION',
    "!params.version.startsWith('0.2')",
    'version 0.2.0 exact',
  ),
  f(
    'version-major-minor',
    'session',
    'machines/session/session.machine.ts',
    'params.version !== REQUIRED_VERSION',
    'params.version.slice(0, 3) !== REQUIRED_VERSION.slice(0, 3)',
    'version 0.2.0 exact',
  ),
  f(
    'version-at-least',
    'session',
    'machines/session/session.machine.ts',
    'params.version !== REQUIRED_VERSION',
    'params.version < REQUIRED_VERSION',
    'version 0.2.0 exact',
  ),
  f(
    'msg-expired-version',
    'session',
    'contract/messages.ts',
    'Please reload the app - version ${version} is required',
    'Please reload the app. Version ${version} is required',
    'text: Expired version',
  ),
  f(
    'msg-connect',
    'session',
    'contract/messages.ts',
    "connect: 'Unable to connect to the server.",
    "connect: 'Unable to reach the server.",
    'text: Unable to connect',
  ),
  f(
    'msg-session-failed',
    'session',
    'contract/messages.ts',
    "sessionFailed: 'Failed to load session'",
    "sessionFailed: 'Session failed to load'",
    'text: Failed to load session',
  ),
  f(
    'default-price-0.33',
    'session',
    'machines/session/session.selectors.ts',
    'DEFAULT_TICKET_PRICE);',
    "'0.33');",
    'page default 0.22 SOL',
  ),
  f(
    'discount-truncated',
    'session',
    'contract/money.ts',
    '* 200n + oldLamports) / (2n * oldLamports)',
    '* 100n) / oldLamports - 1n',
    'discount percent from the two prices',
  ),
  f(
    'lamports-8-places',
    'session',
    'contract/money.ts',
    "padEnd(DECIMALS, '0'))",
    "padEnd(DECIMALS - 1, '0'))",
    '1e9 lamports per SOL',
  ),
  // Taglines (§2, §9).
  f(
    'tagline-3.5s',
    'taglines',
    'machines/taglines/taglines.types.ts',
    'TAGLINE_ROTATION_MS = 3000',
    'TAGLINE_ROTATION_MS = 3500',
    'tagline 3 s',
  ),
  // Auth and the api client (§4 Token refresh, §6, §8).
  f(
    'msg-no-refresh-token',
    'auth',
    'contract/messages.ts',
    "noRefreshToken: 'No refresh token available'",
    "noRefreshToken: 'No refresh token'",
    'text: No refresh token available',
  ),
  f(
    'msg-refresh-failed',
    'auth',
    'contract/messages.ts',
    "refreshFailed: 'Token refresh failed'",
    "refreshFailed: 'Refresh failed'",
    'text: Token refresh failed',
  ),
  f(
    'access-any-flag',
    'auth',
    'machines/auth/auth.selectors.ts',
    'return user.user_access === 1;',
    'return user.user_access !== 0;',
    'user_access === 1 grants access',
  ),
  f(
    'refresh-any-401',
    'auth',
    'machines/auth/auth.machine.ts',
    'return context.jwt === event.jwt;',
    'return true;',
    'one refresh for the jwt in use',
  ),
  f(
    'api-no-renew-on-401',
    'api',
    'src/api/client.ts',
    'error.status !== 401 ||',
    'error.status !== 403 ||',
    'a 401 renews the jwt once',
  ),

  // Round three (QA, 2026-12): how the services talk to each other, checked against what the
  // spec says arrives; a chart checked only against itself; an instant read in local time.
  s(
    'app-calendar-swap',
    'app',
    'machines/app/app.machine.ts',
    `launchAt: event.publicData.launch_at,
                earlyBirdEnd: event.publicData.early_bird_end,`,
    `launchAt: event.publicData.early_bird_end,
                earlyBirdEnd: event.publicData.launch_at,`,
    'app → launch: launch_at is the training start, early_bird_end the Early Bird end',
  ),
  s(
    'app-session-no-jwt',
    'app',
    'machines/app/app.machine.ts',
    'hasJwt: Boolean(context.stored.jwt),',
    'hasJwt: false,',
    'app → session: a stored jwt means the user data is fetched',
  ),
  s(
    'app-drops-user-change',
    'app',
    'machines/app/app.machine.ts',
    "'userData.changed': { actions: 'forwardToUserData' },",
    "'userData.changed': { actions: [] },",
    'realtime → app → user data: a change the server pushed reaches the user-data service',
  ),
  s(
    'home-invite-needs-card',
    'home',
    'machines/home/home.machine.ts',
    "'home.showInvite': 'invite',",
    "'home.showInvite': { guard: 'hasChosenInvite', target: 'invite' },",
    "'Start Inviting Friends' switches to the Invite tab",
  ),
  s(
    'launch-instant-local',
    'launch',
    'contract/spec.ts',
    "LAUNCH_AT_ISO = '2025-12-20T00:00:00Z'",
    "LAUNCH_AT_ISO = '2025-12-20T00:00:00'",
    'launch 2025-12-20T00:00:00Z (with its zone)',
  ),
  s(
    'tagline-deleted',
    'taglines',
    'machines/taglines/taglines.types.ts',
    "  'Every $GNG spent in game flows back to the Fund.',\n",
    '',
    'five taglines',
  ),
  s(
    'session-user-not-to-auth',
    'session',
    'machines/session/session.machine.ts',
    `handUserDataToAuth: sendTo(
      ({ system }) => system.get(SYSTEM_IDS.auth),`,
    `handUserDataToAuth: sendTo(
      ({ self }) => self,`,
    'session → auth: the user data user/data answered',
  ),
  s(
    'session-skips-user-data',
    'session',
    'machines/session/session.machine.ts',
    "onDone: [{ guard: 'hasJwt', target: 'loadingUser' }, { target: 'loaded' }],",
    "onDone: [{ target: 'loaded' }],",
    'when a jwt exists the user data is then fetched (and handed to auth)',
  ),
  s(
    'session-drops-access',
    'session',
    'machines/session/session.machine.ts',
    'userData: params.user_data,',
    'userData: { ...params.user_data, user_access: 0 },',
    'session → auth: user data as the server sent it (user_access 1 is access)',
  ),
  s(
    'realtime-attempts-not-reset',
    'realtime',
    'machines/realtime/realtime.machine.ts',
    `markConnected: assign(({ context }) => ({
      attempt: 0,
      lost: false,`,
    `markConnected: assign(({ context }) => ({
      lost: false,`,
    'up to 5 reconnect attempts, counted afresh after a connection',
  ),
  s(
    'realtime-banner-type',
    'realtime',
    'machines/realtime/realtime.machine.ts',
    'messageType: banner.type,',
    "messageType: 'info',",
    'realtime → notifications: a notification with data.type becomes a banner of that type',
  ),
  s(
    'realtime-no-live-fact',
    'realtime',
    'machines/realtime/realtime.machine.ts',
    "{ type: 'tellMembers', params: { type: 'userData.live' } },",
    "{ type: 'tellMembers', params: { type: 'userData.notLive' } },",
    'realtime → user data: the socket is up',
  ),
  s(
    'userData-auth-only-with-access',
    'userData',
    'machines/userData/userData.machine.ts',
    'if (auth) enqueue.sendTo(auth, loaded);',
    'if (auth && params.userData.user_access === 1) enqueue.sendTo(auth, loaded);',
    'user data → auth: every answer of user/data',
  ),
  s(
    'userData-no-home',
    'userData',
    'machines/userData/userData.machine.ts',
    "if (home) enqueue.sendTo(home, { type: 'home.userChanged' });",
    "if (home && !auth) enqueue.sendTo(home, { type: 'home.userChanged' });",
    'user data → home: the Invite tab reads its codes again',
  ),
  s(
    'payment-grant-not-to-auth',
    'payment',
    'machines/payment/payment.machine.ts',
    'notifyAccessGranted: sendTo(({ system }) => system.get(SYSTEM_IDS.auth), {',
    'notifyAccessGranted: sendTo(({ self }) => self, {',
    'payment → auth: access_granted sets the access flag',
  ),
  s(
    'payment-error-no-solution',
    'payment',
    'machines/payment/payment.machine.ts',
    'solution: params.solution,\n        ...context.source,',
    "solution: '',\n        ...context.source,",
    'payment → error modal: message and solution',
  ),
  s(
    'signIn-tokens-swapped',
    'signIn',
    'machines/signIn/signIn.machine.ts',
    'jwt: session.jwt,\n        refreshToken: session.refreshToken,',
    'jwt: session.refreshToken,\n        refreshToken: session.jwt,',
    'sign-in → auth: the jwt and the refresh token stored',
  ),
  s(
    'errorModal-warning-as-info',
    'errorModal',
    'machines/errorModal/errorModal.machine.ts',
    "messageType: 'warning' as const,",
    "messageType: 'info' as const,",
    'error modal → banner: a warning (Web3 provider not available)',
  ),
  s(
    'theme-dark-to-light',
    'theme',
    'machines/theme/theme.machine.ts',
    "on: { 'theme.cycle': { target: 'auto' } },",
    "on: { 'theme.cycle': { target: 'light' } },",
    'light, dark, auto, then light again',
  ),
  s(
    'copy-refused-shows-copied',
    'copyFeedback',
    'machines/copyFeedback/copyFeedback.machine.ts',
    "onError: { target: 'idle', actions: 'markFailure' },",
    "onError: { target: 'copied', actions: 'markFailure' },",
    "'Copied!' only after a copy",
  ),
];

function f(id, area, file, from, to, rule) {
  return { id, set: 'spec', area, file, from, to, rule };
}
/** A fault of round three: mostly in what one service hands another. */
function s(id, area, file, from, to, rule) {
  return { id, set: 'services', area, file, from, to, rule };
}

/** Model and unit test files of an area (a machine folder, or the api client). */
const MODEL_FILES = {
  api: ['tests/model/auth.paths.test.ts', 'tests/model/session.paths.test.ts'],
};
const UNIT_FILES = {
  api: ['tests/unit/api'],
  auth: ['tests/unit/api', 'tests/unit/machines/app.test.ts'],
};
function modelFiles(area) {
  if (MODEL_FILES[area]) return MODEL_FILES[area];
  return readdirSync(join(ROOT, 'tests/model'))
    .filter((name) => name.startsWith(`${area}.`))
    .map((name) => `tests/model/${name}`);
}
function unitFiles(area) {
  if (UNIT_FILES[area]) return UNIT_FILES[area];
  const top = readdirSync(join(ROOT, 'tests/unit'))
    .filter((name) => name.startsWith(`${area}.`))
    .map((name) => `tests/unit/${name}`);
  const machines = existsSync(join(ROOT, `tests/unit/machines/${area}.test.ts`))
    ? [`tests/unit/machines/${area}.test.ts`]
    : [];
  return [...top, ...machines];
}

/** A copy of the working tree's tracked files in /tmp, node_modules linked. */
function makeCopy() {
  const dir = mkdtempSync(join(tmpdir(), 'smw-faults-'));
  const files = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).stdout;
  const tar = spawnSync(
    'sh',
    ['-c', `tar -C "${ROOT}" --null -T - -cf - | tar -C "${dir}" -xf -`],
    {
      input: files,
    },
  );
  if (tar.status !== 0) throw new Error(`copy failed: ${tar.stderr}`);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Runs vitest on `files` in `dir`; returns the failed tests ('' list when all passed). */
function vitest(dir, project, files, zone) {
  const out = join(dir, `.faults-${project}.json`);
  rmSync(out, { force: true });
  const result = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      project,
      '--reporter=json',
      `--outputFile.json=${out}`,
      ...files,
    ],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, CI: '1', ...(zone ? { TZ: zone } : {}) },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  let report = null;
  try {
    report = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    report = null;
  }
  if (!report) {
    return {
      ok: result.status === 0,
      failed: result.status === 0 ? [] : [`vitest did not report (exit ${result.status})`],
    };
  }
  const failed = [];
  let first = null;
  let unnamed = null;
  for (const file of report.testResults ?? []) {
    const name = file.name.replace(`${dir}/`, '');
    const failures = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    if (file.status === 'failed' && failures.length === 0)
      failed.push(`${name}: ${firstLine(file.message)}`);
    for (const a of failures) {
      failed.push(`${name} › ${clip(a.fullName, 110)} — ${whereItFailed(a.failureMessages?.[0])}`);
      const line = failureLine(a.failureMessages?.[0]);
      unnamed ??= namesClause(line) ? null : line;
      if (namesClause(line)) first ??= line;
    }
  }
  // The first failure that names its clause, else the first of all; a failing test that names
  // none (a generator over its budget, a coverage gap) is reported beside it.
  const named = first;
  first ??= unnamed ?? failed[0] ?? null;
  return {
    ok: failed.length === 0 && result.status === 0,
    failed,
    first,
    unnamed: named ? unnamed : null,
  };
}

function clip(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The step and check a path failure names, else the assertion's first line. */
function whereItFailed(message) {
  const lines = String(message ?? '')
    .split('\n')
    .map((l) => l.trim());
  const step = lines.find(
    (l) => /^(step|failed at step|at step)\b/i.test(l) || /\bstep \d+/i.test(l),
  );
  const check = lines.find((l) => /expected|Error:/.test(l));
  return clip([step, check].filter(Boolean).join(' | ') || firstLine(message), 260);
}

/** The first line of a failure as QA read it: without Vitest's `Error:` prefix and colours. */
function failureLine(message) {
  // eslint-disable-next-line no-control-regex
  const plain = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  return firstLine(plain).replace(/^(?:[A-Za-z]*Error|Caused by): /, '');
}

/** A first line names its clause when it carries a clause id (`§4.session.userData`). */
const namesClause = (line) => /(?:§\d+\.[A-Za-z]|reading\.[A-Za-z])/.test(line ?? '');

function firstLine(text) {
  const line = String(text ?? '')
    .split('\n')
    .find((l) => l.trim() !== '');
  return (line ?? '').trim().slice(0, 220);
}

const only = process.env.FAULTS?.split(',').filter(Boolean);
const set = process.env.FAULT_SET;
const selected = FAULTS.filter((x) => (!only || only.includes(x.id)) && (!set || x.set === set));
/** The model files of an area that also run under each zone (scripts/model-zones.mjs). */
const zoneFiles = (area) => modelFiles(area).filter((file) => ZONE_FILES.includes(file));
const dir = makeCopy();
console.log(`faults: ${selected.length} planted faults, copy at ${dir}`);

let modelCaught = 0;
let allCaught = 0;
let clauseNamed = 0;
const escaped = [];
try {
  // The copy must pass unchanged, or a "caught" fault means nothing.
  const areas = [...new Set(selected.map((x) => x.area))];
  const baseline = vitest(dir, 'model', [...new Set(areas.flatMap(modelFiles))]);
  if (!baseline.ok) {
    console.error(
      `faults: the model tests fail without any fault:\n  ${baseline.failed.join('\n  ')}`,
    );
    process.exit(2);
  }
  const zoned = [...new Set(areas.flatMap(zoneFiles))];
  for (const zone of zoned.length > 0 ? ZONES : []) {
    const run = vitest(dir, 'model', zoned, zone);
    if (!run.ok) {
      console.error(`faults: the model tests fail under TZ=${zone} without any fault:`);
      console.error(`  ${run.failed.join('\n  ')}`);
      process.exit(2);
    }
  }
  for (const fault of selected) {
    const path = join(dir, fault.file);
    const original = readFileSync(path, 'utf8');
    const count = original.split(fault.from).length - 1;
    if (count !== 1) {
      console.log(`✗ ${fault.id}: the text to replace occurs ${count} times in ${fault.file}`);
      escaped.push(fault.id);
      continue;
    }
    writeFileSync(path, original.replace(fault.from, fault.to));
    try {
      let model = vitest(dir, 'model', modelFiles(fault.area));
      let zone = null;
      for (const z of model.ok && zoneFiles(fault.area).length > 0 ? ZONES : []) {
        const run = vitest(dir, 'model', zoneFiles(fault.area), z);
        if (!run.ok) {
          model = run;
          zone = z;
          break;
        }
      }
      let caughtBy = model.ok ? null : 'model';
      let detail = model.failed;
      if (!model.ok) {
        modelCaught += 1;
        if (namesClause(model.first)) clauseNamed += 1;
      }
      if (model.ok) {
        const unit = unitFiles(fault.area);
        const units = unit.length > 0 ? vitest(dir, 'unit', unit) : { ok: true, failed: [] };
        if (!units.ok) {
          caughtBy = 'unit';
          detail = units.failed;
        }
      }
      if (caughtBy) allCaught += 1;
      else escaped.push(fault.id);
      const head =
        caughtBy === 'model'
          ? `model: caught${zone ? ` (TZ=${zone})` : ''}`
          : caughtBy
            ? 'model: MISSED, unit: caught'
            : 'model: MISSED, unit: MISSED';
      console.log(`${caughtBy ? '✓' : '✗'} ${fault.id} (${fault.rule}; ${fault.file}) ${head}`);
      if (caughtBy === 'model') {
        const line = model.first ?? '';
        const mark = namesClause(line) ? '' : ' [NO CLAUSE NAMED]';
        console.log(`    first failure${mark}: ${clip(line, 199)}`);
        console.log(`    (${line.length} characters; ${model.failed.length} failing test(s))`);
        if (model.unnamed)
          console.log(`    also failing, no clause named: ${clip(model.unnamed, 150)}`);
      }
      for (const line of detail.slice(0, caughtBy === 'model' ? 1 : 2)) console.log(`    ${line}`);
    } finally {
      writeFileSync(path, original);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (escaped.length > 0) console.log(`faults not caught by any test: ${escaped.join(', ')}`);
const total = selected.length;
console.log(`faults: ${modelCaught}/${total} caught by model tests`);
console.log(
  `faults: the first failure line names its clause in ${clauseNamed}/${modelCaught} caught`,
);
console.log(`faults: model ${modelCaught}/${total} caught, all ${allCaught}/${total} caught`);
process.exit(allCaught === total ? 0 : 1);
