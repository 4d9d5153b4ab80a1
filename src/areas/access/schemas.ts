import { Type } from '@sinclair/typebox';
import { Id, IdMap, Name, Nullable, Timestamp } from '../../http/schemas.js';

export const AuthSnapshot = Type.Object({
  domain: Type.String({ description: 'Workspace subdomain' }),
  email: Type.String({ format: 'email' }),
  token: Type.String({ description: 'The bearer token in use' }),
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
  token: Type.String({ maxLength: 200, description: 'The one-time sign-in token of the support link (tto_…)' }),
});

export const OneTimeSession = Type.Object({
  domain: Type.String({ description: 'Workspace subdomain' }),
  email: Type.String({ format: 'email', description: 'The resolving administrator the session acts as' }),
  token: Type.String({ description: 'A session access token (tts_…), valid for one hour' }),
  expiresAt: Timestamp('When the session token stops working'),
});
