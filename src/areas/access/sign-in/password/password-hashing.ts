import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

/**
 * Argon2id with OWASP's minimum parameters (docs/rules.md §7 Passwords): 19 MiB of memory, two
 * passes, one lane. @node-rs/argon2 runs each hash on libuv's thread pool, off the event loop.
 */
// Algorithm is a const enum the package does not export at run time: Argon2id is its value 2.
const ARGON2ID = 2 as Algorithm.Argon2id;
export const PASSWORD_HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The form a password is hashed in: Unicode NFKC, so the same password typed on two keyboards is the same. */
const canonical = (password: string): string => password.normalize('NFKC');

export const hashPassword = (password: string): Promise<string> => hash(canonical(password), PASSWORD_HASH_OPTIONS);

let dummy: Promise<string> | undefined;

/**
 * Checks a password against an account's digest. Without one (an unknown email, an account that
 * has no password) it checks against a digest of a random secret with the same parameters, so the
 * answer takes as long and is false: the timing does not tell whether the account exists.
 */
export async function passwordMatches(passwordHash: string | null, password: string): Promise<boolean> {
  dummy ??= hashPassword(randomBytes(32).toString('base64url'));
  const digest = passwordHash ?? (await dummy);
  try {
    const matches = await verify(digest, canonical(password));
    return matches && passwordHash !== null;
  } catch {
    return false;
  }
}
