import { Type } from '@sinclair/typebox';
import { Id, IdMap, Name, Nullable, StringEnum, Timestamp } from '../../../route-kit/schemas.js';
import { ROLES } from '../../../domain/actor.js';

export const AuthSnapshot = Type.Object({
  domain: Type.String({ description: 'Workspace subdomain' }),
  email: Type.String({ format: 'email' }),
  token: Type.String({ description: 'The bearer token in use' }),
  userId: Type.String({ description: 'The calling user in this workspace: their id in GET /users (a support session: the user it acts as)' }),
  role: StringEnum(ROLES, 'The calling user\'s workspace role, as in GET /users (a support session: the role of the user it acts as)'),
});

export const ApiKey = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    prefix: Type.String({ description: 'The first characters of the key, to tell keys apart' }),
    createdAt: Timestamp(),
    lastUsedAt: Nullable(Timestamp('Kept to the minute')),
  },
  { $id: 'ApiKey', title: 'ApiKey' },
);

export const ApiKeyMap = IdMap(Type.Ref(ApiKey), 'The caller\'s API keys by id; never their secrets');

export const ApiKeyCreate = Type.Object({ name: Name });

export const ApiKeyCreated = Type.Object({
  ...ApiKey.properties,
  key: Type.String({ description: 'The secret: shown this once, never again' }),
});

export const ApiKeyParams = Type.Object({ apiKeyId: Id });

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

export const SIGN_IN_METHODS = ['support', 'link', 'invitation', 'password-reset', 'password', 'oidc'] as const;

export const Session = Type.Object(
  {
    id: Type.String(),
    method: StringEnum(SIGN_IN_METHODS, 'How the session began'),
    createdAt: Timestamp(),
    lastUsedAt: Timestamp('Kept to the minute; the idle timeout counts from here'),
    expiresAt: Timestamp('When the session ends at the latest'),
    userAgent: Nullable(Type.String({ description: 'The browser or client that began it' })),
    current: Type.Boolean({ description: 'The session of this request' }),
  },
  { $id: 'Session', title: 'Session' },
);

export const SessionMap = IdMap(Type.Ref(Session), 'The sessions of the caller\'s account by id, oldest first; never their tokens');

export const SessionParams = Type.Object({ sessionId: Id });

export const EmailBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254, description: 'An email address (trimmed; case does not matter)' }),
});

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
