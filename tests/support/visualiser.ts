import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import type { RegisteredUser } from './api';
import { expect } from './e2e';

/** What the visualiser's browser tests share: replaying a saved file, a signed-in site. */
const ROOT = resolve(import.meta.dirname, '../..');

/**
 * A file "Save as test" downloaded, put where QA puts it (tests/model/recorded/): the model project
 * replays it and passes; against the machine with `fault` provided it fails with `failure`.
 * Returns the file's text.
 */
export function replaySaved(
  downloaded: string,
  { machine, fault, failure }: { machine: string; fault: string; failure: RegExp },
): string {
  const dir = join(ROOT, 'tests/model/recorded');
  const id = `tmp-e2e-${process.pid}-${Date.now()}`;
  const saved = join(dir, `${id}.recorded.test.ts`);
  const faulty = join(dir, `${id}.faulty.ts`);
  const broken = join(dir, `${id}.broken.recorded.test.ts`);
  const source = `../../../machines/${machine}/${machine}.machine`;
  try {
    const text = readFileSync(downloaded, 'utf8');
    writeFileSync(saved, text);
    expect(text).toContain(`from '${source}'`);
    const pass = runModel(saved);
    expect(pass.output).toMatch(/1 passed/);
    expect(pass.status, pass.output).toBe(0);

    writeFileSync(
      faulty,
      [
        `import { ${machine}Machine as chart } from '${source}';`,
        `export const ${machine}Machine = chart.provide(${fault});`,
        '',
      ].join('\n'),
    );
    writeFileSync(broken, text.replace(source, `./${id}.faulty`));
    const fail = runModel(broken);
    expect(fail.status, fail.output).not.toBe(0);
    expect(fail.output).toMatch(failure);
    return text;
  } finally {
    for (const file of [saved, faulty, broken]) rmSync(file, { force: true });
  }
}

/** Runs the model project on one file, as QA would: `npx vitest run --project model <file>`. */
function runModel(file: string): { status: number | null; output: string } {
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'model', file],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true', NO_COLOR: '1' } },
  );
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

/** Stores the tokens a signed-in browser keeps (§3 storage keys), then opens the home page. */
export async function openSignedIn(page: Page, user: RegisteredUser): Promise<void> {
  await page.addInitScript(
    (tokens) => {
      localStorage.setItem('jwt', tokens.jwt);
      localStorage.setItem('refreshToken', tokens.refreshToken);
      localStorage.setItem('sessionToken', tokens.sessionToken);
    },
    { jwt: user.jwt, refreshToken: user.refreshToken, sessionToken: user.sessionToken },
  );
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Exit' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', {
    timeout: 15_000,
  });
}
