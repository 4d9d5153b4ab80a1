import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Secrets the service must read back (a TOTP secret) are kept sealed: AES-256-GCM under a key
 * derived (HKDF-SHA256) from the server secret, as `v1.<iv>.<ciphertext>.<tag>` in base64url. What is
 * sealed names its purpose, bound as additional data, so a value sealed for one purpose cannot be
 * passed off as another's.
 */
export interface Sealer {
  seal(purpose: string, plain: string): string;
  /** The plain text, or undefined when the value was not sealed under this key for this purpose. */
  open(purpose: string, sealed: string): string | undefined;
  /**
   * A keyed digest (HMAC-SHA256) of a short secret that is only ever compared (a recovery code): a
   * dump of the database without the key cannot be searched for the codes.
   */
  digest(purpose: string, value: string): string;
}

export function sealerOf(secret: string): Sealer {
  const key = Buffer.from(hkdfSync('sha256', secret, 'timetrack', 'secrets at rest v1', 32));
  const macKey = Buffer.from(hkdfSync('sha256', secret, 'timetrack', 'digests v1', 32));
  return {
    digest: (purpose, value) => createHmac('sha256', macKey).update(`${purpose}\0${value}`).digest('hex'),
    seal(purpose, plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(purpose));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, body, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(purpose, sealed) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== 'v1' || !iv || body === undefined || !tag) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(purpose));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}

const sealers = new WeakMap<object, Sealer>();

/**
 * The sealer of the server secret (SECRET_KEY, else the key file), made once per configuration. Every
 * sealed value of the service (TOTP secrets, OIDC verifiers, webhook signing secrets) is under it.
 */
export function sealerFor(config: { secretKey: string | undefined; secretKeyFile: string }): Sealer {
  let sealer = sealers.get(config);
  if (!sealer) {
    sealer = sealerOf(config.secretKey ?? secretFromFile(config.secretKeyFile));
    sealers.set(config, sealer);
  }
  return sealer;
}

/**
 * The server secret kept in a file when SECRET_KEY is not set: made once (random, mode 0600) by the
 * first process that needs it, read by every later one.
 */
export function secretFromFile(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(path, 'utf8').trim();
}
