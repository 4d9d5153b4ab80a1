import { make } from '../support/factories/index.js';
import { as, ok, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { membership, namedUser } from './run-world.js';

/*
 * The world of the suites of reports by client, task and tag (docs/rules.md §6 Reports, "Clients,
 * tasks and tags"), every record made through the HTTP API.
 */

type Id = { id: string };

export interface CatalogWorld {
  ws: TestWorkspace;
  ada: TestUser;
  bob: TestUser;
  acme: Id;
  globex: Id;
  /** Acme's, billable: Ada earns 100 EUR an hour on it. */
  apollo: Id;
  /** Globex's. */
  zeus: Id;
  /** No client's. */
  solo: Id;
  design: Id;
  build: Id;
  /** Zeus's task, of the same name as Apollo's Design. */
  zeusDesign: Id;
  urgent: Id;
  review: Id;
  /** On no entry. */
  idle: Id;
}

/** A closed activity of `owner`, on a day of July 2026 at 09:00 UTC, for `seconds`, with its task and tags. */
export function tracked(
  h: Harness,
  ws: TestWorkspace,
  options: { owner: TestUser; project?: Id; task?: Id; tags?: Id[]; day: string; seconds: number; name?: string; billable?: boolean },
) {
  const startedAt = `2026-07-${options.day}T09:00:00.000Z`;
  return make.activity(h, ws, {
    owner: options.owner,
    ...(options.project ? { project: options.project } : {}),
    ...(options.task ? { taskId: options.task.id } : {}),
    tagIds: (options.tags ?? []).map((tag) => tag.id),
    name: options.name ?? 'Work',
    startedAt,
    endedAt: new Date(Date.parse(startedAt) + options.seconds * 1000).toISOString(),
    ...(options.billable === undefined ? {} : { billable: options.billable }),
  });
}

/** A tag, created by the workspace's admin. */
export const tag = (h: Harness, ws: TestWorkspace, name: string): Promise<Id> => ok(as(h, ws).post('/api/tags', { name }));

/**
 * Ada (User) in Apollo (Acme's, billable, her revenue rate 100 EUR), Zeus (Globex's) and Solo (no
 * client's); Bob (User) in Zeus. Five entries of July 2026:
 *
 * | # | who   | project | task         | tags           | seconds |
 * |---|-------|---------|--------------|----------------|---------|
 * | 1 | Ada   | Apollo  | Design       | Urgent, Review | 3600    |
 * | 2 | Ada   | Apollo  | Build        | Urgent         | 1800    |
 * | 3 | Bob   | Zeus    | Design (Zeus)| none           | 1200    |
 * | 4 | admin | none    | none         | Review         | 600     |
 * | 5 | Ada   | Solo    | none         | Review         | 900     |
 */
export async function catalogWorld(h: Harness): Promise<CatalogWorld> {
  const ws = await h.workspace();
  const ada = await namedUser(h, ws, 'Ada');
  const bob = await namedUser(h, ws, 'Bob');
  const acme = await make.client(h, ws, { name: 'Acme' });
  const globex = await make.client(h, ws, { name: 'Globex' });
  const apollo = await make.project(h, ws, { name: 'Apollo', clientId: acme.id, billable: true });
  const zeus = await make.project(h, ws, { name: 'Zeus', clientId: globex.id });
  const solo = await make.project(h, ws, { name: 'Solo' });
  const adaOnApollo = await membership(h, ws, apollo, ada);
  await make.revenueRate(h, ws, { project: apollo, member: adaOnApollo, value: 100 });
  await membership(h, ws, zeus, ada);
  await membership(h, ws, solo, ada);
  await membership(h, ws, zeus, bob);
  const design = await make.task(h, ws, { project: apollo, name: 'Design' });
  const build = await make.task(h, ws, { project: apollo, name: 'Build' });
  const zeusDesign = await make.task(h, ws, { project: zeus, name: 'Design' });
  const urgent = await tag(h, ws, 'Urgent');
  const review = await tag(h, ws, 'Review');
  const idle = await tag(h, ws, 'Idle');
  await tracked(h, ws, { owner: ada, project: apollo, task: design, tags: [urgent, review], day: '01', seconds: 3600, name: 'One' });
  await tracked(h, ws, { owner: ada, project: apollo, task: build, tags: [urgent], day: '02', seconds: 1800, name: 'Two' });
  await tracked(h, ws, { owner: bob, project: zeus, task: zeusDesign, day: '03', seconds: 1200, name: 'Three' });
  await tracked(h, ws, { owner: ws.admin, tags: [review], day: '04', seconds: 600, name: 'Four' });
  await tracked(h, ws, { owner: ada, project: solo, tags: [review], day: '05', seconds: 900, name: 'Five' });
  return { ws, ada, bob, acme, globex, apollo, zeus, solo, design, build, zeusDesign, urgent, review, idle };
}

/** Rows as `[label, entries, time]`, children after their parent's, for comparing trees at a glance. */
export function outline(rows: any[], depth = 0): Array<[string, number, number]> {
  return rows.flatMap((row) => [[`${'  '.repeat(depth)}${row.label}`, row.entries, row.time] as [string, number, number], ...outline(row.rows ?? [], depth + 1)]);
}
