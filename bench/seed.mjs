// Bulk seeding for the benchmark: realistic workspaces written straight through the data layer.
//
// Workspaces, users, API keys, projects, members, tasks and tags are made with the service's own
// repository functions (the rows the API makes). Activities, a million of them, are written as
// multi-row INSERTs in large transactions, each row shaped exactly as createActivity shapes it
// (trimmed name, billable from the project, canonical UTC timestamps, a UUIDv7 id of its creation
// time, its tags both in tag_ids and in activity_tags). The data are deterministic: fixed
// pseudo-random sequences, relative to the time the seed runs.
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { openStore } from '../dist/db/database.js';
import { migrateToLatest } from '../dist/db/migrate.js';
import { createWorkspace } from '../dist/areas/workspace/index.js';
import { accountOfEmail } from '../dist/areas/access/index.js';
import { hashPassword } from '../dist/areas/access/sign-in/password/password-hashing.js';
import { insertApiKey } from '../dist/areas/access/api-keys/api-key-repository.js';
import { setAccountPassword } from '../dist/areas/access/sign-in/password/password-repository.js';
import { insertMember, insertProject } from '../dist/areas/projects/repository.js';
import { insertTag } from '../dist/areas/tags/repository.js';
import { insertTask } from '../dist/areas/tasks/repository.js';
import { createUser } from '../dist/areas/users/repository.js';
import { toDbBool } from '../dist/db/values.js';
import { API_KEY_PREFIX, newToken } from '../dist/lib/tokens.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SPAN = 3 * 365 * DAY;

const NAMES = [
  'Code review',
  'Sprint planning',
  'Customer call',
  'Bug triage',
  'Réunion d\'équipe',
  'Übersetzung der Dokumentation',
  'Design: "checkout" flow',
  'Deploy & monitoring',
  'Support ticket',
  'Writing tests',
  'Onboarding',
  'Research — caching',
];

/** Tasks of each project and tags of each workspace. */
const TASKS_PER_PROJECT = 4;
const TAGS = 36;
/** The share of a workspace's entries carrying two tags (every entry of the reader does). */
const TAGGED_SHARE = 1 / 3;
/** The share of the other entries on a project that carry one of its tasks (every entry of the reader does). */
const TASK_SHARE = 0.5;

/** mulberry32: a small deterministic generator, so every run seeds the same data. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const iso = (ms) => new Date(ms).toISOString();

/** The one user of each workspace who signs in with a password (the sign-in case), hashed as PUT /auth/password hashes. */
const PASSWORD_USER = 8;
const PASSWORD = 'correct horse battery staple';

/** A rate in EUR from `now` on (before every seeded activity), shaped as the rates area writes it. */
const rateRow = (organizationId, now, value) => ({
  id: uuidv7(),
  organization_id: organizationId,
  currency: 'EUR',
  from_at: now,
  to_at: null,
  tax_rate: 0,
  value,
  created_at: now,
  updated_at: now,
});

/**
 * Seeds one workspace.
 * @param {import('kysely').Kysely<any>} db
 * @param {{domain: string, users: number, projects: number, activities: number, heavyShare: number,
 *   runningTimers: number, seed: number, now: number, log?: (line: string) => void}} spec
 */
