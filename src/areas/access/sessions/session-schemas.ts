import { Type } from '@sinclair/typebox';
import { Id, IdMap, Nullable, StringEnum, Timestamp } from '../../../route-kit/schemas.js';

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
