import { expect, it } from 'vitest';
import { as, describeEachStore, type TestUser, type TestWorkspace } from '../support/harness.js';
import { tracking } from '../support/tracking.js';

/** The target of a `Link: <…>; rel="next"` header, or undefined without one. */
function nextOf(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(match, link).not.toBeNull();
  return match![1];
}

describeEachStore('Listing activities in pages (docs/rules.md §6, "Listing activities")', (h) => {
  it('limit answers at most that many entries and a full page links the next one by an opaque cursor, with the same filters', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const lead = await h.user(ws);
    const project = await t.project();
    await t.member(project.id, user);
    await t.member(project.id, lead, { role: 'Administrator' });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      // Two share a start: the cursor carries the id as well as startedAt.
      const hour = String(8 + Math.min(i, 5)).padStart(2, '0');
      const created = await t.activity(user, { name: `a${i}`, projectId: project.id, startedAt: `2026-07-04T${hour}:00:00Z`, endedAt: `2026-07-04T${hour}:30:00Z` });
      ids.push(created.id);
    }
    await t.activity(lead, { name: 'other', startedAt: '2026-07-05T09:00:00Z', endedAt: '2026-07-05T10:00:00Z' });
    const whole = await as(h, ws, user).get('/api/activities?from=2026-07-01T00:00:00%2B02:00');
    expect(whole.status).toBe(200);
    expect(whole.headers.link).toBeUndefined();
    const all = Object.keys(whole.body);
    expect(all.sort()).toEqual([...ids].sort());

    for (const caller of [user, lead, ws.admin] as TestUser[]) {
      const expected = Object.keys((await as(h, ws, caller).get('/api/activities?from=2026-07-01T00:00:00%2B02:00&projectId=' + project.id)).body);
      expect(expected).toEqual(all);
      const seen: string[] = [];
      const texts: string[] = [];
      let url: string | undefined = `/api/activities?from=2026-07-01T00:00:00%2B02:00&projectId=${project.id}&limit=3`;
      for (let page = 0; url !== undefined; page++) {
        const res = await as(h, ws, caller).get(url);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        const keys = Object.keys(res.body);
        expect(keys.length).toBeLessThanOrEqual(3);
        seen.push(...keys);
        texts.push(res.text);
        const next = nextOf(res.headers.link as string | undefined);
        // A full page links the next; the last one (7 = 3 + 3 + 1) does not.
        expect(next !== undefined).toBe(keys.length === 3);
        if (next !== undefined) {
          const params = new URL(next, 'http://x').searchParams;
          expect(params.get('projectId')).toBe(project.id);
          expect(params.get('from')).toBe('2026-07-01T00:00:00+02:00');
          expect(params.get('limit')).toBe('3');
          expect(params.get('cursor')).toMatch(/^[A-Za-z0-9_-]+$/);
        }
        url = next;
      }
      expect(seen).toEqual(all);
      expect(texts.length).toBe(3);
      // The pages are the very text of the whole listing, cut between entries.
      const joined = `{${texts.map((text) => text.slice(1, -1)).filter((text) => text.length > 0).join(',')}}`;
      expect(joined).toBe((await as(h, ws, caller).get(`/api/activities?from=2026-07-01T00:00:00%2B02:00&projectId=${project.id}`)).text);
    }
  });

  it('a cursor alone continues with the rest of the listing; a page that ends exactly at the last entry links an empty one', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await t.activity(user, { startedAt: `2026-07-0${i + 1}T09:00:00Z`, endedAt: `2026-07-0${i + 1}T10:00:00Z` })).id);
    const first = await as(h, ws, user).get('/api/activities?limit=1');
    expect(Object.keys(first.body)).toEqual([ids[0]]);
    const cursor = new URL(nextOf(first.headers.link as string)!, 'http://x').searchParams.get('cursor')!;
    const rest = await as(h, ws, user).get(`/api/activities?cursor=${cursor}`);
    expect(rest.status).toBe(200);
    expect(Object.keys(rest.body)).toEqual(ids.slice(1));
    expect(rest.headers.link).toBeUndefined();

    const four = await as(h, ws, user).get('/api/activities?limit=4');
    expect(Object.keys(four.body)).toEqual(ids);
    const empty = await as(h, ws, user).get(nextOf(four.headers.link as string)!);
    expect(empty.status).toBe(200);
    expect(empty.text).toBe('{}');
    expect(empty.headers.link).toBeUndefined();
  });

  it('a limit outside 1 to 2000 or a cursor no page gave is 422 at its pointer', async () => {
    const ws: TestWorkspace = await h.workspace();
    for (const limit of ['0', '2001', 'abc', '-1', '1.5']) {
      const res = await as(h, ws).get(`/api/activities?limit=${limit}`);
      expect(res.status, limit).toBe(422);
      expect(res.body.errors?.[0]?.pointer ?? res.body.pointer, limit).toBe('/query/limit');
    }
    expect((await as(h, ws).get('/api/activities?limit=2000')).status).toBe(200);
    const forged = Buffer.from(JSON.stringify(['yesterday', 'x'])).toString('base64url');
    for (const cursor of ['abc', forged, Buffer.from('[1,2]').toString('base64url')]) {
      const res = await as(h, ws).get(`/api/activities?cursor=${cursor}`);
      expect(res.status, cursor).toBe(422);
      expect(JSON.stringify(res.body)).toContain('/query/cursor');
    }
  });
});
