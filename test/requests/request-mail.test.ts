import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { listMessages } from '../support/src.js';

/** docs/rules.md §6 Requests ("Mail") and §6 Preferences: who a request's mail goes to, and when. */

interface World {
  ws: TestWorkspace;
  /** A second administrator, besides ws.admin ("Admin"). */
  ada: TestUser;
  /** A User, member of project Apollo, who makes the requests. */
  uma: TestUser;
}

async function world(h: Harness): Promise<World> {
  const ws = await h.workspace();
  const ada = await make.user(h, ws, { role: 'Administrator', name: 'Ada Admin' });
  const uma = await make.user(h, ws, { name: 'Uma User' });
  await make.user(h, ws, { role: 'Administrator', name: 'Archie Archived', archived: true });
  return { ws, ada, uma };
}

const mails = async (h: Harness, ws: TestWorkspace, kind: string) =>
  (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((message) => message.kind === kind);

const turnOff = async (h: Harness, ws: TestWorkspace, user: TestUser, kind: string) => {
  const res = await as(h, ws, user).put(`/api/users/${user.userId}/preferences`, { notifications: { [kind]: { email: false } } });
  expect(res.status).toBe(200);
};

const site = (h: Harness, ws: TestWorkspace) => `http://${ws.domain}.${h.config.baseDomain}:3000`;

describeEachStore('Request mail', (h) => {
  it('a User\'s request mails each unarchived administrator: subject, workspace name and the Requests page', async () => {
    const w = await world(h);
    const res = await as(h, w.ws, w.uma).post('/api/requests/timesheets/2026/27/unlock');
    expect(res.status).toBe(200);
    const created = await mails(h, w.ws, 'requestCreated');
    expect(created.map((message) => message.to).sort()).toEqual([w.ada.email, w.ws.admin.email].sort());
    for (const message of created) {
      expect(message.subject).toBe(`New request in Workspace ${w.ws.domain}: the unlock of week 27 of 2026`);
      expect(message.body).toContain(`Uma User (${w.uma.email}) asks for the unlock of week 27 of 2026 in workspace "Workspace ${w.ws.domain}".`);
      expect(message.body).toContain(`${site(h, w.ws)}/requests\n`);
      expect(message.sentAt).toBeNull();
    }
    expect(created.find((message) => message.to === w.ada.email)!.body.startsWith('Hello Ada Admin,\n\n')).toBe(true);
    expect(await mails(h, w.ws, 'requestResolved')).toEqual([]);
  });

  it('a project request names the project; the requester, even an administrator, is not mailed about their own request', async () => {
    const w = await world(h);
    const project = await make.project(h, w.ws, { name: 'Apollo' });
    expect((await as(h, w.ws, w.ada).post(`/api/requests/projects/${project.id}/members`, { userIds: [w.uma.userId] })).status).toBe(200);
    const created = await mails(h, w.ws, 'requestCreated');
    expect(created.map((message) => message.to)).toEqual([w.ws.admin.email]);
    expect(created[0].subject).toBe(`New request in Workspace ${w.ws.domain}: the assignment of 1 user to project "Apollo"`);
  });

  it('an administrator whose requestCreated.email is false is not mailed; the others still are', async () => {
    const w = await world(h);
    await turnOff(h, w.ws, w.ada, 'requestCreated');
    expect((await as(h, w.ws, w.uma).post('/api/requests/projects/request-assignment')).status).toBe(200);
    const created = await mails(h, w.ws, 'requestCreated');
    expect(created.map((message) => message.to)).toEqual([w.ws.admin.email]);
    expect(created[0].subject).toBe(`New request in Workspace ${w.ws.domain}: an assignment to projects`);
  });

  it('approving mails the requester, naming the workspace, the outcome and who approved it', async () => {
    const w = await world(h);
    const request = await make.request(h, w.ws, { kind: 'timesheetApproval', by: w.uma, year: 2026, week: 27 });
    expect((await as(h, w.ws, w.ada).put(`/api/requests/${request.id}/timesheets/approvals`, { status: 'RESOLVED' })).status).toBe(200);
    const resolved = await mails(h, w.ws, 'requestResolved');
    expect(resolved).toEqual([
      {
        id: expect.any(String),
        to: w.uma.email,
        kind: 'requestResolved',
        subject: 'Your request was approved: the approval of week 27 of 2026',
        body: `Hello Uma User,\n\nyour request for the approval of week 27 of 2026 in workspace "Workspace ${w.ws.domain}" was approved by Ada Admin.\n\n${site(h, w.ws)}/\n`,
        createdAt: expect.any(String),
        sentAt: null,
      },
    ]);
  });

  it('rejecting mails the requester too', async () => {
    const w = await world(h);
    const request = await make.request(h, w.ws, { kind: 'timesheetUnlock', by: w.uma, year: 2026, week: 27 });
    expect((await as(h, w.ws).put(`/api/requests/${request.id}/timesheets/unlock`, { status: 'REJECTED' })).status).toBe(200);
    const resolved = await mails(h, w.ws, 'requestResolved');
    expect(resolved.map((message) => [message.to, message.subject])).toEqual([[w.uma.email, 'Your request was rejected: the unlock of week 27 of 2026']]);
    expect(resolved[0].body).toContain(`was rejected by Admin.`);
  });

  it('a requester whose requestResolved.email is false is not mailed when it is resolved', async () => {
    const w = await world(h);
    await turnOff(h, w.ws, w.uma, 'requestResolved');
    const request = await make.request(h, w.ws, { kind: 'timesheetUnlock', by: w.uma, year: 2026, week: 27 });
    expect((await as(h, w.ws).put(`/api/requests/${request.id}/timesheets/unlock`, { status: 'RESOLVED' })).status).toBe(200);
    expect(await mails(h, w.ws, 'requestResolved')).toEqual([]);
  });

  it('a resolution refused (422, 409) writes no mail: the message belongs to the resolution\'s transaction', async () => {
    const w = await world(h);
    const request = await make.request(h, w.ws, { kind: 'projectAssignment', by: w.uma });
    const refused = await as(h, w.ws).put(`/api/requests/${request.id}/projects/assign`, { status: 'RESOLVED' });
    expect(refused.status).toBe(422);
    expect(await mails(h, w.ws, 'requestResolved')).toEqual([]);
    expect((await as(h, w.ws).put(`/api/requests/${request.id}/projects/assign`, { status: 'REJECTED' })).status).toBe(200);
    expect((await as(h, w.ws).put(`/api/requests/${request.id}/projects/assign`, { status: 'REJECTED' })).status).toBe(409);
    expect((await mails(h, w.ws, 'requestResolved')).map((message) => message.to)).toEqual([w.uma.email]);
  });

  it('a request refused at creation (422, 404) writes no mail', async () => {
    const w = await world(h);
    const bad = await as(h, w.ws, w.uma).post('/api/requests/timesheets/2026/54/unlock');
    expect(bad.status).toBe(422);
    const unknown = await as(h, w.ws, w.uma).post('/api/requests/projects/00000000-0000-0000-0000-000000000000/members', { userIds: [w.uma.userId] });
    expect(unknown.status).toBe(404);
    expect(await listMessages(h.app.db, { organizationId: w.ws.organizationId })).toEqual([]);
  });

  it('an impersonation request (support, with the CLI) mails only support when resolved, as before', async () => {
    const w = await world(h);
    const request = await make.request(h, w.ws, { kind: 'impersonation', reason: 'Ticket 7' });
    expect((await as(h, w.ws).put(`/api/requests/${request.id}`, { status: 'RESOLVED' })).status).toBe(200);
    expect((await listMessages(h.app.db, { organizationId: w.ws.organizationId })).map((message) => message.kind)).toEqual(['supportSignIn']);
  });
});
