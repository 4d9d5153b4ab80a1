import { api, type Problem, type Schemas } from '../api/client.js';

/** Per tag id, the finished entries that carry the tag and their time in seconds; a tag on none is absent. */
export type TagUsage = Record<string, { entries: number; seconds: number }>;

/**
 * A report by tag of every finished entry the person may see, archived projects and people
 * included, over the whole span a report covers (docs/rules.md §6 Reports, "Period").
 */
const allTimeByTag = (): Schemas['RunReportBody'] => ({
  period: 'custom',
  start: '0001-01-02T00:00:00.000Z',
  end: '9999-12-30T00:00:00.000Z',
  dimensions: ['tag'],
  metrics: ['time'],
  filters: [],
  hideEmptyRows: true,
  showArchivedProjects: true,
  showArchivedMembers: true,
});

/**
 * How many entries carry each tag, in one request: the report's rows are the tags present (an entry
 * with several tags counts in each of theirs; entries with none make the row keyed null).
 */
export async function entriesByTag(): Promise<{ usage: TagUsage } | { problem: Problem }> {
  const answer = await api.POST('/reports/run', { body: allTimeByTag() });
  if (answer.error) return { problem: answer.error };
  const usage: TagUsage = {};
  // JSON was asked for (no format): the other content types are the downloads.
  for (const row of (answer.data as Schemas['ReportResult']).rows) if (row.key) usage[row.key] = { entries: row.entries, seconds: row.time ?? 0 };
  return { usage };
}
