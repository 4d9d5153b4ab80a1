import fc from 'fast-check';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok, type TestUser } from '../support/harness.js';
import { cents, entry, membership, namedUser, report, setRounding } from './run-world.js';

/** The answers of the cross-store scenario, by store, with ids replaced by names (both stores must give the same bytes). */
const answersByStore = new Map<string, string>();

describeEachStore('Report money: rates in force, currencies, exact totals', (h) => {
  it('a rate change mid-period: each entry earns and costs at the rates in force at its startedAt', async () => {
    const ws = await h.workspace();
    const ada = await namedUser(h, ws, 'Ada');
    const apollo = await make.project(h, ws, { name: 'Apollo', billable: true });
    const member = await membership(h, ws, apollo, ada);
    await make.revenueRate(h, ws, { project: apollo, member, value: 100, from: '2026-01-01T00:00:00Z', to: '2026-07-15T00:00:00Z' });
    await make.revenueRate(h, ws, { project: apollo, member, value: 120, from: '2026-07-15T00:00:00Z', to: null });
    await make.costRate(h, ws, { user: ada, value: 40, from: '2026-01-01T00:00:00Z', to: '2026-07-15T12:00:00Z' });
    await make.costRate(h, ws, { user: ada, value: 50, from: '2026-07-15T12:00:00Z', to: null });
    await entry(h, ws, { owner: ada, project: apollo, startedAt: '2026-07-10T09:00:00Z', seconds: 3600 });
    await entry(h, ws, { owner: ada, project: apollo, startedAt: '2026-07-15T09:00:00Z', seconds: 3600 });
    await entry(h, ws, { owner: ada, project: apollo, startedAt: '2026-07-20T09:00:00Z', seconds: 1800 });
    const body = await report(h, ws, { dimensions: ['day'], metrics: ['revenue', 'cost', 'profit'] });
    expect(body.rows.map((row: any) => [row.key, row.revenue, row.cost, row.profit])).toEqual([
      ['2026-07-10', { EUR: 100 }, { EUR: 40 }, { EUR: 60 }],
      ['2026-07-15', { EUR: 120 }, { EUR: 40 }, { EUR: 80 }],
      ['2026-07-20', { EUR: 60 }, { EUR: 25 }, { EUR: 35 }],
    ]);
    expect(body.totals).toEqual({ entries: 3, revenue: { EUR: 280 }, cost: { EUR: 105 }, profit: { EUR: 175 }, unpricedBillableTime: 0, uncostedTime: 0 });
  });

  it('a member with no revenue rate and a user with no cost rate: the time is reported as unpriced and uncosted, never a silent zero', async () => {
    const ws = await h.workspace();
    const ada = await namedUser(h, ws, 'Ada');
    const apollo = await make.project(h, ws, { name: 'Apollo', billable: true });
    await membership(h, ws, apollo, ada);
    await entry(h, ws, { owner: ada, project: apollo, startedAt: '2026-07-10T09:00:00Z', seconds: 3600 });
    await entry(h, ws, { owner: ada, project: apollo, startedAt: '2026-07-11T09:00:00Z', seconds: 600, billable: false });
    const body = await report(h, ws, { dimensions: ['user'], metrics: ['revenue', 'cost'] });
    expect(body.totals).toEqual({ entries: 2, revenue: {}, cost: {}, unpricedBillableTime: 3600, uncostedTime: 4200 });
  });

  it('two currencies are kept apart, each rounded to its own minor unit (JPY has none)', async () => {
    const ws = await h.workspace();
    const ada = await namedUser(h, ws, 'Ada');
    const bob = await namedUser(h, ws, 'Bob');
    const apollo = await make.project(h, ws, { name: 'Apollo', billable: true });
    await make.revenueRate(h, ws, { project: apollo, member: await membership(h, ws, apollo, ada), value: 33.333 });
    await make.revenueRate(h, ws, { project: apollo, member: await membership(h, ws, apollo, bob), currency: 'JPY', value: 5001 });
    await entry(h, ws, { owner: ada, project: apollo, startedAt: '2026-07-10T09:00:00Z', seconds: 3600 });
    await entry(h, ws, { owner: bob, project: apollo, startedAt: '2026-07-10T09:00:00Z', seconds: 1800 });
    const body = await report(h, ws, { dimensions: ['project', 'user'], metrics: ['revenue'] });
    expect(body.rows[0].rows.map((row: any) => [row.label, row.revenue])).toEqual([
      ['Ada', { EUR: 33.33 }],
      ['Bob', { JPY: 2501 }],
    ]);
    expect(body.rows[0].revenue).toEqual({ EUR: 33.33, JPY: 2501 });
    expect(body.totals.revenue).toEqual({ EUR: 33.33, JPY: 2501 });
  });

  it('every total equals the sum of its rows to the cent, against an independent computation (random entries, rates and rounding)', async () => {
    const entryArb = fc.record({
      user: fc.integer({ min: 0, max: 2 }),
      project: fc.constantFrom('P', 'Q', null),
      minute: fc.integer({ min: 0, max: 31 * 1440 - 1 }),
      seconds: fc.integer({ min: 0, max: 20_000 }),
      billable: fc.boolean(),
    });
    const rateArb = fc.option(fc.record({ thousandths: fc.integer({ min: 0, max: 2_000_000 }), currency: fc.constantFrom('EUR', 'JPY', 'KWD') }), { nil: null });
    const world = fc.record({
      entries: fc.array(entryArb, { minLength: 1, maxLength: 10 }),
      revenue: fc.array(fc.tuple(rateArb, rateArb), { minLength: 6, maxLength: 6 }),
      cost: fc.array(fc.tuple(rateArb, rateArb), { minLength: 3, maxLength: 3 }),
      changeDay: fc.integer({ min: 2, max: 30 }),
      rounding: fc.option(fc.record({ interval: fc.constantFrom(1, 6, 15, 60), mode: fc.constantFrom('NEAREST', 'UP', 'DOWN') }), { nil: null }),
    });
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const ws = await h.workspace();
        const users: TestUser[] = [];
        for (const name of ['Ana', 'Ben', 'Cy']) users.push(await namedUser(h, ws, name));
        const projects = { P: await make.project(h, ws, { name: 'P', billable: true }), Q: await make.project(h, ws, { name: 'Q', billable: true }) };
        const change = `2026-07-${String(w.changeDay).padStart(2, '0')}T12:00:00.000Z`;
        const periods = [
          { from: '2026-01-01T00:00:00.000Z', to: change },
          { from: change, to: null },
        ];
        const memberRates = new Map<string, typeof w.revenue[number]>();
        for (const [index, user] of users.entries()) {
          for (const [p, key] of (['P', 'Q'] as const).entries()) {
            const member = await membership(h, ws, projects[key], user);
            const rates = w.revenue[index * 2 + p];
            memberRates.set(`${key}:${index}`, rates);
            for (const [i, rate] of rates.entries()) {
              if (rate) await make.revenueRate(h, ws, { project: projects[key], member, currency: rate.currency, value: rate.thousandths / 1000, ...periods[i] });
            }
          }
          for (const [i, rate] of w.cost[index].entries()) {
            if (rate) await make.costRate(h, ws, { user, currency: rate.currency, value: rate.thousandths / 1000, ...periods[i] });
          }
        }
        if (w.rounding) await setRounding(h, ws, { enabled: true, ...w.rounding });
        for (const e of w.entries) {
          const startedAt = new Date(Date.parse('2026-07-01T00:00:00Z') + e.minute * 60_000).toISOString();
          await entry(h, ws, { owner: users[e.user], project: e.project === null ? null : projects[e.project], startedAt, seconds: e.seconds, billable: e.billable });
        }
        const body = await report(h, ws, { dimensions: ['project', 'user'], metrics: ['time', 'revenue', 'cost', 'profit'] });

        // The independent computation: per (project, user) leaf, exact sums in minor units, rounded half up once.
        const digits = (currency: string) => (currency === 'JPY' ? 0 : currency === 'KWD' ? 3 : 2);
        const round = (seconds: number) => {
          if (!w.rounding) return seconds;
          const step = w.rounding.interval * 60;
          if (w.rounding.mode === 'DOWN') return Math.floor(seconds / step) * step;
          if (w.rounding.mode === 'UP') return Math.ceil(seconds / step) * step;
          return Math.floor((seconds + step / 2) / step) * step;
        };
        const leaves = new Map<string, { revenue: Map<string, bigint>; cost: Map<string, bigint>; time: number; unpriced: number; uncosted: number }>();
        for (const e of w.entries) {
          const key = `${e.project === null ? null : projects[e.project].id}|${users[e.user].userId}`;
          const leaf = leaves.get(key) ?? { revenue: new Map(), cost: new Map(), time: 0, unpriced: 0, uncosted: 0 };
          leaves.set(key, leaf);
          const seconds = round(e.seconds);
          const startedAt = new Date(Date.parse('2026-07-01T00:00:00Z') + e.minute * 60_000).toISOString();
          const period = startedAt < change ? 0 : 1;
          leaf.time += seconds;
          const revenueRate = e.project === null ? null : memberRates.get(`${e.project}:${e.user}`)![period];
          if (e.billable && revenueRate) {
            const exact = BigInt(seconds) * BigInt(revenueRate.thousandths) * 10n ** BigInt(digits(revenueRate.currency));
            leaf.revenue.set(revenueRate.currency, (leaf.revenue.get(revenueRate.currency) ?? 0n) + exact);
          } else if (e.billable) leaf.unpriced += seconds;
          const costRate = w.cost[e.user][period];
          if (costRate) {
            const exact = BigInt(seconds) * BigInt(costRate.thousandths) * 10n ** BigInt(digits(costRate.currency));
            leaf.cost.set(costRate.currency, (leaf.cost.get(costRate.currency) ?? 0n) + exact);
          } else leaf.uncosted += seconds;
        }
        // Sums are in 1/3,600,000 of a minor unit: round half up.
        const minor = (sums: Map<string, bigint>) =>
          Object.fromEntries([...sums].map(([currency, sum]) => [currency, Number((2n * sum + 3_600_000n) / 7_200_000n)]));
        const inMinor = (amounts: Record<string, number>) =>
          Object.fromEntries(Object.entries(amounts).map(([currency, amount]) => [currency, Math.round(amount * 10 ** digits(currency))]));
        const add = (into: Record<string, number>, amounts: Record<string, number>) => {
          for (const [currency, amount] of Object.entries(amounts)) into[currency] = (into[currency] ?? 0) + amount;
          return into;
        };
        const totals = { revenue: {}, cost: {}, profit: {} } as Record<string, Record<string, number>>;
        for (const row of body.rows) {
          const sums = { revenue: {}, cost: {}, profit: {} } as Record<string, Record<string, number>>;
          for (const leafRow of row.rows) {
            const expected = leaves.get(`${row.key}|${leafRow.key}`)!;
            expect(inMinor(leafRow.revenue)).toEqual(minor(expected.revenue));
            expect(inMinor(leafRow.cost)).toEqual(minor(expected.cost));
            expect(leafRow.time).toBe(expected.time);
            expect([leafRow.unpricedBillableTime, leafRow.uncostedTime]).toEqual([expected.unpriced, expected.uncosted]);
            const profit = add({ ...minor(expected.revenue) }, Object.fromEntries(Object.entries(minor(expected.cost)).map(([c, v]) => [c, -v])));
            expect(inMinor(leafRow.profit)).toEqual(profit);
            for (const metric of ['revenue', 'cost', 'profit']) add(sums[metric], inMinor(leafRow[metric]));
          }
          for (const metric of ['revenue', 'cost', 'profit']) {
            expect(inMinor(row[metric])).toEqual(sums[metric]);
            add(totals[metric], sums[metric]);
          }
        }
        for (const metric of ['revenue', 'cost', 'profit']) expect(inMinor(body.totals[metric])).toEqual(totals[metric]);
        expect(body.totals.entries).toBe(w.entries.length);
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it('both stores answer the same bytes for the same data', async () => {
    const ws = await h.workspace();
    await ok(as(h, ws).put(`/api/users/${ws.admin.userId}`, { name: 'Admin' }));
    const ada = await namedUser(h, ws, 'Ada');
    const apollo = await make.project(h, ws, { name: 'Apollo', billable: true });
    const member = await membership(h, ws, apollo, ada);
    await make.revenueRate(h, ws, { project: apollo, member, value: 97.35 });
    await make.costRate(h, ws, { user: ada, value: 41.7, currency: 'USD' });
    await setRounding(h, ws, { enabled: true, interval: 6, mode: 'UP' });
    for (const [day, seconds] of [[2, 3725], [3, 61], [9, 17999], [30, 1]]) {
      await entry(h, ws, { owner: ada, project: apollo, startedAt: `2026-07-${String(day).padStart(2, '0')}T21:59:59.999Z`, seconds });
    }
    await entry(h, ws, { owner: ada, project: null, startedAt: '2026-07-04T23:30:00Z', seconds: 999, billable: false });
    const res = await as(h, ws).post(
      '/api/reports/run',
      { period: 'custom', start: '2026-06-29T00:00:00+02:00', end: '2026-08-03T00:00:00+02:00', dimensions: ['week', 'project', 'member'], metrics: ['time', 'billableTime', 'revenue', 'cost', 'profit'], filters: [{ odd: true }] },
      { query: { timeZone: 'Europe/Berlin' } },
    );
    expect(res.status).toBe(200);
    const named = res.text
      .replaceAll(ws.admin.userId, 'ADMIN')
      .replaceAll(ada.userId, 'ADA')
      .replaceAll(apollo.id, 'APOLLO')
      .replaceAll(member.id, 'MEMBER')
      .replaceAll((await membership(h, ws, apollo, ws.admin)).id, 'ADMIN_MEMBER');
    answersByStore.set(h.store, named);
    const other = [...answersByStore].find(([store]) => store !== h.store);
    if (other) expect(named).toBe(other[1]);
    expect(JSON.parse(named).totals).toEqual({
      entries: 5,
      time: 3960 + 360 + 18000 + 360 + 1080,
      billableTime: 3960 + 360 + 18000 + 360,
      // 116.82 + 486.75 + 9.735 rounded up at the half (each week's leaf rounds once).
      revenue: { EUR: 613.31 },
      cost: { USD: 275.22 },
      profit: { EUR: 613.31, USD: -275.22 },
      unpricedBillableTime: 0,
      uncostedTime: 0,
    });
    expect(cents(JSON.parse(named).rows.reduce((sum: Record<string, number>, row: any) => {
      for (const [c, v] of Object.entries<number>(row.revenue)) sum[c] = (sum[c] ?? 0) + v;
      return sum;
    }, {}))).toEqual(cents({ EUR: 613.31 }));
  });
});
