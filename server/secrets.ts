import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A 32-byte secret kept in the data folder (created on first start, readable by the owner only),
 * so tokens and stored wallet keys stay valid across restarts.
 */
export function loadSecret(dataDir: string, name: string): Buffer {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, name);
  if (existsSync(file)) {
    const stored = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (stored.length === 32) return stored;
  }
  const fresh = randomBytes(32);
  writeFileSync(file, fresh.toString('base64'), { mode: 0o600 });
  return fresh;
}

/** A random opaque token, URL-safe. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Tokens and codes are stored as hashes only. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** AES-256-GCM for wallet secret keys at rest: `iv.tag.ciphertext`, base64url parts. */
export function seal(key: Buffer, plain: Uint8Array): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

export function unseal(key: Buffer, sealed: string): Uint8Array {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) throw new Error('Malformed sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return new Uint8Array(Buffer.concat([decipher.update(body), decipher.final()]));
}
