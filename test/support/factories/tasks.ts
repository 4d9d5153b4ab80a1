import type { Harness, TestUser, TestWorkspace } from '../harness.js';
import { idOf, send, type Ref } from './records.js';

type Body = Record<string, unknown>;

/** A task of the project, created by the workspace's admin unless `by` says otherwise; archived on demand. */
export async function task(h: Harness, ws: TestWorkspace, options: { project: Ref; by?: TestUser; archived?: boolean } & Body) {
  const { project, by = ws.admin, archived, ...body } = options;
  const base = `/api/projects/${idOf(project)}/tasks`;
  const created = await send(h, ws, by, 'POST', base, { name: `Task ${Math.random().toString(36).slice(2)}`, ...body });
  return archived ? send(h, ws, by, 'PUT', `${base}/${created.id}`, { archived: true }) : created;
}
