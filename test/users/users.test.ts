import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { listMessages, newId } from '../support/src.js';

/** A session access token (account-wide) for the account behind a user. */
const sessionOf = (h: Harness, userId: string): Promise<string> => make.session(h, userId);

const adminRecord = (ws: TestWorkspace) => ({
  id: ws.admin.userId,
  email: ws.admin.email,
  role: 'Administrator',
  archived: false,
  name: 'Admin',
  avatar: null,
  phone: null,
  title: null,
  // The first administrator joins with the workspace (docs/rules.md §6 Users).
  joinedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
});

const userRecord = (user: TestUser, fields: Record<string, unknown> = {}) => ({
  id: user.userId,
  email: user.email,
  role: 'User',
  archived: false,
  name: 'Test User',
  avatar: null,
  phone: null,
  title: null,
  joinedAt: null,
  ...fields,
});

describeEachStore('GET /users', (h) => {
  it('everyone reads the whole directory as an id-keyed map in creation order, archived users included', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const archived = await h.user(ws, { archived: true });
    const res = await as(h, ws, user).get('/api/users');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      [ws.admin.userId]: adminRecord(ws),
      [user.userId]: userRecord(user),
      [archived.userId]: userRecord(archived, { archived: true }),
    });
    expect(Object.keys(res.body)).toEqual([ws.admin.userId, user.userId, archived.userId]);
  });

  it('lists only the users of the host\'s workspace', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    await h.user(other);
    const res = await as(h, ws).get('/api/users');
    expect(Object.keys(res.body)).toEqual([ws.admin.userId]);
  });

  it('GET /users/{userId} answers one user; unknown ids and users of other workspaces are 404', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws, user).get(`/api/users/${ws.admin.userId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(adminRecord(ws));
    for (const id of ['nope', newId(), other.admin.userId]) {
      const missing = await as(h, ws).get(`/api/users/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('not-found');
    }
  });

  it('a user without a name leaves name out (not null)', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).post('/api/users', { email: 'nameless@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('name');
    expect((await as(h, ws).get(`/api/users/${res.body.id}`)).body).toEqual(res.body);
  });
});

