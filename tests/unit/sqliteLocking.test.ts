import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { openStore, SQLITE_FILE } from '../../server/store/engine';
import { migrateStore } from '../../server/store/migrations';

/**
 * The embedded store shares its file with other processes of the studio's (`npm run backup`,
 * `npm run player`). A transaction of the server's that reads and then writes must not fail
 * because one of them wrote in between: on SQLite that fails at once ("database is locked"), the
 * busy timeout cannot help, so the server takes the write lock when a transaction begins.
 */
const dir = mkdtempSync(join(tmpdir(), 'smw-sqlite-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a transaction that reads, then writes, commits although another process writes meanwhile', async () => {
  const store = openStore({ dataDir: dir });
  await migrateStore(store);
  const other = new Database(join(dir, SQLITE_FILE));
  // The other process does not wait: either its write lands now or it is turned away now.
  other.pragma('busy_timeout = 0');
  let otherWrote = false;
  try {
    await store.db.transaction().execute(async (trx) => {
      await trx.selectFrom('server_secrets').select('name').execute();
      try {
        other
          .prepare('INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?)')
          .run('other-process', 'x', Date.now());
        otherWrote = true;
      } catch (error) {
        expect(String(error)).toMatch(/database is locked/);
      }
      await trx
        .insertInto('server_secrets')
        .values({ name: 'server', value: 'y', created_at: Date.now() })
        .execute();
    });
    const names = await store.db.selectFrom('server_secrets').select('name').execute();
    expect(names.map((row) => row.name)).toContain('server');
    // The server held the write lock from its transaction's start: the other write waited its turn.
    expect(otherWrote).toBe(false);
  } finally {
    other.close();
    await store.close();
  }
});
