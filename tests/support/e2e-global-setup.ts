import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { e2eSiteDir, ROOT, startLocalServer } from './local-server';
import { INVITATION_RULE_OFF_FROM } from './invitationRuleOff';

/**
 * Playwright global setup: builds the site once in local mode (`--mode localsite`, what `npm start`
 * serves; Vite reserves the mode name `local`) and the
 * production build (dist/, inspected by tests that check what production ships), then starts the
 * real local server with a fresh data folder. Returns the teardown.
 *
 * E2E_REUSE_BUILD=1 reuses existing builds (fast local iteration); E2E_SKIP_PROD_BUILD=1 skips the
 * production build when the caller has just built dist/ (npm test does, for the size budget).
 */
function viteBuild(label: string, args: string[]): void {
  const started = Date.now();
  // The site is built with the rule's default date (the Early Bird end), whatever the earlier
  // tests' servers are told (tests/support/invitationRuleOff.ts).
  const env = { ...process.env };
  if (env.INVITATION_REQUIRED_FROM === INVITATION_RULE_OFF_FROM)
    delete env.INVITATION_REQUIRED_FROM;
  const result = spawnSync('npx', ['vite', 'build', ...args], { cwd: ROOT, encoding: 'utf8', env });
  if (result.status !== 0) {
    // The end of the build's output holds the error; the chunk listing before it is noise.
    const output = (result.stdout + result.stderr).split('\n');
    process.stderr.write(`${output.slice(-60).join('\n')}\n`);
    throw new Error(`e2e: the ${label} build failed (npx vite build ${args.join(' ')}).`);
  }
  console.log(`e2e: ${label} build ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const reuse = process.env.E2E_REUSE_BUILD === '1';
  const ownSiteDir = !reuse && !process.env.E2E_SITE_DIR;
  const siteDir = e2eSiteDir();
  process.env.E2E_SITE_DIR = siteDir;
  if (!(reuse && existsSync(join(siteDir, 'index.html')))) {
    viteBuild('local-mode site', ['--mode', 'localsite', '--outDir', siteDir, '--emptyOutDir']);
  }
  const distReady = existsSync(join(ROOT, 'dist/index.html'));
  if (!((reuse || process.env.E2E_SKIP_PROD_BUILD === '1') && distReady)) {
    viteBuild('production', []);
  }
  const server = await startLocalServer();
  process.env.E2E_BASE_URL = server.url;
  console.log(`e2e: local server at ${server.url}`);
  return async () => {
    await server.close();
    if (ownSiteDir) rmSync(siteDir, { recursive: true, force: true });
  };
}
