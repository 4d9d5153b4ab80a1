import { Type, type Static } from '@sinclair/typebox';
import { Id, IdMap, Name, Notes, Nullable, StringEnum } from '../../route-kit/schemas.js';
import { ROLES } from '../../domain/actor.js';

const Avatar = Type.String({ maxLength: 2048, description: 'Image URL (or other image reference), up to 2,048 characters' });
const ClientRef = Nullable(
  Type.String({ maxLength: 64, description: 'An unarchived client of this workspace (422 otherwise), or null for none' }),
);
const Color = Type.String({
  pattern: '^#[0-9a-f]{6}$',
  maxLength: 7,
  description: 'Lowercase `#rrggbb` (anything else is 422). Left out on creation: the next color of the palette (see createProject)',
});

export const Project = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    archived: Type.Boolean(),
    billable: Type.Boolean({ description: 'The default `billable` of new activities on the project' }),
    avatar: Nullable(Avatar),
    clientId: Nullable(Type.String({ description: 'The project\'s client; always present, null when none' })),
    color: Type.String({ description: 'Lowercase `#rrggbb`; always present' }),
    notes: Type.Optional(Type.String()),
  },
  { $id: 'Project', title: 'Project' },
);
export type Project = Static<typeof Project>;

export const ProjectMap = IdMap(
  Type.Ref(Project),
  'Projects by id, in creation order: all of them for an administrator, otherwise those the caller is an unarchived member of',
);

export const ProjectCreate = Type.Object(
  {
    name: Name,
    billable: Type.Optional(Type.Boolean({ description: 'Default false' })),
    notes: Type.Optional(Notes),
    avatar: Type.Optional(Nullable(Avatar)),
    clientId: Type.Optional(ClientRef),
    color: Type.Optional(Color),
  },
  { description: 'Names are unique per workspace, compared case-insensitively after trimming (409).' },
);
export type ProjectCreate = Static<typeof ProjectCreate>;

export const ProjectUpdate = Type.Object(
  {
    name: Type.Optional(Name),
    notes: Type.Optional(Notes),
    billable: Type.Optional(Type.Boolean()),
    archived: Type.Optional(Type.Boolean({ description: 'An archived project takes no new activities' })),
    avatar: Type.Optional(Nullable(Avatar)),
    clientId: Type.Optional(ClientRef),
    color: Type.Optional(Color),
  },
  { description: 'Any subset of the fields. Unknown and server-owned fields are ignored. null for clientId unsets the client.' },
);
export type ProjectUpdate = Static<typeof ProjectUpdate>;

export const ProjectParams = Type.Object({ projectId: Id });

const Role = StringEnum(ROLES, 'Administrator: a project admin, who manages the project, its members and their revenue rates');
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 });
const Title = Type.String({ maxLength: 200 });

export const ProjectMember = Type.Object(
  {
    id: Type.String({ description: 'Member id' }),
    projectId: Type.String(),
    userId: Type.String(),
    role: Role,
    archived: Type.Boolean({ description: 'An archived member keeps the record but loses access to the project' }),
    assignedBy: Type.Optional(Type.String({ description: 'The user who added the member; left out once that user is deleted' })),
    notes: Type.Optional(Type.String()),
    title: Type.Optional(Type.String()),
    tags: Nullable(Tags),
  },
  { $id: 'ProjectMember', title: 'ProjectMember' },
);
export type ProjectMember = Static<typeof ProjectMember>;

export const ProjectMemberMap = IdMap(Type.Ref(ProjectMember), 'The project\'s members by member id, in the order they were added');

export const MemberCreate = Type.Object(
  {
    userId: Type.String({ maxLength: 64, description: 'A user of this workspace' }),
    role: Type.Optional(Role),
    title: Type.Optional(Title),
    notes: Type.Optional(Notes),
    tags: Type.Optional(Nullable(Tags)),
  },
  {
    description:
      'userId names an unarchived user of this workspace (422 otherwise); one member per user per project (409). ' +
      'role defaults to User; assignedBy is the caller.',
  },
);
export type MemberCreate = Static<typeof MemberCreate>;

export const MemberUpdate = Type.Object(
  {
    role: Type.Optional(Role),
    title: Type.Optional(Title),
    notes: Type.Optional(Notes),
    tags: Type.Optional(Nullable(Tags)),
    archived: Type.Optional(Nullable(Type.Boolean({ description: 'null reads as false (not archived)' }))),
  },
  { description: 'Any subset of the fields. userId, projectId and assignedBy cannot change.' },
);
export type MemberUpdate = Static<typeof MemberUpdate>;

export const MemberParams = Type.Object({ projectId: Id, memberId: Id });
