import { Type } from '@sinclair/typebox';
import { Id, IdMap, Name, Nullable, Timestamp } from '../../../route-kit/schemas.js';

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
