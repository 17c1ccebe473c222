import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { turnInvitationRuleOffForEarlierTests } from './tests/support/invitationRuleOff';

/**
 * Browser tests: the real built site (local mode) against the real local server, in Debian
 * Chromium. The global setup builds the site once and starts the server on a free loopback port;
 * the URL reaches the workers through E2E_BASE_URL.
 */
const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
if (!existsSync(chromePath)) {
  throw new Error(
    `Chromium not found at ${chromePath}. The browser tests use Debian Chromium: run ` +
      '`apt-get install -y chromium` (or set CHROME_PATH to a Chromium executable). ' +
      'No test tool downloads a browser of its own.',
  );
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// One id per run (set once in the runner, inherited by the workers) keeps the artifacts of
// concurrent runs on one machine apart.
process.env.E2E_RUN_ID ??= `${Date.now().toString(36)}-${process.pid}`;
// The tests written before the invitation rule keep paying without an inviter.
turnInvitationRuleOffForEarlierTests();

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: `test-results/run-${process.env.E2E_RUN_ID}`,
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list']],
  globalSetup: './tests/support/e2e-global-setup.ts',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: { executablePath: chromePath, args: CHROMIUM_ARGS },
  },
});
