import * as client from 'openid-client';
import type { OidcConfig } from '../../config.js';

const configurations = new WeakMap<OidcConfig, Promise<client.Configuration>>();

/**
 * The provider's configuration, discovered once per deployment (its metadata and keys are fetched by
 * openid-client as needed). A failed discovery is not kept: the next sign-in tries again. A provider
 * reached over plain http (a local one, as in the tests) is allowed only because the operator
 * configured it so.
 */
export function providerOf(oidc: OidcConfig): Promise<client.Configuration> {
  let found = configurations.get(oidc);
  if (!found) {
    const issuer = new URL(oidc.issuer);
    found = client.discovery(issuer, oidc.clientId, oidc.clientSecret, undefined, {
      ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
      timeout: 10,
    });
    found.catch(() => configurations.delete(oidc));
    configurations.set(oidc, found);
  }
  return found;
}
