import type { Db, Trx } from '../../db/database.js';
import { withConstraintProblems } from '../../db/errors.js';
import type { Actor } from '../../domain/actor.js';
import { forbidden, notFound } from '../../domain/errors.js';
import { permits } from '../../domain/policy.js';
import { recordChange } from '../changes/index.js';
import { readableProject } from '../projects/index.js';
import { deleteTask, findTask, insertTask, insertTaskRows, listTasks, selectTaskForBooking, updateTask, type TaskChanges } from './repository.js';
import { cleanTaskName, taskNameTaken, unknownTask } from './rules.js';
import type { Task, TaskCreate, TaskUpdate } from './schemas.js';

/**
 * The project's id when the actor may write its tasks (docs/rules.md §6 Tasks): 404 when they cannot
 * read the project, 403 when they read it without administering it.
 */
async function writableProject(db: Db, actor: Actor, projectId: string): Promise<string> {
  const { project, administers } = await readableProject(db, actor, projectId);
  if (!permits(actor, 'tasks:write', { projectRelation: administers ? 'admin' : 'member' })) {
    throw forbidden('Only administrators and the project\'s admins may write its tasks.');
  }
  return project.id;
}

/** Every task of a project the actor may read, archived ones included, in creation order. */
export async function projectTasks(db: Db, actor: Actor, projectId: string): Promise<Task[]> {
  const { project } = await readableProject(db, actor, projectId);
  return listTasks(db, actor.organizationId, project.id);
}

/** The workspace's task of this id, whatever its project, held until the booking's transaction ends (see selectTaskForBooking). */
export const findTaskForBooking = (db: Db, organizationId: string, taskId: string): Promise<Task | undefined> =>
  selectTaskForBooking(db, organizationId, taskId);

export async function task(db: Db, actor: Actor, projectId: string, taskId: string): Promise<Task> {
  const { project } = await readableProject(db, actor, projectId);
  const found = await findTask(db, actor.organizationId, project.id, taskId);
  if (!found) throw unknownTask();
  return found;
}

/** A new, unarchived task of the project; a name the project has regardless of case is 409. */
export async function createTask(db: Db, actor: Actor, projectId: string, body: TaskCreate): Promise<Task> {
  const name = cleanTaskName(body.name);
  const { organizationId } = actor;
  const id = await writableProject(db, actor, projectId);
  return withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        const created = await insertTask(trx, organizationId, id, { name, billable: body.billable ?? null });
        await recordChange(trx, { organizationId, type: 'task.created', actorId: actor.userId, data: created });
        return created;
      }),
    // tasks_name_unique decides, also between two creations of one name at the same moment; a project
    // deleted meanwhile fails the foreign key.
    { unique: () => taskNameTaken(name), foreignKey: () => notFound('project') },
  );
}

/** A partial update of the project's task; fields left out keep their values. */
export async function changeTask(db: Db, actor: Actor, projectId: string, taskId: string, body: TaskUpdate): Promise<Task> {
  const changes: TaskChanges = {};
  if (body.name !== undefined) changes.name = cleanTaskName(body.name);
  if (body.archived !== undefined) changes.archived = body.archived;
  if (body.billable !== undefined) changes.billable = body.billable;
  const { organizationId } = actor;
  const id = await writableProject(db, actor, projectId);
  return withConstraintProblems(
    () =>
      db.transaction().execute(async (trx) => {
        if (!(await updateTask(trx, organizationId, id, taskId, changes))) throw unknownTask();
        const updated = (await findTask(trx, organizationId, id, taskId))!;
        await recordChange(trx, { organizationId, type: 'task.updated', actorId: actor.userId, data: updated });
        return updated;
      }),
    { unique: () => taskNameTaken(changes.name!) },
  );
}

/** Deletes the task for good (docs/rules.md §6 Tasks). */
export async function removeTask(db: Db, actor: Actor, projectId: string, taskId: string): Promise<void> {
  const { organizationId } = actor;
  const id = await writableProject(db, actor, projectId);
  await db.transaction().execute(async (trx) => {
    if (!(await deleteTask(trx, organizationId, id, taskId))) throw unknownTask();
    // The project decides who reads the event; only the id is published.
    await recordChange(trx, { organizationId, type: 'task.deleted', actorId: actor.userId, data: { id: taskId, projectId: id } });
  });
}

/** Adds the tasks an import brings, in the import's transaction (docs/rules.md §6 Imports). */
export const addImportedTasks = (trx: Trx, organizationId: string, tasks: ReadonlyArray<{ id: string; projectId: string; name: string }>): Promise<void> =>
  insertTaskRows(trx, organizationId, tasks);
