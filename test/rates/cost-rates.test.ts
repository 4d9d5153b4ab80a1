import { expect, it } from 'vitest';
import { as, describeEachStore } from '../support/harness.js';
import { newId } from '../support/src.js';

const JAN = '2026-01-01T00:00:00.000Z';
const FEB = '2026-02-01T00:00:00.000Z';
const MAR = '2026-03-01T00:00:00.000Z';
const APR = '2026-04-01T00:00:00.000Z';

const rate = (fields: Record<string, unknown> = {}) => ({ currency: 'EUR', from: JAN, to: FEB, taxRate: 19, value: 42.5, ...fields });

describeEachStore('Cost rates', (h) => {
  it('an administrator adds a cost rate; it reads back alone and in the user\'s map', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const url = `/api/users/${user.userId}/rates/cost`;
    const res = await as(h, ws).post(url, rate({ from: '2026-01-01T01:00:00+01:00' }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(String), userId: user.userId, currency: 'EUR', from: JAN, to: FEB, taxRate: 19, value: 42.5 });
    expect((await as(h, ws).get(`${url}/${res.body.id}`)).body).toEqual(res.body);
    expect((await as(h, ws).get(url)).body).toEqual({ [res.body.id]: res.body });
  });

  it('to left out or null is open-ended (null in the record)', async () => {
    const ws = await h.workspace();
    const url = `/api/users/${ws.admin.userId}/rates/cost`;
    const { to: _to, ...open } = rate();
    const res = await as(h, ws).post(url, open);
    expect(res.status).toBe(200);
    expect(res.body.to).toBeNull();
  });

  it('the map lists a user\'s rates in creation order, only theirs', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const other = await h.user(ws);
    const url = `/api/users/${user.userId}/rates/cost`;
    const later = await as(h, ws).post(url, rate({ from: MAR, to: APR }));
    const earlier = await as(h, ws).post(url, rate({ from: JAN, to: FEB }));
    await as(h, ws).post(`/api/users/${other.userId}/rates/cost`, rate());
    const res = await as(h, ws).get(url);
    expect(Object.keys(res.body)).toEqual([later.body.id, earlier.body.id]);
  });

  it('a user reads their own cost rates', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const url = `/api/users/${user.userId}/rates/cost`;
    const created = await as(h, ws).post(url, rate());
    expect((await as(h, ws, user).get(url)).body).toEqual({ [created.body.id]: created.body });
    expect((await as(h, ws, user).get(`${url}/${created.body.id}`)).body).toEqual(created.body);
  });

  it('another user\'s cost rates are 404 for a User, list and record', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const other = await h.user(ws);
    const created = await as(h, ws).post(`/api/users/${other.userId}/rates/cost`, rate());
    for (const url of [`/api/users/${other.userId}/rates/cost`, `/api/users/${other.userId}/rates/cost/${created.body.id}`]) {
      const res = await as(h, ws, user).get(url);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not-found');
    }
    // Not through their own path either.
    expect((await as(h, ws, user).get(`/api/users/${user.userId}/rates/cost/${created.body.id}`)).status).toBe(404);
  });

  it('a User cannot write cost rates, not even their own (403)', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const url = `/api/users/${user.userId}/rates/cost`;
    const created = await as(h, ws).post(url, rate());
    for (const res of [
      await as(h, ws, user).post(url, rate({ from: MAR, to: APR })),
      await as(h, ws, user).post(url, { nonsense: true }),
      await as(h, ws, user).put(`${url}/${created.body.id}`, rate({ value: 1 })),
      await as(h, ws, user).delete(`${url}/${created.body.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect((await as(h, ws).get(url)).body).toEqual({ [created.body.id]: created.body });
  });

  it('unknown users, users of other workspaces and unknown rates are 404', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const created = await as(h, other).post(`/api/users/${other.admin.userId}/rates/cost`, rate());
    for (const userId of [newId(), 'junk', other.admin.userId]) {
      expect((await as(h, ws).get(`/api/users/${userId}/rates/cost`)).status).toBe(404);
      expect((await as(h, ws).post(`/api/users/${userId}/rates/cost`, rate())).status).toBe(404);
      expect((await as(h, ws).get(`/api/users/${userId}/rates/cost/${created.body.id}`)).status).toBe(404);
    }
    const mine = `/api/users/${ws.admin.userId}/rates/cost/${newId()}`;
    expect((await as(h, ws).get(mine)).status).toBe(404);
    expect((await as(h, ws).put(mine, rate())).status).toBe(404);
    expect((await as(h, ws).delete(mine)).status).toBe(404);
  });

  it('validation as for revenue rates: currency, offsets, to after from, taxRate 0–100, value ≥ 0, no coercion (422)', async () => {
    const ws = await h.workspace();
    const url = `/api/users/${ws.admin.userId}/rates/cost`;
    const cases: [unknown, string][] = [
      [rate({ currency: 'ABC' }), '/body/currency'],
      [rate({ currency: 'eur' }), '/body/currency'],
      [rate({ from: '2026-01-01T00:00:00' }), '/body/from'],
      [rate({ to: '2026-02-30T00:00:00Z' }), '/body/to'],
      [rate({ to: JAN }), '/body/to'],
      [rate({ to: '2025-12-31T00:00:00Z' }), '/body/to'],
      [rate({ taxRate: 101 }), '/body/taxRate'],
      [rate({ taxRate: -1 }), '/body/taxRate'],
      [rate({ value: -0.01 }), '/body/value'],
      [rate({ value: '5' }), '/body/value'],
      [{ currency: 'EUR', from: JAN, taxRate: 0 }, '/body/value'],
    ];
    for (const [body, pointer] of cases) {
      const res = await as(h, ws).post(url, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('validation');
      expect(res.body.errors[0].pointer).toBe(pointer);
    }
    expect((await as(h, ws).get(url)).body).toEqual({});
  });

  it('periods of one user may not overlap (409); touching periods and other users\' rates are fine', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const url = `/api/users/${user.userId}/rates/cost`;
    expect((await as(h, ws).post(url, rate({ from: FEB, to: MAR }))).status).toBe(200);
    for (const period of [
      { from: JAN, to: '2026-02-01T00:00:00.001Z' },
      { from: '2026-02-15T00:00:00Z', to: APR },
      { from: JAN, to: APR },
      { from: JAN, to: null },
      { from: '2026-02-28T23:59:59Z', to: null },
    ]) {
      const res = await as(h, ws).post(url, rate(period));
      expect(res.status, JSON.stringify(period)).toBe(409);
      expect(res.body.code).toBe('conflict');
    }
    expect((await as(h, ws).post(url, rate({ from: JAN, to: FEB }))).status).toBe(200);
    expect((await as(h, ws).post(url, rate({ from: MAR, to: null }))).status).toBe(200);
    expect((await as(h, ws).post(`/api/users/${ws.admin.userId}/rates/cost`, rate({ from: JAN, to: null }))).status).toBe(200);
    expect(Object.keys((await as(h, ws).get(url)).body)).toHaveLength(3);
  });

  it('PUT replaces a rate; it may keep or move its own period, but not onto another (409)', async () => {
    const ws = await h.workspace();
    const url = `/api/users/${ws.admin.userId}/rates/cost`;
    const first = await as(h, ws).post(url, rate({ from: JAN, to: FEB }));
    const second = await as(h, ws).post(url, rate({ from: MAR, to: APR }));
    const same = await as(h, ws).put(`${url}/${first.body.id}`, rate({ from: JAN, to: FEB, value: 50, currency: 'USD', taxRate: 0 }));
    expect(same.status).toBe(200);
    expect(same.body).toEqual({ id: first.body.id, userId: ws.admin.userId, currency: 'USD', from: JAN, to: FEB, taxRate: 0, value: 50 });
    const { to: _to, ...openEnded } = rate({ from: JAN });
    const clash = await as(h, ws).put(`${url}/${first.body.id}`, openEnded);
    expect(clash.status).toBe(409);
    // The message names the period it would overlap, not the other rate's id.
    expect(clash.body.detail).toBe(`The period overlaps another rate of the same owner, from ${MAR.slice(0, 10)} to ${APR.slice(0, 10)}.`);
    expect((await as(h, ws).get(`${url}/${first.body.id}`)).body).toEqual(same.body);
    const moved = await as(h, ws).put(`${url}/${second.body.id}`, rate({ from: FEB, to: MAR }));
    expect(moved.status).toBe(200);
    expect(moved.body.from).toBe(FEB);
  });

  it('concurrent overlapping writes: exactly one lands', async () => {
    const ws = await h.workspace();
    const url = `/api/users/${ws.admin.userId}/rates/cost`;
    const results = await Promise.all(
      [JAN, '2026-01-10T00:00:00Z', '2026-01-20T00:00:00Z', FEB, '2026-02-10T00:00:00Z'].map((from) =>
        as(h, ws).post(url, rate({ from, to: null })),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
    expect(Object.keys((await as(h, ws).get(url)).body)).toHaveLength(1);
  });

  it('DELETE removes the rate ({}); then it is 404', async () => {
    const ws = await h.workspace();
    const url = `/api/users/${ws.admin.userId}/rates/cost`;
    const created = await as(h, ws).post(url, rate());
    const res = await as(h, ws).delete(`${url}/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await as(h, ws).get(`${url}/${created.body.id}`)).status).toBe(404);
    expect((await as(h, ws).get(url)).body).toEqual({});
    expect((await as(h, ws).post(url, rate())).status).toBe(200);
  });
});
