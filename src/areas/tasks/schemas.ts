import { Type, type Static } from '@sinclair/typebox';
import { Id, IdMap, Name, Nullable } from '../../route-kit/schemas.js';

const Billable = Nullable(
  Type.Boolean({ description: 'Whether time on the task is billable; null (the default): the project\'s `billable` decides' }),
);

export const Task = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String({ description: 'The project the task belongs to; a task never moves to another project' }),
    name: Type.String(),
    archived: Type.Boolean({ description: 'An archived task stays on the activities that carry it' }),
    billable: Billable,
  },
  { $id: 'Task', title: 'Task' },
);
export type Task = Static<typeof Task>;

export const TaskMap = IdMap(Type.Ref(Task), 'The project\'s tasks by id, archived ones included, in creation order');

export const TaskCreate = Type.Object(
  {
    name: Name,
    billable: Type.Optional(Billable),
  },
  { description: 'A new task is unarchived; `billable` defaults to null. Unknown and server-owned fields (id, projectId, archived) are ignored.' },
);
export type TaskCreate = Static<typeof TaskCreate>;

export const TaskUpdate = Type.Object(
  {
    name: Type.Optional(Name),
    archived: Type.Optional(Type.Boolean()),
    billable: Type.Optional(Billable),
  },
  { description: 'Any subset of the fields; the others keep their values. null for billable hands it back to the project. Unknown and server-owned fields (id, projectId) are ignored.' },
);
export type TaskUpdate = Static<typeof TaskUpdate>;

export const ProjectTasksParams = Type.Object({ projectId: Id });
export const TaskParams = Type.Object({ projectId: Id, taskId: Id });
