import { Type } from '@sinclair/typebox';

export const SignInSettings = Type.Object({
  twoFactorRequired: Type.Boolean({ description: 'Every person signing in to this workspace must have 2FA on' }),
  invitationDomains: Type.Array(Type.String({ maxLength: 253 }), {
    maxItems: 50,
    description: 'Email domains whose people may join as User through single sign-on without an invitation',
  }),
});

export const SignInSettingsUpdate = Type.Object({
  twoFactorRequired: Type.Optional(Type.Boolean()),
  invitationDomains: Type.Optional(SignInSettings.properties.invitationDomains),
});
