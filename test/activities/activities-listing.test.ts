import { Buffer } from 'node:buffer';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { as, describeEachStore, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { listingPlanOf } from '../support/plans.js';
import { type ActivityFilter, type ActivityReader, jsonObjectOf, LIST_PIECE, toDbBool } from '../support/src.js';
import { activityAnswer, tracking } from '../support/tracking.js';

/** Names a serializer could render differently: quotes, backslashes, control characters, separators, emoji. */
const TRICKY_NAMES = [
  'Plain',
  'Quote " and backslash \\ and slash /',
  'Tab\tnew line\nreturn\rform feed\fbackspace\b',
  'Low controls \u0001\u0002\u001f and DEL \u007f',
  'Separators \u2028 \u2029 and BOM \ufeff inside',
  'Accents: Réunion, Übersetzung, Ærø',
  'Emoji 😀 and 👩‍💻, CJK 時間管理',
  '</script><b>&amp;</b>',
  'x'.repeat(196),
];

const planOf = (h: Harness, filter: ActivityFilter, reader: ActivityReader) => listingPlanOf(h, filter, reader, { administers: false });

describeEachStore('Listing activities: rendered by the database', (h) => {
  it('renders every activity with the very bytes of GET /activities/{id}, in startedAt order', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const billable = await t.project({ billable: true });
    await t.member(billable.id, user);
    const ids: string[] = [];
    for (const [i, name] of TRICKY_NAMES.entries()) {
      const created = await t.activity(user, {
        name: `  ${name}  `,
        startedAt: `2026-07-0${1 + (i % 5)}T0${i % 10}:00:00+02:00`,
        endedAt: `2026-07-0${1 + (i % 5)}T0${i % 10}:30:00.5+02:00`,
        ...(i % 2 === 0 ? { projectId: billable.id } : { billable: i % 3 === 0 }),
      });
      ids.push(created.id);
    }
    ids.push((await t.timer(user, '2026-07-06T08:00:00Z', { name: 'Running "timer"' })).id);

    const single = new Map<string, string>();
    const records = new Map<string, { startedAt: string; id: string; projectId: string | null }>();
    for (const id of ids) {
      const one = await as(h, ws, user).get(`/api/activities/${id}`);
      single.set(id, one.text);
      records.set(id, one.body);
    }
    const ordered = [...records.values()].sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : a.id < b.id ? -1 : 1));
    const render = (list: { id: string }[]) => `{${list.map((r) => `${JSON.stringify(r.id)}:${single.get(r.id)}`).join(',')}}`;
    const expected = render(ordered);
    const onProject = ordered.filter((r) => r.projectId === billable.id);

    for (const [caller, query, text] of [
      [user, '', expected],
      [ws.admin, '', expected],
      [ws.admin, `?userId=${user.userId}`, expected],
      [ws.admin, `?projectId=${billable.id}`, render(onProject)],
      [user, '?from=2026-06-01T00:00:00Z&to=2026-07-10T00:00:00Z', expected],
    ] as [TestUser, string, string][]) {
      const res = await as(h, ws, caller).get(`/api/activities${query}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(res.body), query).toEqual(Object.keys(JSON.parse(text)));
      expect(res.text).toBe(text);
    }
    expect(onProject.length).toBe(5);
    const none = await as(h, ws, user).get('/api/activities?to=2020-01-01T00:00:00Z');
    expect(none.text).toBe('{}');
  });

  /**
   * Long activities: `from` becomes an index bound through the longest activity of the user (or the
   * workspace) and the oldest running timer; every way an activity gets long must keep it listed.
   */
  async function longHistory(): Promise<{ ws: TestWorkspace; user: TestUser; projectId: string; expected: Record<string, string> }> {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const user = await h.user(ws);
    const project = await t.project();
    await t.member(project.id, user);
    const on = { projectId: project.id };
    const ids: Record<string, string> = {};
    ids.short = (await t.activity(user, { ...on, startedAt: '2026-07-09T23:00:00Z', endedAt: '2026-07-10T01:00:00Z' })).id;
    ids.threeDays = (await t.activity(user, { ...on, startedAt: '2026-07-07T00:00:00Z', endedAt: '2026-07-10T00:00:01Z' })).id;
    const moved = await t.activity(user, { ...on, startedAt: '2026-07-09T22:00:00Z', endedAt: '2026-07-10T00:30:00Z' });
    await t.ok(as(h, ws, user).put(`/api/activities/${moved.id}`, { startedAt: '2026-06-25T00:00:00Z' }));
    ids.movedStart = moved.id;
    const closedLate = await t.timer(user, '2026-06-22T00:00:00Z', on);
    await t.ok(as(h, ws, user).put(`/api/activities/${closedLate.id}`, { endedAt: '2026-07-10T00:00:02Z' }));
    ids.closedLate = closedLate.id;
    const replaced = await t.timer(user, '2026-06-20T00:00:00Z', on);
    ids.replacedTimer = replaced.id;
    // Starting a new timer closes the running one at the new start: 20 days long (under the 31-day bound).
    ids.running = (await t.timer(user, '2026-07-10T00:00:03Z', on)).id;
    ids.endsBefore = (await t.activity(user, { ...on, startedAt: '2026-07-05T00:00:00Z', endedAt: '2026-07-09T23:59:59Z' })).id;
    return { ws, user, projectId: project.id, expected: ids };
  }

  it('keeps activities longer than a day, whichever write made them long, when from bounds the period', async () => {
    const { ws, user, projectId, expected } = await longHistory();
    const other = await h.user(ws);
    // A running timer of another user, started long ago: workspace-wide listings must keep it.
    const ancient = (await as(h, ws, other).post('/api/activities', { name: 'Forgotten', startedAt: '2025-01-01T00:00:00Z', pending: true })).body.id;
    const from = '2026-07-10T00:00:00Z';
    const keys = async (caller: TestUser, query: string) => Object.keys((await as(h, ws, caller).get(`/api/activities?from=${from}${query}`)).body);
    const inOrder = [expected.replacedTimer, expected.closedLate, expected.movedStart, expected.threeDays, expected.short, expected.running];
    expect(await keys(user, '')).toEqual(inOrder);
    expect(await keys(user, '&to=2026-07-10T00:00:03Z')).toEqual(inOrder.slice(0, -1));
    expect(await keys(ws.admin, `&userId=${user.userId}`)).toEqual(inOrder);
    expect(await keys(ws.admin, `&projectId=${projectId}`)).toEqual(inOrder);
    expect(await keys(ws.admin, '')).toEqual([ancient, ...inOrder]);
    expect(await keys(ws.admin, `&to=${from}`)).toEqual([ancient, ...inOrder.slice(0, 5)]);
    const lengths = await h.app.db.selectFrom('activity_length_bounds').selectAll().where('user_id', '=', user.userId).execute();
    // The longest: the timer closed by the next one's start, 20 days and 3 seconds.
    expect(lengths).toEqual([{ user_id: user.userId, organization_id: ws.organizationId, longest_seconds: 20 * 86_400 + 3 }]);
  });

  it('the from bound follows the data: deleting or shortening a user\'s longest activity lowers that user\'s bound, and only theirs', async () => {
    const ws = await h.workspace();
    const t = tracking(h, ws);
    const [user, other] = [await h.user(ws), await h.user(ws)];
    const bounds = async () =>
      Object.fromEntries(
        (await h.app.db.selectFrom('activity_length_bounds').select(['user_id', 'longest_seconds']).where('organization_id', '=', ws.organizationId).execute()).map(
          (row) => [row.user_id, Number(row.longest_seconds)],
        ),
      );
    const DAY = 86_400;
    const month = await t.activity(user, { startedAt: '2026-06-01T00:00:00Z', endedAt: '2026-07-01T00:00:00Z' });
    const tenDays = await t.activity(user, { startedAt: '2026-07-01T00:00:00Z', endedAt: '2026-07-11T00:00:00.001Z' });
    await t.activity(user, { startedAt: '2026-07-12T09:00:00Z', endedAt: '2026-07-12T10:00:00Z' });
    await t.activity(other, { startedAt: '2026-06-01T00:00:00Z', endedAt: '2026-06-06T00:00:00Z' });
    expect(await bounds()).toEqual({ [user.userId]: 30 * DAY, [other.userId]: 5 * DAY });
    // Deleting the longest: the next longest, to the second rounded up.
    await t.ok(as(h, ws, user).delete(`/api/activities/${month.id}`));
    expect(await bounds()).toEqual({ [user.userId]: 10 * DAY + 1, [other.userId]: 5 * DAY });
    // Shortening it, then making it shorter than a day: no bound is left for that user.
    await t.ok(as(h, ws, user).put(`/api/activities/${tenDays.id}`, { endedAt: '2026-07-03T00:00:00Z' }));
    expect(await bounds()).toEqual({ [user.userId]: 2 * DAY, [other.userId]: 5 * DAY });
    await t.ok(as(h, ws, user).put(`/api/activities/${tenDays.id}`, { startedAt: '2026-07-02T12:00:00Z' }));
    expect(await bounds()).toEqual({ [other.userId]: 5 * DAY });
    // Deleting a shorter activity than the longest leaves the bound alone; the listings answer as before.
    const week = await t.activity(user, { startedAt: '2026-07-20T00:00:00Z', endedAt: '2026-07-27T00:00:00Z' });
    const twoDays = await t.activity(user, { startedAt: '2026-07-21T00:00:00Z', endedAt: '2026-07-23T00:00:00Z' });
    await t.ok(as(h, ws, user).delete(`/api/activities/${twoDays.id}`));
    expect(await bounds()).toEqual({ [user.userId]: 7 * DAY, [other.userId]: 5 * DAY });
    expect(Object.keys((await as(h, ws).get('/api/activities?from=2026-07-26T00:00:00Z')).body)).toEqual([week.id]);
    expect(Object.keys((await as(h, ws).get('/api/activities?from=2026-07-02T23:00:00Z&to=2026-07-04T00:00:00Z')).body)).toEqual([tenDays.id]);
  });

  it(`reads an answer of more than ${LIST_PIECE} entries in pieces, and answers every entry once, in order`, async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const total = LIST_PIECE * 2 + 7;
    const start = Date.parse('2025-01-01T00:00:00Z');
    const ids: string[] = [];
    for (let done = 0; done < total; ) {
      const rows = Array.from({ length: Math.min(500, total - done) }, (_, i) => {
        const n = done + i;
        // Pairs share a startedAt, so the pieces must also be ordered (and continued) by id.
        const startedAt = new Date(start + Math.floor(n / 2) * 60_000).toISOString();
        const id = `${String(n).padStart(8, '0')}-0000-7000-8000-000000000000`;
        ids.push(id);
        return {
          id, organization_id: ws.organizationId, user_id: user.userId, project_id: null, name: `Entry ${n}`, billable: toDbBool(false),
          started_at: startedAt, ended_at: new Date(Date.parse(startedAt) + 30_000).toISOString(), created_at: startedAt, updated_at: startedAt,
        };
      });
      await h.app.db.insertInto('activities').values(rows).execute();
      done += rows.length;
    }
    for (const [caller, query] of [
      [user, ''],
      [user, '?from=2024-12-31T00:00:00Z&to=2026-01-01T00:00:00Z'],
      [ws.admin, `?userId=${user.userId}`],
    ] as [TestUser, string][]) {
      const res = await as(h, ws, caller).get(`/api/activities${query}`);
      expect(res.status).toBe(200);
      const keys = Object.keys(res.body);
      expect(keys.length, query).toBe(total);
      expect(keys).toEqual(ids);
      expect(res.body[ids[total - 1]]).toEqual(
        activityAnswer({
          id: ids[total - 1], name: `Entry ${total - 1}`, billable: false, projectId: null, userId: user.userId,
          startedAt: new Date(start + Math.floor((total - 1) / 2) * 60_000).toISOString(),
          endedAt: new Date(start + Math.floor((total - 1) / 2) * 60_000 + 30_000).toISOString(),
        }),
      );
    }
  }, 60_000);

  it('answers {} to a User asking for another user\'s activities on no project they administer', async () => {
    const ws = await h.workspace();
    const [a, b] = [await h.user(ws), await h.user(ws)];
    await tracking(h, ws).activity(b);
    const res = await as(h, ws, a).get(`/api/activities?userId=${b.userId}&from=2026-01-01T00:00:00Z`);
    expect([res.status, res.text]).toEqual([200, '{}']);
  });

  it('reads a user\'s period from activities_user_listing within a started_at range bounded on both sides', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const period = { organizationId: ws.organizationId, from: '2026-07-01T00:00:00.000Z', to: '2026-07-08T00:00:00.000Z' };
    for (const [filter, reader] of [
      [period, { all: false, userId: user.userId }],
      [{ ...period, userId: user.userId }, { all: true }],
    ] as [ActivityFilter, ActivityReader][]) {
      const plan = await planOf(h, filter, reader);
      if (h.store === 'postgres') {
        expect(plan).toMatch(/Index (Only )?Scan using activities_user_listing/);
        expect(plan).toMatch(/started_at >= \$?\d*.*started_at < |started_at < .*started_at >= /s);
        // The running timers come from a partial index, not from filtering the user's whole listing index.
        expect(plan).not.toMatch(/Filter: \(ended_at IS NULL\)/);
      } else {
        expect(plan).toMatch(/USING COVERING INDEX activities_user_listing \(user_id=\? AND started_at>\? AND started_at<\?\)/);
        expect(plan).not.toMatch(/TEMP B-TREE/);
      }
    }
  });
});

describe('jsonObjectOf', () => {
  it('streams a long text answer in pieces that join into the same JSON, surrogate pairs intact', async () => {
    const entry = (i: number) => `"id-${i}":{"name":"${'😀'.repeat(i % 7)}${'é'.repeat(i % 5)}${'x'.repeat(300)}"}`;
    const entries = Array.from({ length: 5_000 }, (_, i) => entry(i)).join(',');
    const body = jsonObjectOf([entries, '"b":{}']);
    expect(body).toBeInstanceOf(Readable);
    const chunks: Buffer[] = [];
    for await (const chunk of body as Readable) chunks.push(Buffer.from(chunk));
    expect(chunks.length).toBeGreaterThan(10);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(`{${entries},"b":{}}`);
    expect(jsonObjectOf([])).toBe('{}');
    expect(jsonObjectOf(['"a":{}'])).toBe('{"a":{}}');
    expect(jsonObjectOf(['"a":{}', '"b":{}'])).toBe('{"a":{},"b":{}}');
  });

  it('sends the bytes of a long answer between the braces as they are, and a short one whole', async () => {
    const entries = Buffer.from(Array.from({ length: 5_000 }, (_, i) => `"id-${i}":{"name":"${'😀é'.repeat(i % 3)}${'x'.repeat(300)}"}`).join(','));
    const body = jsonObjectOf([entries, Buffer.from('"b":{}')]);
    expect(body).toBeInstanceOf(Readable);
    const chunks: Buffer[] = [];
    for await (const chunk of body as Readable) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).toString('utf8')).toBe(`{${entries.toString('utf8')},"b":{}}`);
    expect((jsonObjectOf([Buffer.from('"a":{}')]) as Buffer).toString()).toBe('{"a":{}}');
    expect((jsonObjectOf([Buffer.from('"a":{}'), Buffer.from('"b":{}')]) as Buffer).toString()).toBe('{"a":{},"b":{}}');
  });
});
