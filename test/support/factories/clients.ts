import type { Harness, TestUser, TestWorkspace } from '../harness.js';
import { send } from './records.js';

type Body = Record<string, unknown>;

/** A client, created by the workspace's admin; archived on demand. */
export async function client(h: Harness, ws: TestWorkspace, options: { by?: TestUser; archived?: boolean } & Body = {}) {
  const { by = ws.admin, archived, ...body } = options;
  const created = await send(h, ws, by, 'POST', '/api/clients', { name: `Client ${Math.random().toString(36).slice(2)}`, ...body });
  return archived ? send(h, ws, by, 'PUT', `/api/clients/${created.id}`, { archived: true }) : created;
}
