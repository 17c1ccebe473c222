import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postApi, registerUser } from '../support/api';
import { serverProcess, type ServerProcess } from '../support/serverProcess';
import { freePort } from '../support/freePort';
import { databaseUrlFor, dropDatabaseFor } from '../support/testStore';

/**
 * Throughput of the two calls every page makes (sess/create, then user/data with a jwt) on one
 * built instance and on two on one Postgres, in one run: a figure printed, never a budget
 * asserted (this machine's other work moves it). Bounded: CLIENTS loops for WINDOW_MS each.
 */
const CLIENTS = 20;
const WINDOW_MS = 4_000;
const shared = mkdtempSync(join(tmpdir(), 'smw-load-'));
const procs: { proc: ServerProcess; dataDir: string }[] = [];

afterAll(async () => {
  for (const { proc, dataDir } of procs) {
    proc.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
  rmSync(shared, { recursive: true, force: true });
  await dropDatabaseFor(shared);
});

async function instance(databaseUrl: string): Promise<string> {
  const proc = serverProcess(`load-${procs.length}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'smw-load-instance-'));
  procs.push({ proc, dataDir });
  await proc.build();
  return proc.start({
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SERVER_MODE: 'development',
    REQUEST_LOG: '0',
  });
}

/** sess/create + user/data pairs per second over `urls` (round-robin), and the failures. */
async function measure(urls: string[], jwts: string[]) {
  let pairs = 0;
  let failed = 0;
  const end = Date.now() + WINDOW_MS;
  await Promise.all(
    jwts.map(async (jwt, client) => {
      for (let n = client; Date.now() < end; n += 1) {
        const url = urls[n % urls.length]!;
        const created = await postApi(url, 'sess/create', {
          data: { language: 'en', user_agent: 'load' },
        });
        const data = await postApi(url, 'user/data', {}, jwt);
        if (created.status === 200 && data.status === 200) pairs += 1;
        else failed += 1;
      }
    }),
  );
  return { perSecond: (pairs * 1000) / WINDOW_MS, failed };
}

describe('load on one and two instances', () => {
  it('prints sess/create + user/data per second for one instance and for two on one Postgres', async () => {
    const databaseUrl = (await databaseUrlFor(shared))!;
    const first = await instance(databaseUrl);
    const jwts = await Promise.all(
      Array.from(
        { length: CLIENTS },
        async (_, i) => (await registerUser(first, `load-${i}@load.test`)).jwt,
      ),
    );
    const one = await measure([first], jwts);
    const second = await instance(databaseUrl);
    const two = await measure([first, second], jwts);
    console.log(
      `load: sess/create + user/data, ${CLIENTS} clients for ${WINDOW_MS / 1000} s: one instance ${one.perSecond.toFixed(0)} pairs/s, two instances on one Postgres ${two.perSecond.toFixed(0)} pairs/s (ratio ${(two.perSecond / Math.max(1, one.perSecond)).toFixed(2)}, 2 cores shared with the test itself)`,
    );
    expect(one.failed + two.failed).toBe(0);
    expect(one.perSecond).toBeGreaterThan(0);
    expect(two.perSecond).toBeGreaterThan(0);
  }, 120_000);
});
