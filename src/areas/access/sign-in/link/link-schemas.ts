import { Type } from '@sinclair/typebox';
import { StringEnum, Timestamp } from '../../../../route-kit/schemas.js';

export const OneTimeBody = Type.Object({
  token: Type.String({ maxLength: 200, description: 'The one-time token of a mailed link (tto_…)' }),
});

export const ONE_TIME_PURPOSES = ['support', 'sign-in', 'invitation', 'password-reset'] as const;

export const OneTimeSession = Type.Object({
  domain: Type.String({ description: 'Workspace subdomain' }),
  email: Type.String({ format: 'email', description: 'Who the session acts as: the person signed in, or the resolving administrator of a support link' }),
  token: Type.Optional(Type.String({ description: 'A session access token (tts_…); also set as the cookie timetrack_access_token. Absent when a second factor is required' })),
  expiresAt: Timestamp('When the session token stops working, or (with twoFactorRequired) when the challenge does'),
  twoFactorRequired: Type.Optional(Type.Boolean({ description: 'Present (true) when the account has 2FA on: no session yet, send `challenge` with a code to POST /auth/two-factor/verify' })),
  challenge: Type.Optional(Type.String({ description: 'The second-factor challenge (`ttc_…`), with twoFactorRequired' })),
  purpose: StringEnum(ONE_TIME_PURPOSES, 'What the link was for: a support sign-in (one hour), a sign-in link, an invitation, a password reset'),
});

export const EmailBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254, description: 'An email address (trimmed; case does not matter)' }),
});
