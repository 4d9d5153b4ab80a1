import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it: SHA-1, six digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** A code of the step before or after the current one is accepted too (clocks drift). */
const WINDOW = 1;

/** Recovery codes handed out on confirmation; each works once. */
export const RECOVERY_CODE_COUNT = 10;
/** Wrong codes in a row an account may send before code attempts are refused for BLOCK_MINUTES. */
export const MAX_FAILED_CODES = 5;
export const BLOCK_MINUTES = 15;
/** How long a sign-in waits for its second factor, and how many wrong codes one challenge takes. */
export const CHALLENGE_TTL_MINUTES = 5;
export const CHALLENGE_ATTEMPTS = 5;

/** A new TOTP secret (160 bits, as RFC 4226 recommends), in base32 as authenticator apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

const totpOf = (secret: string, label = '', issuer = '') =>
  new TOTP({ issuer, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: PERIOD_SECONDS });

/** The `otpauth://totp/…` URI an authenticator app imports (what the QR code holds). */
export const totpUri = (secret: string, issuer: string, account: string): string => totpOf(secret, account, issuer).toString();

/** The time step of a code valid now (±WINDOW), or undefined for a wrong code. */
export function stepOfCode(secret: string, code: string, nowMs: number): number | undefined {
  const delta = totpOf(secret).validate({ token: code, timestamp: nowMs, window: WINDOW });
  return delta === null ? undefined : TOTP.counter({ period: PERIOD_SECONDS, timestamp: nowMs }) + delta;
}

/** The current code of a secret (what an authenticator app shows; the tests use it). */
export const currentCode = (secret: string, nowMs = Date.now()): string => totpOf(secret).generate({ timestamp: nowMs });

/** Recovery codes: ten characters of an alphabet without look-alikes, shown as `xxxxx-xxxxx`. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A recovery code as typed (any case, with or without the dash or spaces) in the form its digest is made of. */
export const canonicalRecoveryCode = (typed: string): string => typed.toLowerCase().replace(/[\s-]/g, '');