describeEachStore('POST /users (invite)', (h) => {
  it('an administrator invites a new email: a user with role User by default, with an invitation message', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).post('/api/users', { email: 'Carol@Example.com', name: '  Carol  ', title: 'Designer' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      email: 'carol@example.com',
      role: 'User',
      archived: false,
      name: 'Carol',
      avatar: null,
      phone: null,
      title: 'Designer',
      joinedAt: null,
    });
    expect((await as(h, ws).get(`/api/users/${res.body.id}`)).body).toEqual(res.body);
    const messages = await listMessages(h.app.db, { organizationId: ws.organizationId });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ to: 'carol@example.com', kind: 'invitation', sentAt: null });
  });

  it('the role can be given', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).post('/api/users', { email: 'dan@example.com', role: 'Administrator' });
    expect(res.status).toBe(200);
    expect(res.body.role).toBe('Administrator');
  });

  it('the invited user can be given an API key and then works in the workspace', async () => {
    const ws = await h.workspace();
    const invited = await as(h, ws).post('/api/users', { email: 'erin@example.com' });
    const token = await sessionOf(h, invited.body.id);
    const res = await h.call('GET', '/api/auth', { host: ws.host, token });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe('erin@example.com');
  });

  it('an email already in the workspace, in any case, answers the same user unchanged (200), never a duplicate', async () => {
    const ws = await h.workspace();
    const first = await as(h, ws).post('/api/users', { email: 'frank@example.com', name: 'Frank', title: 'Dev' });
    const again = await as(h, ws).post('/api/users', {
      email: '  FRANK@example.COM ',
      name: 'Someone Else',
      role: 'Administrator',
      title: 'CEO',
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const users = (await as(h, ws).get('/api/users')).body;
    expect(Object.keys(users)).toHaveLength(2);
    // Every invitation, the repeated one too, writes a message.
    const messages = await listMessages(h.app.db, { organizationId: ws.organizationId });
    expect(messages.map((m) => [m.kind, m.to])).toEqual([
      ['invitation', 'frank@example.com'],
      ['invitation', 'frank@example.com'],
    ]);
  });

  it('re-inviting an existing member (the administrator) answers that user', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).post('/api/users', { email: ws.admin.email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(adminRecord(ws));
  });

  it('concurrent invitations of one new email make one user and answer it to all', async () => {
    const ws = await h.workspace();
    const results = await Promise.all(
      ['gina@example.com', 'GINA@example.com', 'Gina@Example.com', 'gina@EXAMPLE.com', 'gina@example.com'].map((email) =>
        as(h, ws).post('/api/users', { email }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const ids = new Set(results.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    const users = (await as(h, ws).get('/api/users')).body;
    expect(Object.values(users).filter((u: any) => u.email === 'gina@example.com')).toHaveLength(1);
    const accounts = await h.app.db.selectFrom('accounts').select('id').where('email', '=', 'gina@example.com').execute();
    expect(accounts).toHaveLength(1);
    expect(await listMessages(h.app.db, { organizationId: ws.organizationId })).toHaveLength(5);
  });

  it('concurrent invitations of one new email into two workspaces share one account', async () => {
    const ws1 = await h.workspace();
    const ws2 = await h.workspace();
    const [a, b] = await Promise.all([
      as(h, ws1).post('/api/users', { email: 'hank@example.com' }),
      as(h, ws2).post('/api/users', { email: 'hank@example.com' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const token = await sessionOf(h, a.body.id);
    const orgs = await h.call('GET', '/api/organizations', { host: ws1.host, token });
    expect(orgs.body.map((o: any) => o.domain).sort()).toEqual([ws1.domain, ws2.domain].sort());
  });

  it('a User cannot invite (403), before the body is even checked', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    for (const body of [{ email: 'ivy@example.com' }, { email: 'not an email' }]) {
      const res = await as(h, ws, user).post('/api/users', body);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect(await listMessages(h.app.db, { organizationId: ws.organizationId })).toEqual([]);
  });

  it('emails are validated, and a bad body writes no user and no message (422)', async () => {
    const ws = await h.workspace();
    const cases: [unknown, string][] = [
      [{ email: 'not an email' }, '/body/email'],
      [{ email: 'a@b' }, '/body/email'],
      [{ email: 'two@@example.com' }, '/body/email'],
      [{ name: 'No Email' }, '/body/email'],
      [{ email: 42 }, '/body/email'],
      [{ email: 'jo@example.com', role: 'Owner' }, '/body/role'],
      [{ email: 'jo@example.com', name: '   ' }, '/body/name'],
    ];
    for (const [body, pointer] of cases) {
      const res = await as(h, ws).post('/api/users', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('validation');
      expect(res.body.errors[0].pointer).toBe(pointer);
    }
    expect(Object.keys((await as(h, ws).get('/api/users')).body)).toHaveLength(1);
    expect(await listMessages(h.app.db, { organizationId: ws.organizationId })).toEqual([]);
  });

  it('server-owned and unknown fields are ignored', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).post('/api/users', { email: 'kim@example.com', id: 'mine', archived: true, colour: 'red' });
    expect(res.status).toBe(200);
    expect(res.body.id).not.toBe('mine');
    expect(res.body.archived).toBe(false);
    expect(res.body).not.toHaveProperty('colour');
  });
});

describeEachStore('PUT /users/{userId}', (h) => {
  it('an administrator changes role, archived and profile fields of anyone', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws).put(`/api/users/${user.userId}`, {
      role: 'Administrator',
      archived: true,
      name: ' Renamed ',
      phone: '+49 30 123',
      title: 'Lead',
      avatar: 'https://example.com/a.png',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      userRecord(user, {
        role: 'Administrator',
        archived: true,
        name: 'Renamed',
        phone: '+49 30 123',
        title: 'Lead',
        avatar: 'https://example.com/a.png',
      }),
    );
    expect((await as(h, ws).get(`/api/users/${user.userId}`)).body).toEqual(res.body);
  });

  it('a user changes their own name, phone, title and avatar; blank or null clears phone and title', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws, user).put(`/api/users/${user.userId}`, {
      name: 'Me',
      phone: '555',
      title: 'Tester',
      avatar: 'https://example.com/me.png',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(userRecord(user, { name: 'Me', phone: '555', title: 'Tester', avatar: 'https://example.com/me.png' }));
    const cleared = await as(h, ws, user).put(`/api/users/${user.userId}`, { phone: '  ', title: null });
    expect(cleared.body).toEqual(userRecord(user, { name: 'Me', avatar: 'https://example.com/me.png' }));
  });

  it('a User gets 403 for role or archived, even their own and even unchanged, and nothing changes', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    for (const body of [{ role: 'Administrator' }, { role: 'User' }, { archived: true }, { archived: false }, { name: 'X', role: 'User' }]) {
      const res = await as(h, ws, user).put(`/api/users/${user.userId}`, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect((await as(h, ws).get(`/api/users/${user.userId}`)).body).toEqual(userRecord(user));
  });

  it('a User gets 403 for anyone else\'s profile', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const other = await h.user(ws);
    for (const target of [other.userId, ws.admin.userId]) {
      const res = await as(h, ws, user).put(`/api/users/${target}`, { name: 'Hacked' });
      expect(res.status).toBe(403);
    }
    expect((await as(h, ws).get(`/api/users/${other.userId}`)).body.name).toBe('Test User');
  });

  it('an unknown user is 404; a blank name or a wrong type is 422', async () => {
    const ws = await h.workspace();
    expect((await as(h, ws).put(`/api/users/${newId()}`, { name: 'X' })).status).toBe(404);
    for (const [body, pointer] of [
      [{ name: '  ' }, '/body/name'],
      [{ archived: 'true' }, '/body/archived'],
      [{ role: 'Owner' }, '/body/role'],
      [{ phone: 5 }, '/body/phone'],
    ] as const) {
      const res = await as(h, ws).put(`/api/users/${ws.admin.userId}`, body);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].pointer).toBe(pointer);
    }
  });

  it('the last active administrator can be neither demoted nor archived (409)', async () => {
    const ws = await h.workspace();
    // An archived administrator does not count as active.
    await h.user(ws, { role: 'Administrator', archived: true });
    for (const body of [{ role: 'User' }, { archived: true }, { role: 'User', archived: true }]) {
      const res = await as(h, ws).put(`/api/users/${ws.admin.userId}`, body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body.code).toBe('conflict');
    }
    expect((await as(h, ws).get(`/api/users/${ws.admin.userId}`)).body).toEqual(adminRecord(ws));
    // Changing only the profile, or sending the role unchanged, is fine.
    expect((await as(h, ws).put(`/api/users/${ws.admin.userId}`, { role: 'Administrator', archived: false, title: 'Boss' })).status).toBe(200);
  });

  it('with another active administrator, one can be demoted; then the other is the last', async () => {
    const ws = await h.workspace();
    const second = await h.user(ws, { role: 'Administrator' });
    const res = await as(h, ws).put(`/api/users/${second.userId}`, { role: 'User' });
    expect(res.status).toBe(200);
    expect(res.body.role).toBe('User');
    expect((await as(h, ws).put(`/api/users/${ws.admin.userId}`, { archived: true })).status).toBe(409);
  });

  it('two administrators demoting each other at once: exactly one succeeds', async () => {
    const ws = await h.workspace();
    const second = await h.user(ws, { role: 'Administrator' });
    const results = await Promise.all([
      as(h, ws).put(`/api/users/${second.userId}`, { role: 'User' }),
      as(h, ws, second).put(`/api/users/${ws.admin.userId}`, { archived: true }),
    ]);
    // The loser is refused as the last admin (409), or, authenticated after the winner's demotion, as a User (403).
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect([403, 409]).toContain(results.find((r) => r.status !== 200)!.status);
    const users = Object.values((await as(h, ws, second).get('/api/users')).body).filter(
      (u: any) => u.role === 'Administrator' && !u.archived,
    );
    // Whoever lost still answers (the winner's change did not lock them out), and one admin is active.
    expect(users).toHaveLength(1);
  });

  it('an archived user\'s API keys and sessions stop working at once (401), and work again when unarchived', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const session = await sessionOf(h, user.userId);
    expect((await as(h, ws, user).get('/api/auth')).status).toBe(200);
    expect((await as(h, ws).put(`/api/users/${user.userId}`, { archived: true })).status).toBe(200);
    const byKey = await as(h, ws, user).get('/api/auth');
    expect(byKey.status).toBe(401);
    expect(byKey.body.code).toBe('unauthorized');
    expect((await h.call('GET', '/api/auth', { host: ws.host, token: session })).status).toBe(401);
    expect((await as(h, ws).put(`/api/users/${user.userId}`, { archived: false })).status).toBe(200);
    expect((await as(h, ws, user).get('/api/auth')).status).toBe(200);
  });
});

describeEachStore('DELETE /users/{userId}', (h) => {
  /** A project the user is a member of with a revenue rate, and a cost rate, an activity, a request and a lock of the user. */
  async function seedDataOf(ws: TestWorkspace, user: TestUser) {
    const project = await make.project(h, ws, { billable: true });
    const member = await make.member(h, ws, { project, user });
    await make.revenueRate(h, ws, { project, member });
    await make.costRate(h, ws, { user });
    await make.activity(h, ws, { owner: user, project });
    await make.request(h, ws, { kind: 'timesheetUnlock', by: user, year: 2026, week: 10 });
    await make.lock(h, ws, { user, year: 2026, week: 10 });
    return { projectId: project.id as string };
  }

  async function countsOf(userId: string) {
    const db = h.app.db;
    const count = async (table: 'activities' | 'project_members' | 'cost_rates' | 'reports' | 'user_preferences' | 'api_keys') =>
      (await db.selectFrom(table).select('user_id').where('user_id', '=', userId).execute()).length;
    const requests = await db.selectFrom('requests').select('id').where('created_by', '=', userId).execute();
    const locks = await db.selectFrom('timesheet_locks').select('id').where('user_id', '=', userId).execute();
    return {
      requests: requests.length,
      locks: locks.length,
      activities: await count('activities'),
      memberships: await count('project_members'),
      costRates: await count('cost_rates'),
      reports: await count('reports'),
      preferences: await count('user_preferences'),
      apiKeys: await count('api_keys'),
    };
  }

  it('an administrator deletes a user with their activities, memberships, rates, reports, preferences, requests and locks, at once', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const { projectId } = await seedDataOf(ws, user);
    const report = await as(h, ws, user).post('/api/reports', {
      name: 'Mine',
      period: 'custom',
      start: '2026-01-01T00:00:00Z',
      end: '2026-02-01T00:00:00Z',
      dimensions: ['project'],
      metrics: ['time'],
    });
    expect(report.status).toBe(200);
    expect((await as(h, ws, user).put(`/api/users/${user.userId}/preferences`, { locale: 'de-DE' })).status).toBe(200);
    expect(await countsOf(user.userId)).toEqual({ requests: 1, locks: 1, activities: 1, memberships: 1, costRates: 1, reports: 1, preferences: 1, apiKeys: 1 });

    const res = await as(h, ws).delete(`/api/users/${user.userId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await as(h, ws).get(`/api/users/${user.userId}`)).status).toBe(404);
    expect((await as(h, ws).get(`/api/users/${user.userId}/rates/cost`)).status).toBe(404);
    expect(await countsOf(user.userId)).toEqual({ requests: 0, locks: 0, activities: 0, memberships: 0, costRates: 0, reports: 0, preferences: 0, apiKeys: 0 });
    const revenue = await h.app.db.selectFrom('revenue_rates').select('id').where('project_id', '=', projectId).execute();
    expect(revenue).toEqual([]);
    // The project itself stays.
    const project = await h.app.db.selectFrom('projects').select('id').where('id', '=', projectId).executeTakeFirst();
    expect(project?.id).toBe(projectId);
    // Their key is dead.
    expect((await as(h, ws, user).get('/api/auth')).status).toBe(401);
  });

  it('the account survives when it belongs to other workspaces', async () => {
    const ws1 = await h.workspace();
    const ws2 = await h.workspace();
    const inWs1 = await as(h, ws1).post('/api/users', { email: 'lena@example.com' });
    const inWs2 = await as(h, ws2).post('/api/users', { email: 'lena@example.com' });
    const session = await sessionOf(h, inWs2.body.id);
    expect((await as(h, ws1).delete(`/api/users/${inWs1.body.id}`)).status).toBe(200);
    const orgs = await h.call('GET', '/api/organizations', { host: ws2.host, token: session });
    expect(orgs.status).toBe(200);
    expect(orgs.body).toEqual([{ active: true, domain: ws2.domain, name: `Workspace ${ws2.domain}` }]);
    expect((await h.call('GET', '/api/auth', { host: ws1.host, token: session })).status).toBe(401);
    expect((await h.call('GET', '/api/auth', { host: ws2.host, token: session })).body.email).toBe('lena@example.com');
    // Invited again, the same account gets a new user.
    const again = await as(h, ws1).post('/api/users', { email: 'lena@example.com' });
    expect(again.body.id).not.toBe(inWs1.body.id);
    expect((await h.call('GET', '/api/auth', { host: ws1.host, token: session })).status).toBe(200);
  });

  it('a User cannot delete anyone, themselves included (403)', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const other = await h.user(ws);
    for (const target of [other.userId, user.userId]) {
      const res = await as(h, ws, user).delete(`/api/users/${target}`);
      expect(res.status).toBe(403);
    }
    expect((await as(h, ws).get(`/api/users/${other.userId}`)).status).toBe(200);
  });

  it('the last active administrator cannot be deleted (409); another administrator can', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).delete(`/api/users/${ws.admin.userId}`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    const second = await h.user(ws, { role: 'Administrator' });
    expect((await as(h, ws, second).delete(`/api/users/${ws.admin.userId}`)).status).toBe(200);
    expect((await as(h, ws, second).delete(`/api/users/${second.userId}`)).status).toBe(409);
  });

  it('two administrators deleting each other at once: exactly one succeeds', async () => {
    const ws = await h.workspace();
    const second = await h.user(ws, { role: 'Administrator' });
    const results = await Promise.all([
      as(h, ws).delete(`/api/users/${second.userId}`),
      as(h, ws, second).delete(`/api/users/${ws.admin.userId}`),
    ]);
    // The loser is either refused as the last admin (409) or already gone and so unauthenticated (401).
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const remaining = await h.app.db
      .selectFrom('users')
      .select('id')
      .where('organization_id', '=', ws.organizationId)
      .where('role', '=', 'Administrator')
      .execute();
    expect(remaining).toHaveLength(1);
  });

  it('an unknown user or one of another workspace is 404', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const stranger = await h.user(other);
    expect((await as(h, ws).delete(`/api/users/${newId()}`)).status).toBe(404);
    expect((await as(h, ws).delete(`/api/users/${stranger.userId}`)).status).toBe(404);
    expect((await as(h, other).get(`/api/users/${stranger.userId}`)).status).toBe(200);
  });
});
