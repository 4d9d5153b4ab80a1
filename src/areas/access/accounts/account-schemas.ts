import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../../route-kit/schemas.js';
import { ROLES } from '../../../domain/actor.js';

export const AuthSnapshot = Type.Object({
  domain: Type.String({ description: 'Workspace subdomain' }),
  email: Type.String({ format: 'email' }),
  token: Type.String({ description: 'The bearer token in use' }),
  userId: Type.String({ description: 'The calling user in this workspace: their id in GET /users (a support session: the user it acts as)' }),
  role: StringEnum(ROLES, 'The calling user\'s workspace role, as in GET /users (a support session: the role of the user it acts as)'),
});
