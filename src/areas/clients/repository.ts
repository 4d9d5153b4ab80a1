import type { Insertable, Selectable, Updateable } from 'kysely';
import { dialectOf, type Db } from '../../db/database.js';
import { readableRows, type ReadableScope } from '../../db/record-scopes.js';
import type { ClientsTable } from '../../db/tables/clients.js';
import { fromDbBool, toDbBool } from '../../db/values.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { clientNameKey } from './rules.js';
import type { Client } from './schemas.js';

type ClientRow = Selectable<ClientsTable>;

/** The workspace's clients the reader may read, in creation order. */
export async function listClients(db: Db, organizationId: string, scope: ReadableScope): Promise<Client[]> {
  const readable = readableRows(scope, { organizationId, clientColumn: 'clients.id' });
  let query = db.selectFrom('clients').selectAll().where('organization_id', '=', organizationId);
  if (readable !== null) query = query.where(readable);
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map(toClient);
}

/** The client, when the workspace has it and the reader may read it. */
export async function findClient(db: Db, organizationId: string, id: string, scope: ReadableScope = { all: true }): Promise<Client | undefined> {
  const readable = readableRows(scope, { organizationId, clientColumn: 'clients.id' });
  let query = db.selectFrom('clients').selectAll().where('id', '=', id).where('organization_id', '=', organizationId);
  if (readable !== null) query = query.where(readable);
  const row = await query.executeTakeFirst();
  return row && toClient(row);
}

/**
 * Whether the client is archived (undefined: the workspace has no such client), its row held in
 * share mode on PostgreSQL for the rest of the transaction: it cannot be archived or deleted before
 * the project that names it commits.
 */
export async function selectClientArchived(db: Db, organizationId: string, id: string): Promise<boolean | undefined> {
  let query = db.selectFrom('clients').select('archived').where('id', '=', id).where('organization_id', '=', organizationId);
  if (dialectOf(db) === 'postgres') query = query.forShare();
  const row = await query.executeTakeFirst();
  return row && fromDbBool(row.archived);
}

export interface ClientValues {
  name: string;
  notes: string | null;
}

export async function insertClient(db: Db, organizationId: string, values: ClientValues): Promise<Client> {
  const now = nowIso();
  const row: Insertable<ClientsTable> = {
    id: newId(),
    organization_id: organizationId,
    name: values.name,
    name_key: clientNameKey(values.name),
    archived: toDbBool(false),
    notes: values.notes,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('clients').values(row).execute();
  return { id: row.id, name: values.name, archived: false, notes: values.notes };
}

export type ClientChanges = Partial<ClientValues & { archived: boolean }>;

/** Applies the given changes; false when the workspace has no such client. */
export async function updateClient(db: Db, organizationId: string, id: string, changes: ClientChanges): Promise<boolean> {
  const set: Updateable<ClientsTable> = { updated_at: nowIso() };
  if (changes.name !== undefined) {
    set.name = changes.name;
    set.name_key = clientNameKey(changes.name);
  }
  if (changes.notes !== undefined) set.notes = changes.notes;
  if (changes.archived !== undefined) set.archived = toDbBool(changes.archived);
  const result = await db.updateTable('clients').set(set).where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Whether some project of the workspace has the client. */
export async function selectClientHasProjects(db: Db, organizationId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('client_id', '=', id)
    .where('organization_id', '=', organizationId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteClient(db: Db, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('clients').where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

function toClient(row: ClientRow): Client {
  return { id: row.id, name: row.name, archived: fromDbBool(row.archived), notes: row.notes };
}

/** Clients an import brings, with the ids its plan gave them (docs/rules.md §6 Imports). */
export async function insertClientRows(db: Db, organizationId: string, clients: ReadonlyArray<{ id: string; name: string }>): Promise<void> {
  const now = nowIso();
  for (let i = 0; i < clients.length; i += 500) {
    await db
      .insertInto('clients')
      .values(
        clients.slice(i, i + 500).map((client) => ({
          id: client.id,
          organization_id: organizationId,
          name: client.name,
          name_key: clientNameKey(client.name),
          archived: toDbBool(false),
          notes: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}
