import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Empty, operation } from '../../route-kit/schemas.js';
import { ProjectTasksParams, Task, TaskCreate, TaskMap, TaskParams, TaskUpdate } from './schemas.js';
import { changeTask, createTask, projectTasks, removeTask, task } from './service.js';

const TAG = 'Tasks';
const READERS =
  'Whoever may read the project reads its tasks (administrators, the project\'s unarchived members); ' +
  'anyone else gets 404, as for the project. A task id of another project is 404.';
const WRITERS = 'Administrators and the project\'s admins (a plain member: 403).';
const NAMES =
  '`name` is trimmed and then 1–200 characters, unique within the project regardless of case (archived tasks included): ' +
  'a name another task of the project has is 409; other projects may have it.';
const NAME_TAKEN = 'Another task of this project has the name, regardless of case (archived ones included)';
const NOT_ADMIN = 'A member of the project who does not administer it';

export const taskRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:projectId/tasks',
    {
      config: { permission: 'tasks:read' },
      schema: operation({
        operationId: 'listProjectTasks',
        tag: TAG,
        summary: 'The tasks of a project',
        description: `${READERS} Archived tasks are listed too (\`archived: true\`), by id in creation order.`,
        params: ProjectTasksParams,
        response: TaskMap,
      }),
    },
    async (request) => {
      const tasks = await projectTasks(app.db, request.actor, request.params.projectId);
      return Object.fromEntries(tasks.map((found) => [found.id, found]));
    },
  );

  app.post(
    '/projects/:projectId/tasks',
    {
      config: { permission: 'tasks:write' },
      schema: operation({
        operationId: 'createProjectTask',
        tag: TAG,
        summary: 'Create a task of a project',
        description:
          `${WRITERS} It starts unarchived; \`billable\` left out is null (the project's \`billable\` decides). ${NAMES} ` +
          'An archived project\'s tasks can still be written (archiving stops new time on it, not its editing).',
        params: ProjectTasksParams,
        body: TaskCreate,
        response: Type.Ref(Task),
        errors: { 403: NOT_ADMIN, 409: NAME_TAKEN },
      }),
    },
    async (request) => createTask(app.db, request.actor, request.params.projectId, request.body),
  );

  app.get(
    '/projects/:projectId/tasks/:taskId',
    {
      config: { permission: 'tasks:read' },
      schema: operation({
        operationId: 'getProjectTask',
        tag: TAG,
        summary: 'One task of a project',
        description: READERS,
        params: TaskParams,
        response: Type.Ref(Task),
      }),
    },
    async (request) => task(app.db, request.actor, request.params.projectId, request.params.taskId),
  );

  app.put(
    '/projects/:projectId/tasks/:taskId',
    {
      config: { permission: 'tasks:write' },
      schema: operation({
        operationId: 'updateProjectTask',
        tag: TAG,
        summary: 'Rename, archive or change the billable of a task',
        description:
          `${WRITERS} A partial update: any of \`name\`, \`archived\` and \`billable\`; what is left out keeps its value, ` +
          `\`billable: null\` hands it back to the project. A task stays in its project. ${NAMES} ` +
          'Renaming a task to its own name in another case is allowed. An archived task stays on the activities that carry it.',
        params: TaskParams,
        body: TaskUpdate,
        response: Type.Ref(Task),
        errors: { 403: NOT_ADMIN, 409: NAME_TAKEN },
      }),
    },
    async (request) => changeTask(app.db, request.actor, request.params.projectId, request.params.taskId, request.body),
  );

  app.delete(
    '/projects/:projectId/tasks/:taskId',
    {
      config: { permission: 'tasks:write' },
      schema: operation({
        operationId: 'deleteProjectTask',
        tag: TAG,
        summary: 'Delete a task',
        description:
          `${WRITERS} Permanent. The time booked on it is kept: its activities stay, without the task. ` +
          'Deleting the project deletes its tasks (one `project.deleted` event, no `task.deleted` for each).',
        params: TaskParams,
        response: Empty,
        errors: { 403: NOT_ADMIN },
      }),
    },
    async (request) => {
      await removeTask(app.db, request.actor, request.params.projectId, request.params.taskId);
      return {};
    },
  );
};
