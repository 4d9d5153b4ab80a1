import { expect, it } from 'vitest';
import { as, describeEachStore, ok } from '../support/harness.js';
import { activitiesOf, byName, counts, csv, ended, importFile, postImport } from './support.js';

/** docs/rules.md §6 Imports: a Toggl Track detailed CSV, through POST /imports and the records it makes. */

const HEADER = 'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags';

const TOGGL = csv(
  `\uFEFF${HEADER}`,
  'Ann Lee,ann@example.com,Acme,Website,Design,"Mockups, ""final"" round",Yes,2026-03-02,09:00:00,2026-03-02,10:30:00,01:30:00,"meeting, design"',
  'Ann Lee,ANN@example.com,Acme,Website,,Night shift,No,2026-03-02,23:00:00,2026-03-03,01:00:00,02:00:00,',
  'Bo Chen,bo@example.com,,Internal,,,No,2026-03-03,08:00:00,2026-03-03,08:45:00,00:45:00,Meeting',
);

describeEachStore('Imports from Toggl (docs/rules.md §6 Imports)', (h) => {
  it('POST /imports answers 202 with the queued import and its Location; the import succeeds with the counts of what it created', async () => {
    const ws = await h.workspace();
    const res = await postImport(h, ws, 'toggl', TOGGL, { timeZone: 'Europe/Berlin' });
    expect(res.status).toBe(202);
    expect(res.headers.location).toBe(`/api/imports/${res.body.id}`);
    expect(res.body).toMatchObject({ source: 'toggl', status: 'queued', dryRun: false, mode: 'all', errors: [], warnings: [], period: null, finishedAt: null });
    const done = await ended(h, ws, res.body.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      rows: 3,
      rowsDone: 3,
      created: counts({ clients: 1, projects: 2, tasks: 1, tags: 2, users: 2, members: 2, activities: 3 }),
      skipped: 0,
      errorCount: 0,
      errors: [],
      // From the first entry's start to the last one's end: the period to report on.
      period: { start: '2026-03-02T08:00:00.000Z', end: '2026-03-03T07:45:00.000Z' },
    });
    expect(done.finishedAt).not.toBeNull();
    const listed = await ok(as(h, ws).get('/api/imports'));
    expect(Object.keys(listed)).toEqual([res.body.id]);
  });

  it('entries are read in the time zone, across midnight, with the quoted comma and quote of a description, the task, billable and tags of the file', async () => {
    const ws = await h.workspace();
    await importFile(h, ws, 'toggl', TOGGL, { timeZone: 'Europe/Berlin' });
    const projects = await byName(h, ws, '/api/projects');
    const clients = await byName(h, ws, '/api/clients');
    const tags = await byName(h, ws, '/api/tags');
    expect(Object.keys(projects).sort()).toEqual(['Internal', 'Website']);
    expect(projects.Website.clientId).toBe(clients.Acme.id);
    expect(projects.Internal.clientId).toBeNull();
    // "meeting" and "Meeting" are one tag, named as the file first spells it.
    expect(Object.keys(tags).sort()).toEqual(['design', 'meeting']);
    const tasks = await ok(as(h, ws).get(`/api/projects/${projects.Website.id}/tasks`));
    const design = Object.values(tasks as Record<string, any>)[0];
    expect(design.name).toBe('Design');
    const [mockups, night, internal] = await activitiesOf(h, ws);
    expect(mockups).toMatchObject({
      name: 'Mockups, "final" round',
      startedAt: '2026-03-02T08:00:00.000Z',
      endedAt: '2026-03-02T09:30:00.000Z',
      billable: true,
      projectId: projects.Website.id,
      taskId: design.id,
    });
    expect([...mockups.tagIds].sort()).toEqual([tags.meeting.id, tags.design.id].sort());
    expect(night).toMatchObject({ name: 'Night shift', startedAt: '2026-03-02T22:00:00.000Z', endedAt: '2026-03-03T00:00:00.000Z', billable: false, tagIds: [] });
    expect(night.userId).toBe(mockups.userId);
    // No description: the entry is named after its project.
    expect(internal).toMatchObject({ name: 'Internal', startedAt: '2026-03-03T07:00:00.000Z', endedAt: '2026-03-03T07:45:00.000Z', tagIds: [tags.meeting.id] });
  });

  it('people are matched by email regardless of case: one in the workspace keeps their account; a new one joins as an invited User, mailed nothing without invite=true', async () => {
    const ws = await h.workspace();
    const bo = await h.user(ws, { email: 'bo@example.com' });
    await importFile(h, ws, 'toggl', TOGGL, { timeZone: 'Europe/Berlin' });
    const users = Object.values(await ok(as(h, ws).get('/api/users'))) as any[];
    const ann = users.find((user) => user.email === 'ann@example.com');
    expect(ann).toMatchObject({ role: 'User', name: 'Ann Lee', joinedAt: null, archived: false });
    expect(users.filter((user) => user.email === 'bo@example.com').map((user) => user.id)).toEqual([bo.userId]);
    const activities = await activitiesOf(h, ws);
    expect(activities.map((activity) => activity.userId)).toEqual([ann.id, ann.id, bo.userId]);
    // Each person is a member of the projects they have entries in.
    const projects = await byName(h, ws, '/api/projects');
    const members = Object.values(await ok(as(h, ws).get(`/api/projects/${projects.Internal.id}/members`))) as any[];
    expect(members.map((member) => member.userId)).toEqual([bo.userId]);
    const outbox = await h.app.db.selectFrom('outbox').select('to_address').where('organization_id', '=', ws.organizationId).where('kind', '=', 'invitation').execute();
    expect(outbox).toEqual([]);
  });

  it('invite=true mails each person the import adds an invitation, and nobody already in the workspace', async () => {
    const ws = await h.workspace();
    await h.user(ws, { email: 'bo@example.com' });
    await importFile(h, ws, 'toggl', TOGGL, { timeZone: 'Europe/Berlin', invite: 'true' });
    const outbox = await h.app.db.selectFrom('outbox').select('to_address').where('organization_id', '=', ws.organizationId).where('kind', '=', 'invitation').execute();
    expect(outbox.map((message) => message.to_address)).toEqual(['ann@example.com']);
  });

  it('the same file imported again creates nothing: every row is skipped', async () => {
    const ws = await h.workspace();
    await importFile(h, ws, 'toggl', TOGGL, { timeZone: 'Europe/Berlin' });
    const before = await activitiesOf(h, ws);
    const again = await importFile(h, ws, 'toggl', TOGGL, { timeZone: 'Europe/Berlin' });
    expect(again).toMatchObject({ status: 'succeeded', rows: 3, created: counts(), skipped: 3 });
    expect(await activitiesOf(h, ws)).toEqual(before);
  });

  it('a later export that overlaps the first imports only its new rows', async () => {
    const ws = await h.workspace();
    await importFile(h, ws, 'toggl', TOGGL, { timeZone: 'Europe/Berlin' });
    const later = csv(HEADER, 'Bo Chen,bo@example.com,,Internal,,,No,2026-03-03,08:00:00,2026-03-03,08:45:00,00:45:00,Meeting', 'Bo Chen,bo@example.com,,Internal,,Standup,No,2026-03-04,08:00:00,2026-03-04,08:15:00,00:15:00,');
    const done = await importFile(h, ws, 'toggl', later, { timeZone: 'Europe/Berlin' });
    expect(done).toMatchObject({ status: 'succeeded', rows: 2, created: counts({ activities: 1 }), skipped: 1 });
    expect((await activitiesOf(h, ws)).map((activity) => activity.name)).toEqual(['Mockups, "final" round', 'Night shift', 'Internal', 'Standup']);
  });

  it('dryRun=true answers the same counts and writes nothing', async () => {
    const ws = await h.workspace();
    const done = await importFile(h, ws, 'toggl', TOGGL, { timeZone: 'Europe/Berlin', dryRun: 'true' });
    expect(done).toMatchObject({ status: 'succeeded', dryRun: true, rows: 3, created: counts({ clients: 1, projects: 2, tasks: 1, tags: 2, users: 2, members: 2, activities: 3 }) });
    expect(await activitiesOf(h, ws)).toEqual([]);
    expect(await ok(as(h, ws).get('/api/projects'))).toEqual({});
    expect(Object.keys(await ok(as(h, ws).get('/api/users')))).toEqual([ws.admin.userId]);
    // And a dry run is no import: the real one afterwards creates everything.
    expect((await importFile(h, ws, 'toggl', TOGGL, { timeZone: 'Europe/Berlin' })).created.activities).toBe(3);
  });

  it('mode=all (the default): one bad row and nothing is imported, each error by row and column; mode=valid imports the good rows', async () => {
    const ws = await h.workspace();
    const file = csv(
      HEADER,
      'Ann Lee,ann@example.com,,Website,,Good,No,2026-03-02,09:00:00,2026-03-02,10:00:00,01:00:00,',
      'Ann Lee,ann@example.com,,Website,,Backwards,No,2026-03-02,11:00:00,2026-03-02,10:00:00,,',
      'Ann Lee,ann@example.com,,Website,,Bad date,No,2026-02-30,09:00:00,2026-02-30,10:00:00,,',
      'Ann Lee,ann@example.com,,Website,,Bad time,No,2026-03-02,25:00:00,2026-03-02,10:00:00,,',
    );
    const all = await importFile(h, ws, 'toggl', file, { timeZone: 'UTC' });
    const errors = [
      { row: 2, column: 'End time', code: 'end-before-start', message: 'The entry ends before it starts.' },
      { row: 3, column: 'Start date', code: 'invalid-date', message: '"2026-02-30" is not a date.' },
      { row: 3, column: 'End date', code: 'invalid-date', message: '"2026-02-30" is not a date.' },
      { row: 4, column: 'Start time', code: 'invalid-time', message: '"25:00:00" is not a time.' },
    ];
    expect(all).toMatchObject({ status: 'failed', mode: 'all', rows: 4, created: counts(), errorCount: 4, errors });
    expect(await activitiesOf(h, ws)).toEqual([]);
    expect(await ok(as(h, ws).get('/api/projects'))).toEqual({});
    const valid = await importFile(h, ws, 'toggl', file, { timeZone: 'UTC', mode: 'valid' });
    expect(valid).toMatchObject({ status: 'succeeded', mode: 'valid', rows: 4, created: counts({ projects: 1, users: 1, members: 1, activities: 1 }), errorCount: 4, errors });
    expect((await activitiesOf(h, ws)).map((activity) => activity.name)).toEqual(['Good']);
  });

  it('a file without a required column fails with missing-column naming it, and imports nothing', async () => {
    const ws = await h.workspace();
    const done = await importFile(h, ws, 'toggl', csv('User,Email,Project,Description,Start time,End date,End time', 'Ann,ann@example.com,P,D,09:00:00,2026-03-02,10:00:00'));
    expect(done).toMatchObject({
      status: 'failed',
      errorCount: 1,
      errors: [{ row: 0, column: 'Start date', code: 'missing-column', message: 'The file has no column "Start date".' }],
      created: counts(),
    });
  });

  it('a wall-clock time the zone skips is invalid-time; one it has twice is the earlier instant', async () => {
    const ws = await h.workspace();
    const file = csv(
      HEADER,
      'Ann,ann@example.com,,,,Skipped,No,2026-03-29,02:30:00,2026-03-29,03:30:00,,',
      'Ann,ann@example.com,,,,Twice,No,2026-10-25,02:30:00,2026-10-25,04:00:00,,',
    );
    const done = await importFile(h, ws, 'toggl', file, { timeZone: 'Europe/Berlin', mode: 'valid' });
    expect(done.errors).toEqual([
      { row: 1, column: 'Start time', code: 'invalid-time', message: '2026-03-29 02:30:00 does not exist in Europe/Berlin (the clock moves forward).' },
    ]);
    const [twice] = await activitiesOf(h, ws);
    // 02:30 comes first at +02:00 (00:30 UTC), then again at +01:00; 04:00 is +01:00 (03:00 UTC).
    expect(twice).toMatchObject({ name: 'Twice', startedAt: '2026-10-25T00:30:00.000Z', endedAt: '2026-10-25T03:00:00.000Z' });
  });

  it('without timeZone the organization\'s zone reads the file', async () => {
    const ws = await h.workspace();
    await ok(as(h, ws).put('/api/organization', { timeZone: 'America/New_York' }));
    await importFile(h, ws, 'toggl', csv(HEADER, 'Ann,ann@example.com,,,,NY,No,2026-03-02,09:00:00,2026-03-02,10:00:00,,'));
    expect((await activitiesOf(h, ws))[0]).toMatchObject({ startedAt: '2026-03-02T14:00:00.000Z', endedAt: '2026-03-02T15:00:00.000Z' });
  });
});

