import type { TrustProxy } from '../config.js';

/** What Fastify's `trustProxy` option takes: off, the proxies' addresses and ranges, or a test of each hop. */
export type TrustProxyOption = false | string[] | ((address: string, hop: number) => boolean);

/**
 * TRUST_PROXY as Fastify's `trustProxy` (docs/rules.md §1 Behind a proxy). A list is handed on as it is. A hop
 * count becomes a test of the hop's position: the peer is hop 0, then X-Forwarded-For from its last entry
 * back, and the first hop not trusted is the client. Fastify itself now reads a bare number as "trust
 * nothing", since a count cannot tell a proxy from a client that reached the port directly: with a count,
 * the port must be reachable through the proxies only (docs/operations.md "Behind a reverse proxy").
 */
export function trustProxyOption(trustProxy: TrustProxy): TrustProxyOption {
  if (typeof trustProxy !== 'number') return trustProxy;
  const hops = trustProxy;
  return (_address, hop) => hop < hops;
}
