import { expect, it } from 'vitest';
import { as, describeEachStore } from './support/harness.js';

describeEachStore('Workspace routes', (h) => {
  it('GET /organization answers the organization of the host with every default', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).get('/api/organization');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: ws.organizationId,
      name: `Workspace ${ws.domain}`,
      currency: 'USD',
      coreHours: { start: '09:00', end: '17:00' },
      lockingTimesheets: { enabled: false, timeZone: null, unlockDuration: 24, week: null, year: null },
      onboarding: {
        assignMembers: { done: false, viewed: false },
        inviteMembers: { done: false, viewed: false },
        organization: { done: false, viewed: false },
        preferences: { done: false, viewed: false },
        projects: { done: false, viewed: false },
      },
      plan: 'free',
      rounding: { enabled: false, interval: 15, mode: 'NEAREST' },
      timeZone: 'UTC',
    });
  });
});
