import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, SQLITE_FILE, type Store, type StoreOptions } from './engine';
import { migrateStore } from './migrations';

export type { Store } from './engine';

/** Where the store of the operations commands is: DATABASE_URL, else DATA_DIR's SQLite file. */
export function storeOptionsFromEnv(env: NodeJS.ProcessEnv, dataDir: string): StoreOptions {
  return { dataDir, databaseUrl: env.DATABASE_URL || undefined };
}

/**
 * The running server's store, for an operations command: it must exist already (a typo in
 * DATA_DIR is an error, not a fresh empty store) and is brought to this version's schema.
 */
export async function openExistingStore(options: StoreOptions): Promise<Store> {
  if (!options.databaseUrl) {
    const file = join(options.dataDir, SQLITE_FILE);
    if (!existsSync(file)) throw new Error(`No database at ${file} (is DATA_DIR right?)`);
  }
  const store = openStore(options);
  try {
    if (!options.readonly) await migrateStore(store);
    return store;
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
}
