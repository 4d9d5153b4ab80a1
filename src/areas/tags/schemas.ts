import { Type, type Static } from '@sinclair/typebox';
import { Id, IdMap } from '../../route-kit/schemas.js';

/** The longest tag name, in characters (docs/rules.md §6 Tags). */
export const TAG_NAME_MAX = 100;

const TagName = Type.String({ minLength: 1, maxLength: TAG_NAME_MAX, description: 'Trimmed, 1–100 characters, unique in the workspace regardless of case' });

export const Tag = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    archived: Type.Boolean({ description: 'An archived tag stays on the activities that carry it' }),
  },
  { $id: 'Tag', title: 'Tag' },
);
export type Tag = Static<typeof Tag>;

export const TagMap = IdMap(Type.Ref(Tag), 'The workspace\'s tags by id, archived ones included, in creation order');

export const TagCreate = Type.Object({ name: TagName }, { description: 'A new tag is unarchived. Unknown fields and id are ignored.' });
export type TagCreate = Static<typeof TagCreate>;

export const TagUpdate = Type.Object(
  {
    name: Type.Optional(TagName),
    archived: Type.Optional(Type.Boolean()),
  },
  { description: 'Any subset of the fields; the others keep their values. Unknown and server-owned fields are ignored.' },
);
export type TagUpdate = Static<typeof TagUpdate>;

export const TagParams = Type.Object({ tagId: Id });
