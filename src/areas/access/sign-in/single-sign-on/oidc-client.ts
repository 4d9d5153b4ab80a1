import type { Configuration } from 'openid-client';
import type { OidcConfig } from '../../../../config.js';

const configurations = new WeakMap<OidcConfig, Promise<Configuration>>();

/** openid-client, loaded on the first single sign-on: a deployment without OIDC_ISSUER never holds it. */
export const openidClient = () => import('openid-client');

/**
 * The provider's configuration, discovered once per deployment (its metadata and keys are fetched by
 * openid-client as needed). A failed discovery is not kept: the next sign-in tries again. A provider
 * reached over plain http (a local one, as in the tests) is allowed only because the operator
 * configured it so.
 */
export function providerOf(oidc: OidcConfig): Promise<Configuration> {
  let found = configurations.get(oidc);
  if (!found) {
    const issuer = new URL(oidc.issuer);
    found = openidClient().then((client) =>
      client.discovery(issuer, oidc.clientId, oidc.clientSecret, undefined, {
        ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
        timeout: 10,
      }),
    );
    found.catch(() => configurations.delete(oidc));
    configurations.set(oidc, found);
  }
  return found;
}
