import { api } from '../api/client.js';

/** How much time is on something about to be deleted: its entries (counted up to 2,000) and their length. */
export interface Tracked {
  entries: number;
  ms: number;
  /** More entries than were counted. */
  more: boolean;
}

const COUNTED = 2000;

/** The entries GET /activities lists for the filter (a project's, a task's), for a deletion's confirmation. */
export async function trackedBy(query: { projectId?: string; taskId?: string }): Promise<Tracked> {
  const answer = await api.GET('/activities', { params: { query: { ...query, limit: String(COUNTED) } } });
  const list = Object.values(answer.data ?? {});
  const ms = list.reduce((sum, a) => sum + ((a.endedAt ? Date.parse(a.endedAt) : Date.now()) - Date.parse(a.startedAt)), 0);
  return { entries: list.length, ms, more: list.length >= COUNTED };
}
