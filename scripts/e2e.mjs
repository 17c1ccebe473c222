#!/usr/bin/env node
// `npm run test:e2e`: the Playwright suite in Debian Chromium (arguments pass through, e.g.
// `npm run test:e2e -- tests/e2e/home.spec.ts`). Refuses to start without the browser.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const chrome = process.env.CHROME_PATH || '/usr/bin/chromium';
if (!existsSync(chrome)) {
  console.error(
    `e2e: Chromium not found at ${chrome}. Run \`apt-get install -y chromium\` or set CHROME_PATH.`,
  );
  process.exit(1);
}
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  cwd: resolve(import.meta.dirname, '..'),
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
