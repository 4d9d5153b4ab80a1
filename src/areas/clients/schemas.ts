import { Type, type Static } from '@sinclair/typebox';
import { Id, IdMap, Name, Notes, Nullable } from '../../route-kit/schemas.js';

export const Client = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    archived: Type.Boolean({ description: 'An archived client takes no new projects; its projects keep it' }),
    notes: Nullable(Type.String({ description: 'Always present; null when none' })),
  },
  { $id: 'Client', title: 'Client' },
);
export type Client = Static<typeof Client>;

export const ClientMap = IdMap(
  Type.Ref(Client),
  'Clients by id, in creation order: all of them for an administrator, otherwise the clients of the projects the caller is an unarchived member of',
);

export const ClientCreate = Type.Object(
  {
    name: Name,
    notes: Type.Optional(Nullable(Notes)),
  },
  { description: 'Names are trimmed, 1–200 characters, unique per workspace regardless of case (409). Unknown fields and id are ignored.' },
);
export type ClientCreate = Static<typeof ClientCreate>;

export const ClientUpdate = Type.Object(
  {
    name: Type.Optional(Name),
    notes: Type.Optional(Nullable(Notes)),
    archived: Type.Optional(Type.Boolean()),
  },
  { description: 'Any subset of the fields; the others keep their values. null for notes removes them.' },
);
export type ClientUpdate = Static<typeof ClientUpdate>;

export const ClientParams = Type.Object({ clientId: Id });
