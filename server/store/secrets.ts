import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from './engine';

/** The server's 32-byte secrets: every instance of one store shares them (table server_secrets). */
export const SECRET_NAMES = ['jwt-secret', 'wallet-key', 'code-key', 'refresh-key'] as const;
type SecretName = (typeof SECRET_NAMES)[number];
export type ServerSecrets = Record<SecretName, Buffer>;

/**
 * The secrets of this store, created once by whichever instance asks first (an insert that
 * loses to another instance's reads the winner's). A data folder from before the store held them
 * keeps its files' values, so its tokens and sealed wallet keys stay valid; a file that disagrees
 * with the store refuses the start, naming both.
 */
export async function loadSecrets(
  store: Store,
  dataDir: string,
  now: number,
): Promise<ServerSecrets> {
  const secrets = {} as ServerSecrets;
  for (const name of SECRET_NAMES) {
    const fromFile = store.engine === 'sqlite' ? legacyFile(dataDir, name) : undefined;
    const offered = (fromFile ?? randomBytes(32)).toString('base64');
    await store.db
      .insertInto('server_secrets')
      .values({ name, value: offered, created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await store.db
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    const value = Buffer.from(row.value, 'base64');
    if (value.length !== 32)
      throw new Error(`The secret ${name} in ${store.location} is not 32 bytes`);
    if (fromFile && !fromFile.equals(value))
      throw new Error(
        `The secret ${name} in ${join(dataDir, name)} differs from the one in ${store.location}; remove the file to use the store's, or restore the matching database`,
      );
    secrets[name] = value;
  }
  return secrets;
}

function legacyFile(dataDir: string, name: string): Buffer | undefined {
  const file = join(dataDir, name);
  if (!existsSync(file)) return undefined;
  const stored = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  return stored.length === 32 ? stored : undefined;
}