export async function seedWorkspace(db, dialect, spec) {
  const rnd = random(spec.seed);
  // Tasks and tags (and the projects of the reader's entries that had none) draw from a sequence of
  // their own, so that the rest of the data is what it was without them.
  const rndLabels = random(spec.seed + 1000);
  const created = await createWorkspace(db, {
    domain: spec.domain,
    name: `Bench ${spec.domain}`,
    adminEmail: `admin@${spec.domain}.bench.example.com`,
    adminName: 'Bench Admin',
  });
  const organizationId = created.organizationId;
  const users = [{ id: created.userId, token: created.apiKey, role: 'Administrator', projects: [] }];
  for (let i = 1; i < spec.users; i++) {
    const accountId = await accountOfEmail(db, `user${i}@${spec.domain}.bench.example.com`);
    const id = await createUser(db, { organizationId, accountId, role: i < 3 ? 'Administrator' : 'User', name: `User ${i}` });
    const token = newToken(API_KEY_PREFIX);
    await insertApiKey(db, { organizationId, userId: id, name: 'bench', token });
    users.push({ id, token, role: i < 3 ? 'Administrator' : 'User', projects: [] });
    if (i === PASSWORD_USER) await setAccountPassword(db, accountId, await hashPassword(PASSWORD), iso(spec.now));
  }
  // Roles in the bench: the reader, the writer and the heavy user are plain Users, project admins nowhere.
  const reader = users[5];
  const writer = users[6];
  const heavy = users[7];
  const plain = new Set([reader, writer, heavy]);
  const tags = [];

  await db.transaction().execute(async (trx) => {
    for (let p = 0; p < spec.projects; p++) {
      const now = iso(spec.now - SPAN - DAY + p * 1000);
      const billable = p % 2 === 0;
      const name = `Project ${String(p).padStart(3, '0')}`;
      const values = { name, billable, avatar: null, notes: p % 3 === 0 ? `Notes of ${name}` : null };
      const project = { id: await insertProject(trx, organizationId, values, now), billable, tasks: [] };
      for (let t = 0; t < TASKS_PER_PROJECT; t++) {
        project.tasks.push((await insertTask(trx, organizationId, project.id, { name: `Task ${t + 1} of ${name}`, billable: null })).id);
      }
      // Six members; the first, never the reader or writer, is the project's administrator.
      const members = new Set();
      while (members.size < 6) {
        const user = users[Math.floor(rnd() * users.length)];
        if (members.size === 0 && plain.has(user)) continue;
        members.add(user);
      }
      let first = true;
      for (const user of members) {
        const role = first ? 'Administrator' : 'User';
        const memberId = await insertMember(trx, { organizationId, projectId: project.id, userId: user.id, role, assignedBy: created.userId }, now);
        first = false;
        user.projects.push(project);
        // Every membership bills at a rate of its own, open-ended over the whole history (the reports' revenue).
        await trx.insertInto('revenue_rates').values({ ...rateRow(organizationId, now, 50 + (p % 7) * 10), project_id: project.id, member_id: memberId }).execute();
      }
    }
    for (let t = 0; t < TAGS; t++) tags.push((await insertTag(trx, organizationId, `Tag ${String(t).padStart(2, '0')}`)).id);
    // Every user costs a rate of their own (the reports' cost).
    for (const [i, user] of users.entries()) {
      const now = iso(spec.now - SPAN - DAY);
      await trx.insertInto('cost_rates').values({ ...rateRow(organizationId, now, 30 + (i % 5) * 5), user_id: user.id }).execute();
    }
  });

  // Activities: each user's history is a sequence of non-overlapping entries spread evenly over the
  // three years before now, interleaved across users in time order (the order the rows would be written).
  const heavyCount = Math.round(spec.activities * spec.heavyShare);
  const perUser = users.map((user) =>
    user === heavy ? heavyCount : Math.floor((spec.activities - heavyCount) / (users.length - 1)),
  );
  perUser[0] += spec.activities - perUser.reduce((a, b) => a + b, 0);
  // Every entry of the reader carries two tags: the others so many that a third of all entries do.
  const readerCount = perUser[users.indexOf(reader)];
  const othersTagged = Math.max(0, (spec.activities * TAGGED_SHARE - readerCount) / (spec.activities - readerCount));
  const twoTags = () => {
    const first = Math.floor(rndLabels() * tags.length);
    return [tags[first], tags[(first + 1 + Math.floor(rndLabels() * (tags.length - 1))) % tags.length]];
  };
  const start = spec.now - SPAN - 2 * HOUR;
  const running = new Set(users.slice(10, 10 + spec.runningTimers));
  const readerStarts = [];
  const readerIds = [];
  const writerIds = [];
  const chunkMs = 7 * DAY;
  // Rows per INSERT, within each store's bound on a statement's parameters (SQLite 32,766, PostgreSQL 65,535).
  const parameters = dialect === 'sqlite' ? 30_000 : 60_000;
  let tagged = 0;
  let written = 0;
  for (let chunk = start; chunk < start + SPAN; chunk += chunkMs) {
    const rows = [];
    const links = [];
    users.forEach((user, u) => {
      const count = perUser[u];
      const slot = SPAN / count;
      const first = Math.max(0, Math.ceil((chunk - start) / slot));
      for (let i = first; i < count && start + i * slot < chunk + chunkMs; i++) {
        const slotStart = start + i * slot;
        const startedAt = Math.floor(slotStart + rnd() * slot * 0.15);
        const endedAt = Math.floor(startedAt + Math.min(slot * 0.8, (20 + rnd() * 180) * 60_000));
        const drawn = user.projects.length > 0 && rnd() < 0.8;
        // Every entry of the reader is on a project, so that each can carry a task.
        const project = drawn
          ? user.projects[Math.floor(rnd() * user.projects.length)]
          : user === reader
            ? user.projects[Math.floor(rndLabels() * user.projects.length)]
            : null;
        const isRunning = running.has(user) && i === count - 1;
        const createdMs = isRunning ? startedAt : endedAt;
        const id = uuidv7({ msecs: createdMs });
        const task = project && (user === reader || rndLabels() < TASK_SHARE) ? project.tasks[Math.floor(rndLabels() * project.tasks.length)] : null;
        const tagIds = user === reader || rndLabels() < othersTagged ? twoTags() : [];
        for (const tagId of tagIds) links.push({ activity_id: id, tag_id: tagId, organization_id: organizationId });
        if (tagIds.length > 0) tagged++;
        const row = {
          id,
          organization_id: organizationId,
          user_id: user.id,
          project_id: project ? project.id : null,
          task_id: task,
          tag_ids: JSON.stringify(tagIds),
          name: NAMES[Math.floor(rnd() * NAMES.length)],
          billable: toDbBool(project ? project.billable : false),
          started_at: iso(startedAt),
          ended_at: isRunning ? null : iso(endedAt),
          created_at: iso(createdMs),
          updated_at: iso(createdMs),
        };
        rows.push(row);
        if (user === reader) {
          readerStarts.push(row.started_at);
          readerIds.push(row.id);
        }
        if (user === writer) writerIds.push(row.id);
      }
    });
    rows.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
    await db.transaction().execute(async (trx) => {
      const batch = Math.floor(parameters / Object.keys(rows[0] ?? { id: 0 }).length);
      for (let i = 0; i < rows.length; i += batch) {
        await trx.insertInto('activities').values(rows.slice(i, i + batch)).execute();
      }
      const linkBatch = Math.floor(parameters / 3);
      for (let i = 0; i < links.length; i += linkBatch) {
        await trx.insertInto('activity_tags').values(links.slice(i, i + linkBatch)).execute();
      }
    });
    written += rows.length;
    if (spec.log && Math.floor((written - rows.length) / 200_000) !== Math.floor(written / 200_000)) {
      spec.log(`  ${spec.domain}: ${written} activities`);
    }
  }

  // Periods of the reader's history answering exactly n entries, in the middle of it.
  const window = (n) => {
    const i = Math.floor(readerStarts.length / 2) - Math.floor(n / 2);
    return { from: readerStarts[i], to: readerStarts[i + n], entries: n };
  };
  const pick = (ids, n) => {
    const step = Math.max(1, Math.floor(ids.length / n));
    const out = [];
    for (let i = 0; i < ids.length && out.length < n; i += step) out.push(ids[i]);
    return out;
  };
  const writerProject = writer.projects[0];
  // A calendar month and year (UTC) in the middle of the history: the report cases' periods.
  const middle = new Date(spec.now - SPAN / 2);
  const monthStart = Date.UTC(middle.getUTCFullYear(), middle.getUTCMonth(), 1);
  const reportPeriods = {
    month: { start: iso(monthStart), end: iso(Date.UTC(middle.getUTCFullYear(), middle.getUTCMonth() + 1, 1)) },
    year: { start: iso(monthStart), end: iso(Date.UTC(middle.getUTCFullYear() + 1, middle.getUTCMonth(), 1)) },
    all: { start: iso(start - DAY), end: iso(spec.now + DAY) },
  };
  return {
    reportPeriods,
    domain: spec.domain,
    organizationId,
    activities: spec.activities,
    projects: spec.projects,
    labels: { tasks: spec.projects * TASKS_PER_PROJECT, tags: TAGS, tagged },
    admin: { id: created.userId, token: created.apiKey },
    reader: { id: reader.id, token: reader.token, activityIds: pick(readerIds, 1000), entries: readerStarts.length },
    writer: { id: writer.id, token: writer.token, projectId: writerProject ? writerProject.id : null, activityIds: pick(writerIds, 200) },
    heavy: { id: heavy.id, token: heavy.token, entries: heavyCount },
    signIn: { email: `user${PASSWORD_USER}@${spec.domain}.bench.example.com`, password: PASSWORD },
    windows: { small: window(100), large: window(1000) },
  };
}

/**
 * Migrates a fresh database and seeds the workspaces; returns what the cases need (tokens, ids, periods).
 * @param {string} url a DATABASE_URL
 * @param {Array<{domain: string, activities: number, heavyShare?: number}>} workspaces
 */
export async function seed(url, workspaces, log = () => {}) {
  const store = openStore(url);
  try {
    await migrateToLatest(store);
    const now = Date.now();
    const out = [];
    let seedNumber = 1;
    for (const ws of workspaces) {
      const started = Date.now();
      out.push(
        await seedWorkspace(store.db, store.dialect, {
          domain: ws.domain,
          users: 50,
          projects: 200,
          activities: ws.activities,
          heavyShare: ws.heavyShare ?? 0,
          runningTimers: 10,
          seed: seedNumber++,
          now,
          log,
        }),
      );
      log(`  seeded ${ws.domain}: ${ws.activities} activities in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    // PostgreSQL: planner statistics, as autovacuum gathers them after a bulk load. SQLite: none, as the
    // service never runs ANALYZE (with them, SQLite would re-plan every statement bound to a range).
    if (store.dialect === 'postgres') await sql`vacuum analyze`.execute(store.db);
    return out;
  } finally {
    await store.close();
  }
}
