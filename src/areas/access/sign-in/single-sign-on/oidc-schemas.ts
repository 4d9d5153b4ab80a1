import { Type } from '@sinclair/typebox';
import { Nullable } from '../../../../route-kit/schemas.js';

export const SignInProviders = Type.Object({
  workspace: Type.Object({
    name: Type.String({ description: 'The name of the workspace at this host, for the sign-in page to say where one signs in' }),
  }),
  oidc: Type.Object({
    configured: Type.Boolean({ description: 'Whether single sign-on with OpenID Connect is offered (GET /auth/oidc/start)' }),
    name: Nullable(Type.String({ description: 'The provider\'s name to show on the button (OIDC_DISPLAY_NAME, else the issuer\'s host)' })),
  }),
});

/** What the provider sends back: only `state` is read here; openid-client reads the rest from the whole query. */
export const OidcCallbackQuery = Type.Object(
  {
    state: Type.Optional(Type.String({ maxLength: 500 })),
    code: Type.Optional(Type.String({ maxLength: 2000 })),
    iss: Type.Optional(Type.String({ maxLength: 500 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
    error_description: Type.Optional(Type.String({ maxLength: 1000 })),
    session_state: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: true },
);
