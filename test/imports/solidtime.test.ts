import yazl from 'yazl';
import { expect, it } from 'vitest';
import { as, describeEachStore, ok } from '../support/harness.js';
import { activitiesOf, byName, counts, csv, importArchive } from './support.js';

/** docs/rules.md §6 Imports: solidtime's organization export, a ZIP of CSV files joined by ids. */

function zip(files: Record<string, string>): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) archive.addBuffer(Buffer.from(text), name);
  archive.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    archive.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    archive.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    archive.outputStream.on('error', reject);
  });
}

const SOLIDTIME = {
  'meta.json': '{"id":"e1","version":"1.0","organizations":["o1"],"exported_at":"2026-03-10T12:00:00Z"}',
  'organizations.csv': csv('id,name,billable_rate,currency,created_at,updated_at', 'o1,Acme Org,,EUR,2026-01-01T00:00:00Z,2026-01-01T00:00:00Z'),
  'members.csv': csv(
    'id,user_id,name,email,organization_id,billable_rate,role,created_at,updated_at',
    'm1,u1,Ann Lee,Ann@Example.com,o1,,employee,2026-01-01T00:00:00Z,2026-01-01T00:00:00Z',
  ),
  'clients.csv': csv('id,name,organization_id,archived_at,created_at,updated_at', 'c1,Acme,o1,,2026-01-01T00:00:00Z,2026-01-01T00:00:00Z'),
  'projects.csv': csv(
    'id,name,color,billable_rate,is_public,client_id,organization_id,is_billable,archived_at,created_at,updated_at',
    'p1,Website,#ef5350,,false,c1,o1,true,,2026-01-01T00:00:00Z,2026-01-01T00:00:00Z',
  ),
  'project_members.csv': csv('id,billable_rate,project_id,user_id,member_id,created_at,updated_at', 'pm1,,p1,u1,m1,2026-01-01T00:00:00Z,2026-01-01T00:00:00Z'),
  'tasks.csv': csv('id,name,project_id,organization_id,done_at,created_at,updated_at', 't1,Design,p1,o1,,2026-01-01T00:00:00Z,2026-01-01T00:00:00Z'),
  'tags.csv': csv('id,name,organization_id,created_at,updated_at', 'g1,meeting,o1,2026-01-01T00:00:00Z,2026-01-01T00:00:00Z', 'g2,bug,o1,2026-01-01T00:00:00Z,2026-01-01T00:00:00Z'),
  'time_entries.csv': csv(
    'id,description,start,end,billable_rate,billable,member_id,user_id,organization_id,client_id,project_id,task_id,tags,is_imported,still_active_email_sent_at,created_at,updated_at',
    'e1,"Mockups, ""final""",2026-03-02T08:00:00Z,2026-03-02T10:00:00Z,1999,true,m1,u1,o1,c1,p1,t1,"[""g1"",""g2""]",false,,2026-03-02T10:00:00Z,2026-03-02T10:00:00Z',
    'e2,Still running,2026-03-03T08:00:00Z,,,false,m1,u1,o1,,,,[],false,,2026-03-03T08:00:00Z,2026-03-03T08:00:00Z',
  ),
};

describeEachStore('Imports from solidtime (docs/rules.md §6 Imports)', (h) => {
  it('an organization export: entries with their member (by email), project, client, task and tags, billable and UTC instants; its rate in cents becomes the member\'s revenue rate', async () => {
    const ws = await h.workspace();
    const done = await importArchive(h, ws, await zip(SOLIDTIME), { source: 'solidtime', mode: 'valid' });
    expect(done).toMatchObject({
      status: 'succeeded',
      rows: 2,
      created: counts({ clients: 1, projects: 1, tasks: 1, tags: 2, users: 1, members: 1, activities: 1, revenueRates: 1 }),
      errors: [{ row: 2, column: 'end', code: 'invalid-time', message: 'The entry is still running: it has no end.' }],
    });
    const [mockups] = await activitiesOf(h, ws);
    const projects = await byName(h, ws, '/api/projects');
    const tags = await byName(h, ws, '/api/tags');
    expect(mockups).toMatchObject({ name: 'Mockups, "final"', startedAt: '2026-03-02T08:00:00.000Z', endedAt: '2026-03-02T10:00:00.000Z', billable: true, projectId: projects.Website.id });
    expect([...mockups.tagIds].sort()).toEqual([tags.meeting.id, tags.bug.id].sort());
    const users = Object.values(await ok(as(h, ws).get('/api/users'))) as any[];
    expect(users.find((user) => user.email === 'ann@example.com')).toMatchObject({ name: 'Ann Lee', role: 'User' });
    const [[memberId]] = Object.entries(await ok(as(h, ws).get(`/api/projects/${projects.Website.id}/members`)));
    const [rate] = Object.values(await ok(as(h, ws).get(`/api/projects/${projects.Website.id}/members/${memberId}/rates/revenue`))) as any[];
    expect(rate).toMatchObject({ value: 19.99, currency: 'EUR' });
  });

  it('imported again, every entry is skipped by its solidtime id; a ZIP that is no solidtime export fails with missing-column', async () => {
    const ws = await h.workspace();
    const archive = await zip(SOLIDTIME);
    await importArchive(h, ws, archive, { source: 'solidtime', mode: 'valid' });
    const again = await importArchive(h, ws, archive, { source: 'solidtime', mode: 'valid' });
    expect(again).toMatchObject({ status: 'succeeded', created: counts(), skipped: 1 });
    const other = await importArchive(h, ws, await zip({ 'readme.txt': 'hello' }), { source: 'solidtime' });
    expect(other).toMatchObject({ status: 'failed', errors: [{ row: 0, column: 'time_entries.csv', code: 'missing-column' }, { row: 0, column: 'members.csv', code: 'missing-column' }] });
  });
});
