import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { openStore, type Store } from '../../server/store/engine';
import { migrateStore } from '../../server/store/migrations';

/**
 * Which engine the server tests run on: Postgres when the run's PostgreSQL is set (the
 * `server-postgres` project, tests/support/postgres-setup.ts), else the data folder's SQLite.
 */
export const testEngine = (): 'sqlite' | 'postgres' =>
  process.env.SMW_TEST_POSTGRES_URL ? 'postgres' : 'sqlite';

const nameOf = (dataDir: string) =>
  `smw_${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 24)}`;

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.SMW_TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The database of a test server's data folder on Postgres (created on first use, so a server
 * started again on the same folder finds its rows), or undefined on SQLite.
 */
export async function databaseUrlFor(dataDir: string): Promise<string | undefined> {
  const base = process.env.SMW_TEST_POSTGRES_URL;
  if (!base) return undefined;
  const name = nameOf(dataDir);
  await admin(async (client) => {
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } catch (error) {
      // 42P04: it exists already (the same data folder again).
      if (!(error instanceof Error && 'code' in error && error.code === '42P04')) throw error;
    }
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The environment a server or command process of `dataDir` needs (DATABASE_URL on Postgres). */
export async function storeEnv(dataDir: string | undefined): Promise<Record<string, string>> {
  const url = dataDir ? await databaseUrlFor(dataDir) : undefined;
  return url ? { DATABASE_URL: url } : {};
}

/** Drops the database of a data folder (Postgres; nothing on SQLite). */
export async function dropDatabaseFor(dataDir: string): Promise<void> {
  if (!process.env.SMW_TEST_POSTGRES_URL) return;
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${nameOf(dataDir)} WITH (FORCE)`));
}

/**
 * A fresh, migrated store of the run's engine in a temporary data folder, for tests of the stores
 * themselves; `close()` removes it.
 */
export async function openTestStore(): Promise<{
  store: Store;
  dataDir: string;
  close(): Promise<void>;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'smw-store-'));
  const store = openStore({ dataDir, databaseUrl: await databaseUrlFor(dataDir) });
  await migrateStore(store);
  return {
    store,
    dataDir,
    async close() {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
      await dropDatabaseFor(dataDir);
    },
  };
}

/**
 * A raw statement (`?` placeholders) on the store of a data folder, read beside a server that
 * runs in another process (read-only on SQLite).
 */
export async function queryStore<R>(
  dataDir: string,
  text: string,
  params: readonly unknown[] = [],
): Promise<R[]> {
  const databaseUrl = await databaseUrlFor(dataDir);
  const store = openStore({ dataDir, databaseUrl, readonly: !databaseUrl, poolSize: 1 });
  try {
    return await store.raw<R>(store.db, text, params);
  } finally {
    await store.close();
  }
}
