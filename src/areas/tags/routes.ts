import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Empty, operation } from '../../route-kit/schemas.js';
import { Tag, TagCreate, TagMap, TagParams, TagUpdate } from './schemas.js';
import { changeTag, createTag, removeTag, workspaceTags } from './service.js';

const TAG = 'Tags';
const NAME =
  '`name` is trimmed and then 1–100 characters, unique in the workspace regardless of case (archived tags included): ' +
  'a name another tag has is 409.';
const NAME_TAKEN = 'Another tag of this workspace has the name, regardless of case (archived ones included)';
const ADMINS = 'Administrators only (a User: 403).';

export const tagRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/tags',
    {
      config: { permission: 'tags:read' },
      schema: operation({
        operationId: 'listTags',
        tag: TAG,
        summary: 'The workspace\'s tags',
        description: 'Every user of the workspace reads every tag, archived ones included (`archived: true`), by id in creation order.',
        response: TagMap,
      }),
    },
    async (request) => {
      const tags = await workspaceTags(app.db, request.actor);
      return Object.fromEntries(tags.map((found) => [found.id, found]));
    },
  );

  app.post(
    '/tags',
    {
      config: { permission: 'tags:create' },
      schema: operation({
        operationId: 'createTag',
        tag: TAG,
        summary: 'Create a tag',
        description: `Every user of the workspace may create one; it starts unarchived. ${NAME}`,
        body: TagCreate,
        response: Type.Ref(Tag),
        errors: { 409: NAME_TAKEN },
      }),
    },
    async (request) => createTag(app.db, request.actor, request.body),
  );

  app.put(
    '/tags/:tagId',
    {
      config: { permission: 'tags:manage' },
      schema: operation({
        operationId: 'updateTag',
        tag: TAG,
        summary: 'Rename, archive or unarchive a tag',
        description:
          `${ADMINS} A partial update: \`name\`, \`archived\` or both; what is left out keeps its value. ${NAME} ` +
          'Renaming a tag to its own name in another case is allowed. An archived tag stays on the activities that carry it ' +
          'and can no longer be put on others.',
        params: TagParams,
        body: TagUpdate,
        response: Type.Ref(Tag),
        errors: { 403: 'Not an administrator', 409: NAME_TAKEN },
      }),
    },
    async (request) => changeTag(app.db, request.actor, request.params.tagId, request.body),
  );

  app.delete(
    '/tags/:tagId',
    {
      config: { permission: 'tags:manage' },
      schema: operation({
        operationId: 'deleteTag',
        tag: TAG,
        summary: 'Delete a tag',
        description: `${ADMINS} Permanent: the tag is taken off every activity that carries it (their time is kept).`,
        params: TagParams,
        response: Empty,
        errors: { 403: 'Not an administrator' },
      }),
    },
    async (request) => {
      await removeTag(app.db, request.actor, request.params.tagId);
      return {};
    },
  );
};
