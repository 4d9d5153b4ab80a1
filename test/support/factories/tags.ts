import type { Harness, TestUser, TestWorkspace } from '../harness.js';
import { send } from './records.js';

type Body = Record<string, unknown>;

/** A tag, created by the workspace's admin unless `by` says otherwise; archived on demand (by the admin). */
export async function tag(h: Harness, ws: TestWorkspace, options: { by?: TestUser; archived?: boolean } & Body = {}) {
  const { by = ws.admin, archived, ...body } = options;
  const created = await send(h, ws, by, 'POST', '/api/tags', { name: `Tag ${Math.random().toString(36).slice(2)}`, ...body });
  return archived ? send(h, ws, ws.admin, 'PUT', `/api/tags/${created.id}`, { archived: true }) : created;
}
