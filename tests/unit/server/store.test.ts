import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../server/store/engine';
import { migrateStore, SCHEMA_VERSION } from '../../../server/store/migrations';
import { loadSecrets, SECRET_NAMES } from '../../../server/store/secrets';
import { databaseUrlFor, dropDatabaseFor, testEngine } from '../../support/testStore';

/** The store's schema and secrets on the run's engine, as several instances meet them. */
let dataDir = '';
const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  rmSync(dataDir, { recursive: true, force: true });
  await dropDatabaseFor(dataDir);
});

async function fresh(instances: number): Promise<Store[]> {
  dataDir = mkdtempSync(join(tmpdir(), 'smw-store-'));
  const databaseUrl = await databaseUrlFor(dataDir);
  // SQLite is one process's store (one data folder, one server); Postgres is shared.
  const count = testEngine() === 'postgres' ? instances : 1;
  for (let i = 0; i < count; i += 1) opened.push(openStore({ dataDir, databaseUrl }));
  return opened;
}

describe(`the store's schema (${testEngine()})`, () => {
  it('instances starting together migrate once, and agree on the secrets created once', async () => {
    const stores = await fresh(4);
    const runs = await Promise.all(stores.map((store) => migrateStore(store)));
    const applied = runs.flatMap((run) => run.applied);
    expect(applied).toHaveLength(SCHEMA_VERSION);
    expect(new Set(applied).size).toBe(SCHEMA_VERSION);
    const secrets = await Promise.all(stores.map((store) => loadSecrets(store, dataDir, 1)));
    for (const name of SECRET_NAMES) {
      const values = new Set(secrets.map((s) => s[name].toString('base64')));
      expect(values.size).toBe(1);
      expect(secrets[0]![name]).toHaveLength(32);
    }
  });

  it('refuses a database whose schema is newer than this server, naming both versions', async () => {
    const [store] = await fresh(1);
    await migrateStore(store!);
    await store!.raw(
      store!.db,
      "INSERT INTO kysely_migration (name, timestamp) VALUES ('9999_a_later_release', '2026-12-01T00:00:00.000Z')",
    );
    await expect(migrateStore(store!)).rejects.toThrow(
      new RegExp(
        `has schema version ${SCHEMA_VERSION + 1} \\(its newest step 9999_a_later_release\\), newer than this server's schema version ${SCHEMA_VERSION}`,
      ),
    );
  });
});
