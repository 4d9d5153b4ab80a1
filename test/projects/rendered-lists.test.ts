import { expect, it } from 'vitest';
import { as, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { tracking } from '../support/tracking.js';

/** Texts a serializer could render differently: quotes, backslashes, control characters, separators, emoji. */
const TRICKY = [
  'Quote " and backslash \\ and slash /',
  'Tab\tnew line\nreturn\rform feed\fbackspace\b',
  'Low controls \u0001\u0002\u001f and DEL \u007f',
  'Separators \u2028 \u2029 and BOM \ufeff inside',
  'Emoji 😀 and 👩‍💻, CJK 時間管理, Ærø',
  '</script><b>&amp;</b>',
];

/** The map a listing must answer: each record's own GET text under its id, in the order given. */
async function expectedMap(h: Harness, ws: TestWorkspace, caller: TestUser, path: string, ids: string[]): Promise<string> {
  const entries: string[] = [];
  for (const id of ids) {
    const one = await as(h, ws, caller).get(`${path}/${id}`);
    expect(one.status).toBe(200);
    entries.push(`${JSON.stringify(id)}:${one.text}`);
  }
  return `{${entries.join(',')}}`;
}

describeEachStore('Listings rendered by the database: GET /projects and GET /users', (h) => {
  it('GET /projects answers every visible project with the very bytes of GET /projects/{id}, in creation order', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const member = await h.user(ws);
    const ids: string[] = [];
    for (const [i, text] of TRICKY.entries()) {
      const project = await t.project({
        name: `${i} ${text}`,
        billable: i % 2 === 0,
        ...(i % 3 === 0 ? { notes: text } : {}),
        ...(i % 2 === 1 ? { avatar: `https://example.com/${i}.png?q="${text}"` } : {}),
      });
      ids.push(project.id);
    }
    const archived = await as(h, ws).put(`/api/projects/${ids[1]}`, { archived: true });
    expect(archived.status).toBe(200);
    for (const id of [ids[0], ids[1], ids[4]]) await t.member(id, member);

    const all = await as(h, ws).get('/api/projects');
    expect(all.status).toBe(200);
    expect(all.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(all.text).toBe(await expectedMap(h, ws, ws.admin, '/api/projects', ids));

    const mine = await as(h, ws, member).get('/api/projects');
    expect(mine.text).toBe(await expectedMap(h, ws, member, '/api/projects', [ids[0], ids[1], ids[4]]));
    expect(Object.values(mine.body).map((p: any) => p.archived)).toEqual([false, true, false]);
  });

  it('GET /projects answers {} to a User who is a member of no project, and to an admin of a workspace without projects', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await tracking(h, await h.workspace()).project({ name: 'Elsewhere' });
    expect((await as(h, ws, user).get('/api/projects')).text).toBe('{}');
    expect((await as(h, ws).get('/api/projects')).text).toBe('{}');
  });

  it('GET /users answers every user with the very bytes of GET /users/{id}, in creation order, names left out when none', async () => {
    const ws = await h.workspace();
    const created: TestUser[] = [];
    for (const [i, text] of TRICKY.entries()) {
      const user = await h.user(ws);
      const profile = i % 2 === 0 ? { name: `${i} ${text}`, title: text } : { phone: `+49 ${i}`, avatar: `data:image/png;base64,${i}"\\` };
      const res = await as(h, ws).put(`/api/users/${user.userId}`, { ...profile, archived: i === 3 });
      expect(res.status).toBe(200);
      created.push(user);
    }

    const listed = await as(h, ws).get('/api/users');
    expect(listed.status).toBe(200);
    const order = Object.keys(listed.body);
    const mine = created.map((u) => u.userId);
    expect(order.filter((id) => mine.includes(id))).toEqual(mine);
    expect(order).toContain(ws.admin.userId);
    expect(listed.text).toBe(await expectedMap(h, ws, ws.admin, '/api/users', order));
    // A User reads the same directory.
    expect((await as(h, ws, created[1]).get('/api/users')).text).toBe(listed.text);
  });
});
