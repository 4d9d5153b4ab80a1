import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok } from '../support/harness.js';
import { entry, membership, namedUser, report, runReport, setRounding } from './run-world.js';

describeEachStore('Report time: rounding, periods, DST and empty rows', (h) => {
  it('rounds each entry before summing, in each mode, at the boundary: 7 min 30 s at 15 minutes', async () => {
    const ws = await h.workspace();
    const ada = await namedUser(h, ws, 'Ada');
    await entry(h, ws, { owner: ada, startedAt: '2026-07-02T09:00:00Z', seconds: 450 });
    await entry(h, ws, { owner: ada, startedAt: '2026-07-02T10:00:00Z', seconds: 449 });
    await entry(h, ws, { owner: ada, startedAt: '2026-07-02T11:00:00.000Z', seconds: 900.999 });
    const time = async () => (await report(h, ws, { dimensions: ['user'], metrics: ['time'] })).totals.time;
    expect(await time()).toBe(450 + 449 + 900);
    await setRounding(h, ws, { enabled: true, interval: 15, mode: 'NEAREST' });
    expect(await time()).toBe(900 + 0 + 900);
    await setRounding(h, ws, { enabled: true, mode: 'UP' });
    expect(await time()).toBe(900 + 900 + 900);
    await setRounding(h, ws, { enabled: true, mode: 'DOWN' });
    expect(await time()).toBe(0 + 0 + 900);
    const body = await report(h, ws, { dimensions: ['user'], metrics: ['time'] });
    expect(body.rounding).toEqual({ enabled: true, interval: 15, mode: 'DOWN' });
  });

  it('money uses the rounded time', async () => {
    const ws = await h.workspace();
    const ada = await namedUser(h, ws, 'Ada');
    const apollo = await make.project(h, ws, { name: 'Apollo', billable: true });
    await make.revenueRate(h, ws, { project: apollo, member: await membership(h, ws, apollo, ada), value: 60 });
    await entry(h, ws, { owner: ada, project: apollo, startedAt: '2026-07-02T09:00:00Z', seconds: 450 });
    await setRounding(h, ws, { enabled: true, interval: 15, mode: 'NEAREST' });
    expect((await report(h, ws, { dimensions: ['project'], metrics: ['revenue'] })).totals.revenue).toEqual({ EUR: 15 });
  });

  it('a DST week in Europe/Berlin: each entry takes the day and week of its own startedAt as a person in Berlin sees them', async () => {
    const ws = await h.workspace();
    const ada = await namedUser(h, ws, 'Ada');
    // Clocks went from 02:00 CET to 03:00 CEST on Sunday 2026-03-29 (01:00 UTC).
    await entry(h, ws, { owner: ada, startedAt: '2026-03-22T23:30:00Z', seconds: 60 }); // Mon 23 Mar 00:30 CET
    await entry(h, ws, { owner: ada, startedAt: '2026-03-28T23:30:00Z', seconds: 120 }); // Sun 29 Mar 00:30 CET
    await entry(h, ws, { owner: ada, startedAt: '2026-03-29T21:30:00Z', seconds: 180 }); // Sun 29 Mar 23:30 CEST
    await entry(h, ws, { owner: ada, startedAt: '2026-03-29T22:30:00Z', seconds: 240 }); // Mon 30 Mar 00:30 CEST
    const body = await report(
      h,
      ws,
      { start: '2026-03-22T00:00:00+01:00', end: '2026-04-06T00:00:00+02:00', dimensions: ['week', 'day'], metrics: ['time'] },
      { query: { timeZone: 'Europe/Berlin' } },
    );
    expect(body.timeZone).toBe('Europe/Berlin');
    expect(body.rows).toEqual([
      {
        key: '2026-W13',
        label: '2026-W13 (23 Mar – 29 Mar 2026)',
        entries: 3,
        time: 360,
        rows: [
          { key: '2026-03-23', label: 'Mon, 23 Mar 2026', entries: 1, time: 60 },
          { key: '2026-03-29', label: 'Sun, 29 Mar 2026', entries: 2, time: 300 },
        ],
      },
      { key: '2026-W14', label: '2026-W14 (30 Mar – 5 Apr 2026)', entries: 1, time: 240, rows: [{ key: '2026-03-30', label: 'Mon, 30 Mar 2026', entries: 1, time: 240 }] },
    ]);
  });

  it('a DST week in America/Sao_Paulo (November 2018, clocks from 00:00 to 01:00): days and weeks as a person there sees them', async () => {
    const ws = await h.workspace();
    const ada = await namedUser(h, ws, 'Ada');
    await entry(h, ws, { owner: ada, startedAt: '2018-11-04T02:30:00Z', seconds: 60 }); // Sat 3 Nov 23:30 -03
    await entry(h, ws, { owner: ada, startedAt: '2018-11-04T03:30:00Z', seconds: 120 }); // Sun 4 Nov 01:30 -02
    await entry(h, ws, { owner: ada, startedAt: '2018-11-05T02:30:00Z', seconds: 180 }); // Mon 5 Nov 00:30 -02
    const body = await report(
      h,
      ws,
      { start: '2018-11-01T00:00:00-03:00', end: '2018-11-08T00:00:00-02:00', dimensions: ['day'], metrics: ['time'], hideEmptyRows: true },
      { query: { timeZone: 'America/Sao_Paulo' } },
    );
    expect(body.rows.map((row: any) => [row.key, row.time])).toEqual([
      ['2018-11-03', 60],
      ['2018-11-04', 120],
      ['2018-11-05', 180],
    ]);
    const weeks = await report(h, ws, { start: '2018-11-01T00:00:00-03:00', end: '2018-11-08T00:00:00-02:00', dimensions: ['week'], metrics: ['time'] }, { query: { timeZone: 'America/Sao_Paulo' } });
    expect(weeks.rows.map((row: any) => [row.key, row.time])).toEqual([
      ['2018-W44', 180],
      ['2018-W45', 180],
    ]);
  });

  it('named periods resolve when the report runs, in the zone of the timeZone query, else the caller\'s preference, else the organization\'s', async () => {
    const ws = await h.workspace();
    const ada = await namedUser(h, ws, 'Ada');
    const now = new Date();
    await entry(h, ws, { owner: ada, startedAt: new Date(now.getTime() - 60_000).toISOString(), seconds: 30 });
    const run = (query: Record<string, string>, period: string) =>
      ok(as(h, ws, ada).post('/api/reports/run', { period, start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z', dimensions: ['user'], metrics: ['time'], hideEmptyRows: true }, { query }));
    const today = await run({ timeZone: 'Pacific/Kiritimati' }, 'today');
    expect(today.timeZone).toBe('Pacific/Kiritimati');
    expect(Date.parse(today.end) - Date.parse(today.start)).toBe(86_400_000);
    expect(today.start.endsWith('T10:00:00.000Z')).toBe(true);
    const week = await run({ timeZone: 'UTC' }, 'thisWeek');
    expect(new Date(week.start).getUTCDay()).toBe(1);
    expect(Date.parse(week.end) - Date.parse(week.start)).toBe(7 * 86_400_000);
    expect((await run({}, 'lastYear')).timeZone).toBe('UTC');
    await ok(as(h, ws).put('/api/organization', { timeZone: 'Asia/Tokyo' }));
    expect((await run({}, 'thisMonth')).timeZone).toBe('Asia/Tokyo');
    await ok(as(h, ws, ada).put(`/api/users/${ada.userId}/preferences`, { timeZone: 'America/New_York' }));
    const month = await run({}, 'thisMonth');
    expect(month.timeZone).toBe('America/New_York');
    expect(month.totals.entries).toBe(Date.parse(month.start) <= now.getTime() - 60_000 ? 1 : 0);
  });

  it('hideEmptyRows false fills every day of the period and every project and user with zeros', async () => {
    const ws = await h.workspace();
    await ok(as(h, ws).put(`/api/users/${ws.admin.userId}`, { name: 'Admin' }));
    const ada = await namedUser(h, ws, 'Ada');
    const apollo = await make.project(h, ws, { name: 'Apollo' });
    const zeus = await make.project(h, ws, { name: 'Zeus' });
    await membership(h, ws, apollo, ada);
    await entry(h, ws, { owner: ada, project: apollo, startedAt: '2026-07-02T09:00:00Z', seconds: 60 });
    const week = { start: '2026-07-01T00:00:00Z', end: '2026-07-04T00:00:00Z', hideEmptyRows: false };
    const days = await report(h, ws, { ...week, dimensions: ['day'], metrics: ['time'] });
    expect(days.rows.map((row: any) => [row.key, row.entries, row.time])).toEqual([
      ['2026-07-01', 0, 0],
      ['2026-07-02', 1, 60],
      ['2026-07-03', 0, 0],
    ]);
    const projects = await report(h, ws, { ...week, dimensions: ['project', 'user'], metrics: ['time'] });
    expect(projects.rows).toEqual([
      {
        key: apollo.id,
        label: 'Apollo',
        entries: 1,
        time: 60,
        rows: [
          { key: ada.userId, label: 'Ada', entries: 1, time: 60 },
          { key: ws.admin.userId, label: 'Admin', entries: 0, time: 0 },
        ],
      },
      { key: zeus.id, label: 'Zeus', entries: 0, time: 0, rows: [{ key: ws.admin.userId, label: 'Admin', entries: 0, time: 0 }] },
    ]);
  });

  it('filling more than 1,000 buckets of a time dimension is 422; 1,000 are answered', async () => {
    const ws = await h.workspace();
    const start = '2026-01-01T00:00:00Z';
    const plus = (days: number) => new Date(Date.parse(start) + days * 86_400_000).toISOString();
    expect((await runReport(h, ws, { start, end: plus(1000), hideEmptyRows: false, dimensions: ['day'], metrics: ['time'] })).status).toBe(200);
    const over = await runReport(h, ws, { start, end: plus(1001), hideEmptyRows: false, dimensions: ['day'], metrics: ['time'] });
    expect(over.status).toBe(422);
    expect(over.body.detail).toContain('more than 1000 buckets of day');
    expect((await runReport(h, ws, { start, end: plus(1001), hideEmptyRows: true, dimensions: ['day'], metrics: ['time'] })).status).toBe(200);
  });

  it('a period over the whole calendar counts entries from 0001-01-02 on; grouped by day, week or month it may cover 100 years at most', async () => {
    const ws = await h.workspace();
    const ada = await namedUser(h, ws, 'Ada');
    await entry(h, ws, { owner: ada, startedAt: '0000-06-01T00:00:00Z', seconds: 60 });
    await entry(h, ws, { owner: ada, startedAt: '0001-01-02T00:00:00Z', seconds: 120 });
    await entry(h, ws, { owner: ada, startedAt: '9999-12-29T23:00:00Z', seconds: 180 });
    const all = { start: '0000-01-01T00:00:00Z', end: '9999-12-31T23:59:59Z', metrics: ['time'] };
    const body = await report(h, ws, { ...all, dimensions: ['user'] }, { query: { timeZone: 'Pacific/Kiritimati' } });
    expect([body.start, body.end]).toEqual(['0001-01-02T00:00:00.000Z', '9999-12-30T00:00:00.000Z']);
    expect(body.totals).toEqual({ entries: 2, time: 300 });
    const long = await runReport(h, ws, { ...all, dimensions: ['user', 'month'] });
    expect(long.status).toBe(422);
    expect(long.body.detail).toContain('at most 100 years');
    // In year 1 these zones keep their local mean time: Kiritimati 10:29:20 behind UTC, Pago Pago 12:37:12 ahead.
    for (const [timeZone, day] of [['Pacific/Kiritimati', '0001-01-01'], ['Pacific/Pago_Pago', '0001-01-02']]) {
      const early = await report(h, ws, { start: '0001-01-01T00:00:00Z', end: '0002-01-01T00:00:00Z', dimensions: ['month', 'week', 'day'], metrics: ['time'] }, { query: { timeZone } });
      expect(early.rows[0].key).toBe('0001-01');
      expect(early.rows[0].rows[0].key).toBe('0001-W01');
      expect(early.rows[0].rows[0].rows[0].key).toBe(day);
    }
  });
});
