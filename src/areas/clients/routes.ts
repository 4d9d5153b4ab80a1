import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Empty, operation } from '../../route-kit/schemas.js';
import { Client, ClientCreate, ClientMap, ClientParams, ClientUpdate } from './schemas.js';
import { changeClient, client, createClient, removeClient, workspaceClients } from './service.js';

const TAG = 'Clients';
const READERS =
  'Administrators read every client; a User reads the clients of the projects they are an unarchived member of, ' +
  'and any other client is 404 to them.';
const NAMES = 'Names are trimmed, 1–200 characters, and unique in the workspace regardless of case (409).';
const NAME_RULE = 'A `name` blank once trimmed';

export const clientRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/clients',
    {
      config: { permission: 'clients:read' },
      schema: operation({
        operationId: 'listClients',
        tag: TAG,
        summary: 'The clients the caller may see',
        description: `${READERS} Archived clients are listed too.`,
        response: ClientMap,
      }),
    },
    async (request) => {
      const clients = await workspaceClients(app.db, request.actor);
      return Object.fromEntries(clients.map((found) => [found.id, found]));
    },
  );

  app.post(
    '/clients',
    {
      config: { permission: 'clients:write' },
      schema: operation({
        operationId: 'createClient',
        tag: TAG,
        summary: 'Create a client',
        description: `Administrators only. ${NAMES} notes are null when left out.`,
        body: ClientCreate,
        response: Type.Ref(Client),
        errors: { 403: 'Not an administrator', 409: 'A client of that name exists', 422: NAME_RULE },
      }),
    },
    async (request) => createClient(app.db, request.actor, request.body),
  );

  app.get(
    '/clients/:clientId',
    {
      config: { permission: 'clients:read' },
      schema: operation({
        operationId: 'getClient',
        tag: TAG,
        summary: 'One client',
        description: `${READERS} An unknown id is 404.`,
        params: ClientParams,
        response: Type.Ref(Client),
      }),
    },
    async (request) => client(app.db, request.actor, request.params.clientId),
  );

  app.put(
    '/clients/:clientId',
    {
      config: { permission: 'clients:write' },
      schema: operation({
        operationId: 'updateClient',
        tag: TAG,
        summary: 'Change a client\'s name, notes or archived',
        description:
          `Administrators only. A partial update: any of name, notes and archived, the others are kept; null notes removes them. ${NAMES} ` +
          'An archived client keeps its projects but can be given to no project (422 at /body/clientId on the project).',
        params: ClientParams,
        body: ClientUpdate,
        response: Type.Ref(Client),
        errors: { 403: 'Not an administrator', 409: 'A client of that name exists', 422: NAME_RULE },
      }),
    },
    async (request) => changeClient(app.db, request.actor, request.params.clientId, request.body),
  );

  app.delete(
    '/clients/:clientId',
    {
      config: { permission: 'clients:write' },
      schema: operation({
        operationId: 'deleteClient',
        tag: TAG,
        summary: 'Delete a client',
        description:
          'Administrators only. Permanent. A client that still has projects (archived ones included) cannot be deleted: 409; ' +
          'archive it, or move its projects to another client (or none) first.',
        params: ClientParams,
        response: Empty,
        errors: { 403: 'Not an administrator', 409: 'The client still has projects' },
      }),
    },
    async (request) => {
      await removeClient(app.db, request.actor, request.params.clientId);
      return {};
    },
  );
};
