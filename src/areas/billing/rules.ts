import type { Config } from '../../config.js';
import { invalid } from '../../domain/errors.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Canonical base64 (RFC 4648 §4): standard alphabet, `=` padding to a multiple of 4, no whitespace
 * or line breaks, and unused bits of the last character zero — so the text is the one encoding of
 * its bytes. The empty string is not a receipt.
 */
export function isCanonicalBase64(text: string): boolean {
  if (text.length === 0 || !BASE64.test(text)) return false;
  return Buffer.from(text, 'base64').toString('base64') === text;
}

export function assertReceipt(text: string): void {
  if (!isCanonicalBase64(text)) {
    throw invalid('/body/receiptBase64', 'must be non-empty canonical base64 (standard alphabet, padded, no whitespace)');
  }
}

/**
 * The checkout address. The service is free, so the "payment provider" is the service's own checkout
 * page: PUBLIC_URL + /billing/checkout with the workspace, product and quantity as query values.
 * Built from the configuration, never from the request's Host or X-Forwarded-* headers.
 */
export function checkoutUrl(config: Config, workspaceDomain: string, product: number, quantity: number): string {
  const query = new URLSearchParams({ workspace: workspaceDomain, product: String(product), quantity: String(quantity) });
  return `${config.publicUrl}/billing/checkout?${query.toString()}`;
}
