import type { Selectable, Updateable } from 'kysely';
import { dialectOf, type Db } from '../../db/database.js';
import type { TasksTable } from '../../db/tables/tasks.js';
import { fromDbBool, toDbBool } from '../../db/values.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { taskNameKey } from './rules.js';
import type { Task } from './schemas.js';

type TaskRow = Pick<Selectable<TasksTable>, 'id' | 'project_id' | 'name' | 'archived' | 'billable'>;

const COLUMNS = ['id', 'project_id', 'name', 'archived', 'billable'] as const;

export async function listTasks(db: Db, organizationId: string, projectId: string): Promise<Task[]> {
  const rows = await db
    .selectFrom('tasks')
    .select(COLUMNS)
    .where('project_id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toTask);
}

/** The task when it belongs to the project (a task of another project is not found). */
export async function findTask(db: Db, organizationId: string, projectId: string, id: string): Promise<Task | undefined> {
  const row = await db
    .selectFrom('tasks')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row && toTask(row);
}

/**
 * The workspace's task of this id, whatever its project, for an activity about to carry it: on
 * PostgreSQL the row is held with a key-share lock (the one the activity's foreign key takes), so
 * the task cannot be deleted between this check and the write.
 */
export async function selectTaskForBooking(db: Db, organizationId: string, id: string): Promise<Task | undefined> {
  const query = db.selectFrom('tasks').select(COLUMNS).where('id', '=', id).where('organization_id', '=', organizationId);
  const row = await (dialectOf(db) === 'postgres' ? query.forKeyShare() : query).executeTakeFirst();
  return row && toTask(row);
}

export async function insertTask(db: Db, organizationId: string, projectId: string, fields: { name: string; billable: boolean | null }): Promise<Task> {
  const now = nowIso();
  const id = newId();
  await db
    .insertInto('tasks')
    .values({
      id,
      organization_id: organizationId,
      project_id: projectId,
      name: fields.name,
      name_key: taskNameKey(fields.name),
      archived: toDbBool(false),
      billable: fields.billable === null ? null : toDbBool(fields.billable),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { id, projectId, name: fields.name, archived: false, billable: fields.billable };
}

export interface TaskChanges {
  name?: string;
  archived?: boolean;
  billable?: boolean | null;
}

/** Applies the given changes; false when the project has no such task. */
export async function updateTask(db: Db, organizationId: string, projectId: string, id: string, changes: TaskChanges): Promise<boolean> {
  const set: Updateable<TasksTable> = { updated_at: nowIso() };
  if (changes.name !== undefined) {
    set.name = changes.name;
    set.name_key = taskNameKey(changes.name);
  }
  if (changes.archived !== undefined) set.archived = toDbBool(changes.archived);
  if (changes.billable !== undefined) set.billable = changes.billable === null ? null : toDbBool(changes.billable);
  const result = await db
    .updateTable('tasks')
    .set(set)
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteTask(db: Db, organizationId: string, projectId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('tasks')
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    archived: fromDbBool(row.archived),
    billable: row.billable === null ? null : fromDbBool(row.billable),
  };
}

/** Tasks an import brings, with the ids its plan gave them (docs/rules.md §6 Imports): billable null, as the project says. */
export async function insertTaskRows(db: Db, organizationId: string, tasks: ReadonlyArray<{ id: string; projectId: string; name: string }>): Promise<void> {
  const now = nowIso();
  for (let i = 0; i < tasks.length; i += 500) {
    await db
      .insertInto('tasks')
      .values(
        tasks.slice(i, i + 500).map((task) => ({
          id: task.id,
          organization_id: organizationId,
          project_id: task.projectId,
          name: task.name,
          name_key: taskNameKey(task.name),
          archived: toDbBool(false),
          billable: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}
