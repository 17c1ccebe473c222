import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { PRODUCTION_RATE_LIMITS } from '../../server/limits';
import { startTestServer } from '../support/api';
import { loopback, postFrom } from '../support/fromAddress';
import { databaseUrlFor, dropDatabaseFor } from '../support/testStore';

/**
 * The per-address limits of two production instances on one Postgres are one budget: a client
 * sending its code requests to the instances in turn gets one instance's limit, not two.
 */
let shared = '';
const servers: RunningServer[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  shared = mkdtempSync(join(tmpdir(), 'smw-limits-'));
  const databaseUrl = (await databaseUrlFor(shared))!;
  for (let i = 0; i < 2; i += 1) {
    const dataDir = mkdtempSync(join(tmpdir(), 'smw-limits-instance-'));
    dirs.push(dataDir);
    servers.push(
      await startTestServer({
        dataDir,
        databaseUrl,
        mode: 'production',
        localChain: true,
        plugins: [],
      }),
    );
  }
});
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const dir of [...dirs, shared]) rmSync(dir, { recursive: true, force: true });
  await dropDatabaseFor(shared);
});

describe('limits shared across instances', () => {
  it('one address round-robining two instances gets one budget', async () => {
    const budget = PRODUCTION_RATE_LIMITS.codeRequest.max;
    const from = loopback(7);
    const statuses: number[] = [];
    for (let i = 0; i < budget * 2; i += 1)
      statuses.push(
        (
          await postFrom(from, servers[i % 2]!.url, 'auth/email/init', {
            data: { email: `round-robin-${i}@limits.test` },
          })
        ).status,
      );
    const got = statuses.filter((s) => s === 200).length;
    console.log(`limits: shared across 2 instances: budget ${budget}, got ${got}`);
    expect(got).toBe(budget);
    expect(statuses.slice(budget)).toEqual(Array(budget).fill(429));
    // Another address still has its own budget.
    const other = await postFrom(loopback(8), servers[1]!.url, 'auth/email/init', {
      data: { email: 'someone-else@limits.test' },
    });
    expect(other.status).toBe(200);
  });
});
