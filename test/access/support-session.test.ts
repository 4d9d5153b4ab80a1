import { expect, it } from 'vitest';
import { as, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { createImpersonationRequest, listMessages } from '../support/src.js';

/**
 * docs/rules.md §5 Support impersonation: a support session (the one-hour session redeemed from a
 * resolved impersonation request) acts as its administrator in one workspace, but never creates or
 * changes credentials, grants a role, deletes the workspace, or sees the account's other workspaces.
 */

const DENIED = 'A support session cannot do this: it may not create or change credentials, grant roles, delete the workspace or see other workspaces.';

interface Support {
  ws: TestWorkspace;
  /** The administrator the session acts as, with their API key. */
  admin: TestUser;
  /** The same administrator, with the support session's token. */
  session: TestUser;
}

/** A support session made the way support gets one: CLI request, resolution by an administrator, redemption. */
async function supportSession(h: Harness): Promise<Support> {
  const ws = await h.workspace();
  const admin = await h.user(ws, { role: 'Administrator' });
  const request = await createImpersonationRequest(h.app.db, ws.organizationId, 'Ticket 17');
  expect((await as(h, ws, admin).put(`/api/requests/${request.id}`, { status: 'RESOLVED' })).status).toBe(200);
  const message = (await listMessages(h.app.db, { organizationId: ws.organizationId })).find((m) => m.kind === 'supportSignIn')!;
  const oneTime = /tto_[A-Za-z0-9_-]{43}/.exec(message.body)![0];
  const redeemed = await h.call('POST', '/api/auth/one-time', { host: ws.host, body: { token: oneTime } });
  expect(redeemed.status).toBe(200);
  return { ws, admin, session: { ...admin, token: redeemed.body.token } };
}

const expectDenied = (res: { status: number; body: any }) => {
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({ code: 'forbidden', detail: DENIED });
};

const apiKeysOf = (h: Harness, userId: string) => h.app.db.selectFrom('api_keys').select('id').where('user_id', '=', userId).execute();

describeEachStore('Support sessions', (h) => {
  it('a support session cannot create or revoke an API key (403), while it may list them; the administrator\'s own key can', async () => {
    const { ws, admin, session } = await supportSession(h);
    const keys = await apiKeysOf(h, admin.userId);
    expect(keys).toHaveLength(1);
    expectDenied(await as(h, ws, session).post('/api/api-keys', { name: 'forever' }));
    expectDenied(await as(h, ws, session).delete(`/api/api-keys/${keys[0].id}`));
    expect(await apiKeysOf(h, admin.userId)).toEqual(keys);
    const listed = await as(h, ws, session).get('/api/api-keys');
    expect(listed.status).toBe(200);
    expect(Object.keys(listed.body)).toEqual([keys[0].id]);
    expect((await as(h, ws, admin).post('/api/api-keys', { name: 'mine' })).status).toBe(200);
  });

  it('a support session cannot grant a role: inviting an Administrator, sending role to PUT /users, a project Administrator are 403; inviting a User is not', async () => {
    const { ws, session } = await supportSession(h);
    const invited = await as(h, ws, session).post('/api/users', { email: 'new-admin@example.com', role: 'Administrator' });
    expectDenied(invited);
    const users = await as(h, ws, session).get('/api/users');
    expect(Object.values(users.body).map((user: any) => user.email)).not.toContain('new-admin@example.com');

    const plain = await as(h, ws, session).post('/api/users', { email: 'new-user@example.com' });
    expect(plain.status).toBe(200);
    expect(plain.body.role).toBe('User');
    expectDenied(await as(h, ws, session).put(`/api/users/${plain.body.id}`, { role: 'Administrator' }));
    expectDenied(await as(h, ws, session).put(`/api/users/${plain.body.id}`, { role: 'User' }));
    expect((await as(h, ws, session).get(`/api/users/${plain.body.id}`)).body.role).toBe('User');
    expect((await as(h, ws, session).put(`/api/users/${plain.body.id}`, { title: 'Tester' })).status).toBe(200);

    const project = (await as(h, ws).post('/api/projects', { name: 'P' })).body;
    expectDenied(await as(h, ws, session).post(`/api/projects/${project.id}/members`, { userId: plain.body.id, role: 'Administrator' }));
    const member = await as(h, ws, session).post(`/api/projects/${project.id}/members`, { userId: plain.body.id });
    expect(member.status).toBe(200);
    expect(member.body.role).toBe('User');
    expectDenied(await as(h, ws, session).put(`/api/projects/${project.id}/members/${member.body.id}`, { role: 'Administrator' }));
    expect((await as(h, ws).get(`/api/projects/${project.id}/members/${member.body.id}`)).body.role).toBe('User');
  });

  it('a support session cannot resolve a role-change request nor an impersonation request (403, both stay PENDING)', async () => {
    const { ws, session } = await supportSession(h);
    const user = await h.user(ws);
    const project = (await as(h, ws).post('/api/projects', { name: 'P' })).body;
    const member = (await as(h, ws).post(`/api/projects/${project.id}/members`, { userId: user.userId })).body;
    const roleChange = await as(h, ws, user).post(`/api/requests/projects/${project.id}/members/${member.id}/role`, { role: 'Administrator' });
    expect(roleChange.status).toBe(200);
    for (const status of ['RESOLVED', 'REJECTED']) {
      expectDenied(await as(h, ws, session).put(`/api/requests/${roleChange.body.id}/projects/members/role`, { status }));
    }
    const impersonation = await createImpersonationRequest(h.app.db, ws.organizationId, 'Ticket 18');
    expectDenied(await as(h, ws, session).put(`/api/requests/${impersonation.id}`, { status: 'RESOLVED' }));
    const requests = (await as(h, ws).get('/api/requests')).body;
    expect(requests[roleChange.body.id].status).toBe('PENDING');
    expect(requests[impersonation.id].status).toBe('PENDING');
    expect((await as(h, ws).get(`/api/projects/${project.id}/members/${member.id}`)).body.role).toBe('User');
  });

  it('a support session cannot delete the workspace (403, it stays)', async () => {
    const { ws, session } = await supportSession(h);
    expectDenied(await as(h, ws, session).delete('/api/organization'));
    const organization = await as(h, ws, session).get('/api/organization');
    expect(organization.status).toBe(200);
    expect(organization.body.id).toBe(ws.organizationId);
  });

  it('a support session sees only the workspace it is bound to in GET /organizations', async () => {
    const { ws, admin, session } = await supportSession(h);
    const other = await h.workspace();
    await h.user(other, { email: admin.email });
    const own = await as(h, ws, admin).get('/api/organizations');
    expect(own.body.map((w: { domain: string }) => w.domain)).toEqual([ws.domain, other.domain]);
    const seen = await as(h, ws, session).get('/api/organizations');
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual([{ active: true, domain: ws.domain, name: expect.any(String) }]);
  });
});
