import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore } from '../support/harness.js';
import { changesSince, feedEnd, readFeed } from './feed-support.js';

describeEachStore('Change feed: activities and timers (docs/rules.md §6 Change feed)', (h) => {
  it('creating, changing and deleting an activity each append one event carrying the record as the API answers it', async () => {
    const ws = await h.workspace();
    const start = await feedEnd(h, ws);
    const created = await make.activity(h, ws);
    const updated = (await as(h, ws).put(`/api/activities/${created.id}`, { name: 'Renamed' })).body;
    expect((await as(h, ws).delete(`/api/activities/${created.id}`)).status).toBe(200);
    expect(await changesSince(h, ws, start)).toEqual([
      ['activity.created', created],
      ['activity.updated', updated],
      ['activity.deleted', { id: created.id }],
    ]);
    const { events } = await readFeed(h, ws, ws.admin, start);
    for (const event of events) {
      expect(event).toEqual({ id: expect.any(String), type: event.type, createdAt: expect.any(String), actorId: ws.admin.userId, data: event.data });
    }
  });

  it('a timer is started and stopped: a new timer stops the running one first, and closing or reopening is a timer event', async () => {
    const ws = await h.workspace();
    const start = await feedEnd(h, ws);
    const first = await make.timer(h, ws, { startedAt: '2026-07-04T09:00:00Z' });
    const second = await make.timer(h, ws, { startedAt: '2026-07-04T10:00:00Z' });
    const stopped = (await as(h, ws).put(`/api/activities/${second.id}`, { endedAt: '2026-07-04T11:00:00Z' })).body;
    const reopened = (await as(h, ws).put(`/api/activities/${second.id}`, { endedAt: null })).body;
    expect(await changesSince(h, ws, start)).toEqual([
      ['timer.started', first],
      ['timer.stopped', { ...first, endedAt: '2026-07-04T10:00:00.000Z' }],
      ['timer.started', second],
      ['timer.stopped', stopped],
      ['timer.started', reopened],
    ]);
  });

  it('a refused timer start leaves no event, not even for the running timer it read', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await make.timer(h, ws, { owner: user, startedAt: '2026-06-01T09:00:00Z' });
    const start = await feedEnd(h, ws);
    // Closing the running timer at a startedAt 40 days later would make it longer than 31 days: 422, nothing kept.
    const res = await as(h, ws, user).post('/api/activities', { name: 'Next', startedAt: '2026-07-11T09:00:00Z', pending: true });
    expect(res.status).toBe(422);
    expect(await changesSince(h, ws, start)).toEqual([]);
  });
});
