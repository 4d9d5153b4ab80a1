import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Nullable, ProjectSchema, renderedEntry, renderedFieldsOf, UserSchema } from '../support/src.js';

const kinds = (fields: Array<{ key: string; as: string }>) => fields.map(({ key, as }) => `${key}:${as}`);
const sameColumns = (keys: string[]) => Object.fromEntries(keys.map((key) => [key, key]));

describe('renderedFieldsOf', () => {
  it('reads each property of a record schema in order, with the kind the serializer gives it', () => {
    expect(kinds(renderedFieldsOf(ProjectSchema, sameColumns(Object.keys(ProjectSchema.properties)) as never))).toEqual([
      'id:text',
      'name:text',
      'archived:boolean',
      'billable:boolean',
      'avatar:nullable',
      'clientId:nullable',
      'color:text',
      'notes:optional',
    ]);
    expect(kinds(renderedFieldsOf(UserSchema, sameColumns(Object.keys(UserSchema.properties)) as never))).toEqual([
      'id:text',
      'email:text',
      'role:text',
      'archived:boolean',
      'joinedAt:nullable',
      'name:optional',
      'avatar:nullable',
      'phone:nullable',
      'title:nullable',
    ]);
    const Union = Type.Object({ id: Type.String(), note: Type.Union([Type.String(), Type.Null()]) });
    expect(kinds(renderedFieldsOf(Union, { id: 'id', note: 'note' }))).toEqual(['id:text', 'note:nullable']);
    const Listed = Type.Object({ id: Type.String(), tagIds: Type.Array(Type.String()) });
    expect(kinds(renderedFieldsOf(Listed, { id: 'id', tagIds: 'tag_ids' }))).toEqual(['id:text', 'tagIds:json']);
  });

  it('fails loudly on a property without a column, a column without a property, and a kind it cannot render', () => {
    const Entity = Type.Object({ id: Type.String(), name: Type.String() }, { $id: 'Entity' });
    expect(() => renderedFieldsOf(Entity, { id: 'id' } as never)).toThrow('Rendered columns of Entity: no column for name');
    expect(() => renderedFieldsOf(Entity, { id: 'id', name: 'name', size: 'size' } as never)).toThrow('no property size');
    for (const odd of [Type.Number(), Type.Optional(Type.Boolean()), Nullable(Type.Boolean()), Type.Array(Type.Number()), Type.Optional(Type.Array(Type.String()))]) {
      const Odd = Type.Object({ id: Type.String(), odd });
      expect(() => renderedFieldsOf(Odd, { id: 'id', odd: 'odd' })).toThrow('odd is of a kind the database does not render');
    }
  });

  it('refuses an entry that would begin with an optional field', () => {
    const fields = renderedFieldsOf(Type.Object({ note: Type.Optional(Type.String()) }), { note: 'note' });
    expect(() => renderedEntry('postgres', 'id', fields)).toThrow('cannot begin with an optional field');
  });
});
