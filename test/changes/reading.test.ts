import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore } from '../support/harness.js';
import { feedEnd, readFeed } from './feed-support.js';

describeEachStore('Change feed: who reads which events, and paging by cursor (docs/rules.md §6 Change feed)', (h) => {
  it('a User reads the events of records whose GET they may make; an Administrator reads every event', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const other = await h.user(ws);
    const projectAdmin = await h.user(ws);
    const shared = await make.project(h, ws, { name: 'Shared' });
    const hidden = await make.project(h, ws, { name: 'Hidden' });
    await make.member(h, ws, { project: shared, user });
    await make.member(h, ws, { project: shared, user: projectAdmin, role: 'Administrator' });
    await make.member(h, ws, { project: shared, user: other });
    const own = await make.activity(h, ws, { owner: user, project: shared });
    const others = await make.activity(h, ws, { owner: other, project: shared });
    const ownReport = await make.report(h, ws, { owner: user });
    await make.report(h, ws, { owner: other });
    await make.costRate(h, ws, { user });
    await make.costRate(h, ws, { user: other });
    await make.lock(h, ws, { user, year: 2026, week: 10 });

    const seenBy = async (who: typeof user) => (await readFeed(h, ws, who)).events.map((event) => `${event.type} ${event.data.id}`);
    const userSees = await seenBy(user);
    expect(userSees).toContain(`project.created ${shared.id}`);
    expect(userSees).not.toContain(`project.created ${hidden.id}`);
    expect(userSees).toContain(`activity.created ${own.id}`);
    expect(userSees).not.toContain(`activity.created ${others.id}`);
    expect(userSees).toContain(`report.created ${ownReport.id}`);
    expect(userSees.filter((line) => line.startsWith('report.created'))).toHaveLength(1);
    expect(userSees.filter((line) => line.startsWith('cost_rate.created'))).toHaveLength(1);
    expect(userSees.filter((line) => line.startsWith('timesheet.'))).toEqual([]);
    expect(userSees.filter((line) => line.startsWith('user.'))).toEqual([]); // made by the data layer: no invitation
    // A project admin reads the activities of the project they administer, not other users' reports.
    const adminOfProject = await seenBy(projectAdmin);
    expect(adminOfProject).toContain(`activity.created ${own.id}`);
    expect(adminOfProject).toContain(`activity.created ${others.id}`);
    expect(adminOfProject.filter((line) => line.startsWith('report.created'))).toEqual([]);
    // The workspace's administrator reads them all.
    const all = await seenBy(ws.admin);
    for (const line of [...userSees, ...adminOfProject]) expect(all).toContain(line);
    expect(all.filter((line) => line.startsWith('report.created'))).toHaveLength(2);
    expect(all.filter((line) => line.startsWith('timesheet.locked'))).toHaveLength(1);
  });

  it('a User who leaves a project no longer reads its events', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const project = await make.project(h, ws);
    const member = await make.member(h, ws, { project, user });
    const seen = async () => (await readFeed(h, ws, user)).events.filter((event) => event.type === 'project.created');
    expect(await seen()).toHaveLength(1);
    await as(h, ws).delete(`/api/projects/${project.id}/members/${member.id}`);
    expect(await seen()).toHaveLength(0);
  });

  it('pages follow the cursor in commit order without gaps or repeats; the end of the feed answers its position, and Link names the next page', async () => {
    const ws = await h.workspace();
    const start = await feedEnd(h, ws);
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await make.activity(h, ws, { name: `A${i}` })).id);
    const pages: string[][] = [];
    let cursor = start;
    for (;;) {
      const res = await as(h, ws).get('/api/changes', undefined, { query: { after: cursor, limit: '3' } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.link).toBe(`</api/changes?after=${res.body.cursor}&limit=3>; rel="next"`);
      pages.push(res.body.events.map((event: any) => event.data.id));
      expect(res.body.hasMore).toBe(pages.flat().length < 7);
      cursor = res.body.cursor;
      if (!res.body.hasMore) break;
    }
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(made);
    // At the end: no events, the same cursor, until something changes.
    const idle = await as(h, ws).get('/api/changes', undefined, { query: { after: cursor } });
    expect(idle.body).toEqual({ events: [], cursor, hasMore: false });
    const next = await make.activity(h, ws);
    const after = await as(h, ws).get('/api/changes', undefined, { query: { after: cursor } });
    expect(after.body.events.map((event: any) => event.data)).toEqual([next]);
  });

  it('an after that is no cursor, or past the end of the feed, is 422; limit is 1 to 1000', async () => {
    const ws = await h.workspace();
    const end = Number(await feedEnd(h, ws));
    for (const after of ['abc', '-1', '01', String(end + 1)]) {
      const res = await as(h, ws).get('/api/changes', undefined, { query: { after } });
      expect(res.status, after).toBe(422);
      expect(res.body.errors[0].pointer).toBe('/query/after');
    }
    for (const limit of ['0', '1001', 'x']) expect((await as(h, ws).get('/api/changes', undefined, { query: { limit } })).status).toBe(422);
  });
});
