import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../../../route-kit/schemas.js';

export const PasswordSignInBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 1024, description: 'The account\'s password' }),
});

export const PasswordSession = Type.Object({
  domain: Type.String({ description: 'Workspace subdomain' }),
  email: Type.String({ format: 'email' }),
  token: Type.Optional(Type.String({ description: 'A session access token (tts_…); also set as the cookie timetrack_access_token. Absent when a second factor is required' })),
  expiresAt: Timestamp('When the session token stops working, or (with twoFactorRequired) when the challenge does'),
  twoFactorRequired: Type.Optional(Type.Boolean({ description: 'Present (true) when the account has 2FA on: no session yet, send `challenge` with a code to POST /auth/two-factor/verify' })),
  challenge: Type.Optional(Type.String({ description: 'The second-factor challenge (`ttc_…`), with twoFactorRequired' })),
});

export const PasswordChange = Type.Object({
  currentPassword: Type.Optional(Type.String({ maxLength: 1024, description: 'Required when the account has a password, except right after a link sign-in' })),
  newPassword: Type.String({ minLength: 12, maxLength: 256, description: '12 to 256 characters (Unicode code points), no other rule' }),
});
