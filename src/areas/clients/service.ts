import type { Db, Trx } from '../../db/database.js';
import { withConstraintProblems } from '../../db/errors.js';
import type { Actor } from '../../domain/actor.js';
import { notFound } from '../../domain/errors.js';
import { readerScope } from '../../domain/policy.js';
import { recordChange } from '../changes/index.js';
import {
  insertClientRows,
  deleteClient,
  findClient,
  insertClient,
  listClients,
  selectClientArchived,
  selectClientHasProjects,
  updateClient,
  type ClientChanges,
} from './repository.js';
import { cleanClientName, clientNameTaken, clientStillHasProjects, unusableClient } from './rules.js';
import type { Client, ClientCreate, ClientUpdate } from './schemas.js';

/** The clients the actor reads (docs/rules.md §6 Clients): every one for an administrator, a User those of their projects. */
export function workspaceClients(db: Db, actor: Actor): Promise<Client[]> {
  return listClients(db, actor.organizationId, readerScope(actor, 'clients:read'));
}

/** One client the actor may read; any other, another workspace's included, is 404. */
export async function client(db: Db, actor: Actor, id: string): Promise<Client> {
  const found = await findClient(db, actor.organizationId, id, readerScope(actor, 'clients:read'));
  if (!found) throw notFound('client');
  return found;
}

export async function createClient(db: Db, actor: Actor, body: ClientCreate): Promise<Client> {
  const name = cleanClientName(body.name);
  const { organizationId } = actor;
  return withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        const created = await insertClient(trx, organizationId, { name, notes: body.notes ?? null });
        await recordChange(trx, { organizationId, type: 'client.created', actorId: actor.userId, data: created });
        return created;
      }),
    // clients_name_unique decides under concurrency: two creations of one name cannot both commit.
    { unique: () => clientNameTaken(name) },
  );
}

/** A partial update; renaming onto another client's name is 409. Archiving is an update too. */
export async function changeClient(db: Db, actor: Actor, id: string, body: ClientUpdate): Promise<Client> {
  const changes: ClientChanges = {};
  if (body.name !== undefined) changes.name = cleanClientName(body.name);
  if (body.notes !== undefined) changes.notes = body.notes;
  if (body.archived !== undefined) changes.archived = body.archived;
  const { organizationId } = actor;
  return withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        if (!(await updateClient(trx, organizationId, id, changes))) throw notFound('client');
        const updated = (await findClient(trx, organizationId, id))!;
        await recordChange(trx, { organizationId, type: 'client.updated', actorId: actor.userId, data: updated });
        return updated;
      }),
    { unique: () => clientNameTaken(changes.name!) },
  );
}

/**
 * Deletes a client that no project has (409 otherwise). A project given the client meanwhile breaks
 * the foreign key of its client_id: the same 409.
 */
export async function removeClient(db: Db, actor: Actor, id: string): Promise<void> {
  const { organizationId } = actor;
  await withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        if (!(await findClient(trx, organizationId, id))) throw notFound('client');
        if (await selectClientHasProjects(trx, organizationId, id)) throw clientStillHasProjects();
        await deleteClient(trx, organizationId, id);
        await recordChange(trx, { organizationId, type: 'client.deleted', actorId: actor.userId, data: { id } });
      }),
    { foreignKey: clientStillHasProjects },
  );
}

/**
 * Checks, in the caller's transaction, that a project may be given the client: one of this workspace,
 * unarchived (422 at /body/clientId otherwise). The client stays so until the transaction ends.
 */
export async function assertClientForProject(trx: Trx, organizationId: string, clientId: string): Promise<void> {
  if ((await selectClientArchived(trx, organizationId, clientId)) !== false) throw unusableClient();
}

/** Adds the clients an import brings, in the import's transaction (docs/rules.md §6 Imports). */
export const addImportedClients = (trx: Trx, organizationId: string, clients: ReadonlyArray<{ id: string; name: string }>): Promise<void> =>
  insertClientRows(trx, organizationId, clients);
