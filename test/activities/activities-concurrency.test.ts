import { expect, it } from 'vitest';
import { as, describeEachStore } from '../support/harness.js';
import { tracking } from '../support/tracking.js';

describeEachStore('Activities under concurrent updates', (h) => {
  it('two updates that are each valid alone but not together never leave endedAt before startedAt: one is 422', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const api = as(h, ws, user);
    for (let round = 0; round < 15; round++) {
      const { id } = await tracking(h, ws).activity(user, { startedAt: '2026-07-06T09:00:00Z', endedAt: '2026-07-06T10:00:00Z' });
      // Later start (fine with the old end), earlier end (fine with the old start): together, end before start.
      const [later, earlier] = await Promise.all([
        api.put(`/api/activities/${id}`, { startedAt: '2026-07-06T09:30:00Z' }),
        api.put(`/api/activities/${id}`, { endedAt: '2026-07-06T09:15:00Z' }),
      ]);
      expect([later.status, earlier.status].sort(), `round ${round}`).toEqual([200, 422]);
      const after = (await api.get(`/api/activities/${id}`)).body;
      expect(after.startedAt <= after.endedAt, `round ${round}: ${after.startedAt} – ${after.endedAt}`).toBe(true);
      expect(after).toEqual(later.status === 200 ? later.body : earlier.body);
    }
  });
});
