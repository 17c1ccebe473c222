import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../server/store/engine';
import { migrateStore } from '../../../server/store/migrations';
import { registerUser } from '../../support/api';
import { serverProcess } from '../../support/serverProcess';
import { testEngine } from '../../support/testStore';

/**
 * The data folder holds every player's e-mail and the keys that open their payment wallets: the
 * server creates it readable by its owner only (0700) and the database file, with SQLite's
 * journal files, 0600; a database file an older version left readable by others is tightened.
 */
const work = mkdtempSync(join(tmpdir(), 'smw-private-'));
const server = serverProcess('private', 'tsx');
afterEach(() => server.dispose());
afterAll(() => rmSync(work, { recursive: true, force: true }));
const modeOf = (path: string) => statSync(path).mode & 0o777;
const sqlite = testEngine() === 'sqlite';

describe('private files', () => {
  it('a new data folder is 0700, its database file and journals 0600', async () => {
    const dataDir = join(work, 'fresh', 'data');
    const url = await server.start({ DATA_DIR: dataDir, SERVER_MODE: 'development' });
    await registerUserByProcess(url);
    expect(modeOf(dataDir)).toBe(0o700);
    if (sqlite) {
      for (const file of ['site.sqlite', 'site.sqlite-wal', 'site.sqlite-shm'])
        expect({ file, mode: modeOf(join(dataDir, file)) }).toEqual({ file, mode: 0o600 });
    } else {
      // On Postgres the folder holds the lock, never a database file.
      expect(existsSync(join(dataDir, 'site.sqlite'))).toBe(false);
    }
  });

  it('a SQLite file left readable by others is made owner-only when opened', async () => {
    // The file engine's own rule, whichever engine this run's servers use.
    const dataDir = join(work, 'older');
    mkdirSync(dataDir);
    const first = openStore({ dataDir });
    await migrateStore(first);
    await first.close();
    chmodSync(join(dataDir, 'site.sqlite'), 0o644);
    const again = openStore({ dataDir });
    try {
      expect(modeOf(join(dataDir, 'site.sqlite'))).toBe(0o600);
      // The same store, its schema intact.
      expect((await migrateStore(again)).applied).toEqual([]);
    } finally {
      await again.close();
    }
  });
});

/** A sign-up, so the store has written (the WAL and its index exist). */
async function registerUserByProcess(url: string): Promise<void> {
  const player = await registerUser(url, 'fresh@private.test');
  expect(player.userData.user_email).toBe('fresh@private.test');
}
