import { normalizeEmail } from '../../../lib/email.js';
import type { Archive } from '../archive.js';
import type { ReadEntry, ReadResult } from '../rows.js';
import type { ImportProblem } from '../schemas.js';

/*
 * solidtime's organization export (docs/rules.md §6 Imports): a ZIP of CSV files, one per kind of
 * record, joined by their ids: members (people, with email), clients, projects, tasks, tags, and time
 * entries whose instants are UTC and whose billable rate is in cents. Each entry's key is its id there.
 */

type Row = Record<string, string>;

async function byId(archive: Archive, name: string): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  for await (const row of archive.csv(name)) rows.set(row.id, row);
  return rows;
}

const instant = (text: string): string | undefined => {
  const at = Date.parse(text);
  return text.trim() === '' || Number.isNaN(at) ? undefined : new Date(at).toISOString();
};

/** Every time entry of a solidtime export, read as the CSV sources' rows are (`progress` hears how many now and then). */
export async function readSolidtime(archive: Archive, progress: (counts: { rows?: number; rowsDone?: number }) => Promise<void>): Promise<ReadResult> {
  const missing = ['time_entries.csv', 'members.csv'].filter((name) => !archive.names().includes(name));
  if (missing.length > 0) {
    const fatal = missing.map((name) => ({ row: 0, column: name, code: 'missing-column', message: `The archive has no ${name}: it is no solidtime export.` }));
    return { entries: [], errors: [], fatal, rows: 0 };
  }
  const members = await byId(archive, 'members.csv');
  const clients = await byId(archive, 'clients.csv');
  const projects = await byId(archive, 'projects.csv');
  const tasks = await byId(archive, 'tasks.csv');
  const tags = await byId(archive, 'tags.csv');
  let currency: string | null = null;
  for await (const organization of archive.csv('organizations.csv')) currency = organization.currency?.trim() || null;

  const entries: ReadEntry[] = [];
  const errors: ImportProblem[] = [];
  let row = 0;
  for await (const entry of archive.csv('time_entries.csv')) {
    row++;
    const fail = (column: string, code: string, message: string) => errors.push({ row, column, code, message });
    const member = members.get(entry.member_id);
    const startedAt = instant(entry.start ?? '');
    const endedAt = instant(entry.end ?? '');
    if (!member?.email) fail('member_id', 'user-unknown', `No member ${entry.member_id} in members.csv.`);
    if (startedAt === undefined) fail('start', 'invalid-time', `"${entry.start}" is not an instant.`);
    if ((entry.end ?? '').trim() === '') fail('end', 'invalid-time', 'The entry is still running: it has no end.');
    else if (endedAt === undefined) fail('end', 'invalid-time', `"${entry.end}" is not an instant.`);
    if (startedAt !== undefined && endedAt !== undefined && endedAt < startedAt) fail('end', 'end-before-start', 'The entry ends before it starts.');
    const rate = (entry.billable_rate ?? '').trim();
    if (rate !== '' && !/^\d+$/.test(rate)) fail('billable_rate', 'invalid-number', `"${rate}" is not an amount in cents.`);
    if (row % 5000 === 0) await progress({ rowsDone: row });
    if (errors.at(-1)?.row === row || !member?.email || startedAt === undefined || endedAt === undefined) continue;
    const project = projects.get(entry.project_id ?? '');
    const client = clients.get(project?.client_id ?? entry.client_id ?? '');
    let tagIds: unknown = [];
    try {
      tagIds = JSON.parse(entry.tags || '[]');
    } catch {
      tagIds = [];
    }
    entries.push({
      row,
      person: { email: normalizeEmail(member.email), name: member.name?.trim() || null },
      client: client?.name ?? null,
      project: project?.name ?? null,
      task: tasks.get(entry.task_id ?? '')?.name ?? null,
      description: entry.description ?? '',
      billable: entry.billable === 'true' ? true : entry.billable === 'false' ? false : null,
      startedAt,
      endedAt,
      tags: (Array.isArray(tagIds) ? tagIds : []).map((id) => tags.get(String(id))?.name).filter((name): name is string => name !== undefined),
      // Cents in solidtime: exact as a decimal of two places.
      revenueRate: rate === '' ? null : Number(rate) / 100,
      costRate: null,
      currency,
      key: `solidtime:${entry.id}`,
    });
  }
  return { entries, errors, fatal: [], rows: row };
}
