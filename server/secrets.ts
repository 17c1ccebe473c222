import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

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
