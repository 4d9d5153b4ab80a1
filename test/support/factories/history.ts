import { randomUUID } from 'node:crypto';
import type { Harness, TestUser, TestWorkspace } from '../harness.js';
import { toDbBool } from '../src.js';

/** How a history is laid out: `count` activities of `lastingMs` each, one every `everyMs` from `from`. */
export interface HistoryLayout {
  count: number;
  from: string;
  everyMs: number;
  lastingMs: number;
  /** The i-th activity's name (default `Entry i`). */
  name?: (i: number) => string;
  /** The i-th activity's project (default none). */
  projectId?: (i: number) => string | null;
}

/**
 * Closed activities of the user written straight into the table, a thousand a statement: the
 * histories of tens of thousands of entries that listings and exports are tested on (the API would
 * take minutes). Each row as createActivity shapes it.
 */
export async function history(h: Harness, ws: TestWorkspace, user: TestUser, layout: HistoryLayout): Promise<void> {
  const start = Date.parse(layout.from);
  for (let done = 0; done < layout.count; done += 1000) {
    const rows = Array.from({ length: Math.min(1000, layout.count - done) }, (_, k) => {
      const i = done + k;
      const at = new Date(start + i * layout.everyMs);
      return {
        id: randomUUID(),
        organization_id: ws.organizationId,
        user_id: user.userId,
        project_id: layout.projectId?.(i) ?? null,
        name: layout.name?.(i) ?? `Entry ${i}`,
        billable: toDbBool(false),
        started_at: at.toISOString(),
        ended_at: new Date(at.getTime() + layout.lastingMs).toISOString(),
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      };
    });
    await h.app.db.insertInto('activities').values(rows).execute();
  }
}