describeEachStore('POST /imports: who may, and what it refuses (docs/rules.md §6 Imports)', (h) => {
  it('a User is 403 and no import is recorded', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await postImport(h, ws, 'toggl', TOGGL, {}, user);
    expect(res.status).toBe(403);
    expect(await ok(as(h, ws).get('/api/imports'))).toEqual({});
  });

  it('an unknown source is 422 at /query/source; an unknown time zone 422 at /query/timeZone', async () => {
    const ws = await h.workspace();
    const res = await postImport(h, ws, 'excel', TOGGL);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].pointer ?? res.body.errors[0].path ?? JSON.stringify(res.body)).toContain('/query/source');
    const zone = await postImport(h, ws, 'toggl', TOGGL, { timeZone: 'Mars/Olympus' });
    expect(zone.status).toBe(422);
    expect(JSON.stringify(zone.body)).toContain('/query/timeZone');
    expect(await ok(as(h, ws).get('/api/imports'))).toEqual({});
  });

  it('a JSON body is 415', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).post('/api/imports', { rows: [] }, { query: { source: 'toggl' } });
    expect(res.status).toBe(415);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });

  it('a file over 200 MB (by its Content-Length) is 413', async () => {
    const ws = await h.workspace();
    const res = await postImport(h, ws, 'toggl', 'x', {});
    expect(res.status).toBe(202);
    await ended(h, ws, res.body.id);
    const big = await as(h, ws).post('/api/imports', undefined, {
      query: { source: 'toggl' },
      payload: 'User,Email\r\n',
      headers: { 'content-type': 'text/csv', 'content-length': String(200 * 1024 * 1024 + 1) },
    });
    expect(big.status).toBe(413);
  });

  it('while an import of the workspace is queued or running a second is 409; another workspace imports meanwhile', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    // An import another instance runs: its heartbeat is fresh.
    const now = new Date().toISOString();
    await h.app.db
      .insertInto('imports')
      .values({
        id: 'running-elsewhere',
        organization_id: ws.organizationId,
        created_by: ws.admin.userId,
        source: 'toggl',
        status: 'running',
        dry_run: 0,
        mode: 'all',
        options: '{"timeZone":"UTC","invite":false}',
        rows: 0,
        rows_done: 0,
        created: JSON.stringify(counts()),
        skipped: 0,
        error_count: 0,
        errors: '[]',
        warnings: '[]',
        created_at: now,
        finished_at: null,
        heartbeat_at: now,
      })
      .execute();
    const res = await postImport(h, ws, 'toggl', TOGGL);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect((await importFile(h, other, 'toggl', TOGGL, { timeZone: 'UTC' })).status).toBe('succeeded');
  });

  it('GET /imports/{id} of another workspace\'s import is 404', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const done = await importFile(h, ws, 'toggl', TOGGL, { timeZone: 'UTC' });
    expect((await as(h, other).get(`/api/imports/${done.id}`)).status).toBe(404);
  });
});
