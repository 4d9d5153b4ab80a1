import { invalid } from '../domain/errors.js';

/** Workspace domains (docs/rules.md §2): one lowercase DNS label of 3–63 characters, not reserved, not punycode (`xn--`). */
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/;
export const RESERVED_DOMAINS = new Set(['api', 'www', 'app', 'admin', 'mail', 'static', 'docs']);

export const isWellFormedDomain = (domain: string): boolean => DOMAIN_LABEL.test(domain);

/** Throws 422 for a malformed, reserved or punycode domain. */
export function assertUsableDomain(domain: string, pointer = '/body/domain'): void {
  if (!isWellFormedDomain(domain)) {
    throw invalid(pointer, 'must be 3–63 characters of a-z, 0-9 and -, not starting or ending with -');
  }
  if (RESERVED_DOMAINS.has(domain)) throw invalid(pointer, `must not be "${domain}", a reserved name`);
  // Punycode (IDNA) labels render as other scripts in browsers: look-alikes of other workspaces' names.
  if (domain.startsWith('xn--')) throw invalid(pointer, 'must not start with "xn--" (internationalized, punycode domains are not accepted)');
}
