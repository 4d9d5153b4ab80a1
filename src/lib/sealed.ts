import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';

/**
 * Secrets the service must use again (a webhook's signing secret), kept sealed at rest with
 * AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url. The key is the SHA-256 of the operator's key
 * text; without one, a built-in text (docs/webhooks.md "Secrets at rest" says what that protects).
 */
const BUILT_IN_KEY = 'timetrack built-in sealing key: set WEBHOOK_SECRET_KEY';

const keyOf = (keyText: string | undefined): Buffer => Buffer.from(hash('sha256', keyText ?? BUILT_IN_KEY, 'hex'), 'hex');

export function seal(plain: string, keyText: string | undefined): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(keyText), iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

/** The plain text, or throws when the key is not the one it was sealed with. */
export function unseal(sealed: string, keyText: string | undefined): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(keyText), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
