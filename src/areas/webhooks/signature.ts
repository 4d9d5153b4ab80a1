import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature scheme (docs/webhooks.md "Verifying a delivery"):
 * `Timetrack-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">[,v1=…]`, one v1 per
 * secret that signs (two during a rotation's grace period).
 */
export const SIGNATURE_HEADER = 'timetrack-signature';

export const hmacOf = (secret: string, timestamp: number, body: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

export function signatureHeader(secrets: string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${hmacOf(secret, timestamp, body)}`)].join(',');
}

/** How old a delivery's timestamp may be when the example verifier checks it. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type Verification = { ok: true; timestamp: number } | { ok: false; reason: string };

/**
 * The example verifier a receiver runs (docs/webhooks.md copies it): the raw body as received, the
 * header, the secret. Rejects a header without a timestamp or a v1, a timestamp further than
 * `toleranceSeconds` from now (a replayed delivery), and a body no v1 matches.
 */
export function verifyWebhookSignature(
  body: string,
  header: string | undefined,
  secret: string,
  options: { now?: Date; toleranceSeconds?: number } = {},
): Verification {
  if (!header) return { ok: false, reason: 'no signature header' };
  const parts = header.split(',').map((part) => part.trim().split('='));
  const t = parts.find(([key]) => key === 't')?.[1];
  const signatures = parts.filter(([key, value]) => key === 'v1' && value).map(([, value]) => value);
  const timestamp = Number(t);
  if (!t || !Number.isInteger(timestamp) || signatures.length === 0) return { ok: false, reason: 'malformed signature header' };
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    return { ok: false, reason: 'timestamp outside the tolerance' };
  }
  const expected = Buffer.from(hmacOf(secret, timestamp, body), 'hex');
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { ok: true, timestamp } : { ok: false, reason: 'no signature matches' };
}
