import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

describeInBrowser('Web app: the requests page', ({ h, open }) => {
  it('an administrator sees every pending request with what it asks, counted in the navigation, and grants or rejects each in one click', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const project = await make.project(h, ws, { name: 'Apollo' });
    const unlock = await make.request(h, ws, { kind: 'timesheetUnlock', by: user, year: 2026, week: 10 });
    const approval = await make.request(h, ws, { kind: 'timesheetApproval', by: user, year: 2026, week: 11 });
    const joining = await make.request(h, ws, { kind: 'projectAssignment', by: user });
    const api = as(h, ws);

    const page = await open(ws, ws.admin, '/requests');
    const count = page.getByTestId('pending-count');
    await expect.poll(() => count.textContent()).toBe('3 pending');
    const inbox = page.getByRole('list', { name: 'Pending requests' });
    await inbox.getByText(/Test User asks to unlock week 10 of 2026 \(2\s*–\s*8 Mar 2026\) to change its time\./).waitFor();
    await inbox.getByText(/Test User submits week 11 of 2026 \(9\s*–\s*15 Mar 2026\) for approval\./).waitFor();
    await inbox.getByText('Test User asks to be assigned to projects.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'manage-requests', h, 'requests.png');

    await page.getByRole('button', { name: /^Grant: Test User asks to unlock week 10/ }).click();
    await expect.poll(async () => (await api.get(`/api/requests/${unlock.id}`)).body.status).toBe('RESOLVED');
    const locks = Object.values((await api.get('/api/timesheets/locks', undefined, { query: { userId: user.userId } })).body as Record<string, any>);
    expect(locks).toMatchObject([{ userId: user.userId, year: 2026, week: 10 }]);
    expect(Date.parse(locks[0].unlockedTo)).toBeGreaterThan(Date.now());

    await page.getByRole('button', { name: /^Reject: Test User submits week 11/ }).click();
    await expect.poll(async () => (await api.get(`/api/requests/${approval.id}`)).body.status).toBe('REJECTED');

    const grantJoining = page.getByRole('button', { name: 'Grant: Test User asks to be assigned to projects.' });
    expect(await grantJoining.isDisabled()).toBe(true);
    await page.getByLabel('Apollo').check();
    await grantJoining.click();
    await expect.poll(async () => (await api.get(`/api/requests/${joining.id}`)).body).toMatchObject({ status: 'RESOLVED', projectIds: [project.id] });
    const members = Object.values((await api.get(`/api/projects/${project.id}/members`)).body as Record<string, any>);
    expect(members.some((member) => member.userId === user.userId)).toBe(true);

    await page.getByText('Nothing is waiting.').waitFor();
    await expect.poll(() => count.count()).toBe(0);
    const answered = page.getByRole('list', { name: 'Answered requests' });
    expect(await answered.getByText('Granted').count()).toBe(2);
    expect(await answered.getByText('Rejected').count()).toBe(1);
    await expectAccessible(page);
  });

  it('a User sees their own requests and their state, asks to be added to projects, and has no inbox', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const other = await h.user(ws);
    const granted = await make.request(h, ws, { kind: 'timesheetUnlock', by: user, year: 2026, week: 10 });
    await as(h, ws).put(`/api/requests/${granted.id}/timesheets/unlock`, { status: 'RESOLVED' });
    await make.request(h, ws, { kind: 'timesheetApproval', by: other, year: 2026, week: 12 });

    const page = await open(ws, user, '/requests');
    const mine = page.getByRole('list', { name: 'Your requests' });
    await mine.getByText(/asks to unlock week 10 of 2026/).waitFor();
    expect(await mine.locator('li').count()).toBe(1);
    expect(await mine.getByText(/^Granted/).count()).toBe(1);
    expect(await page.getByRole('list', { name: 'Pending requests' }).count()).toBe(0);
    expect(await page.getByText(/week 12/).count()).toBe(0);

    await page.getByRole('button', { name: 'Ask to be added to projects' }).click();
    await mine.getByText('Test User asks to be assigned to projects.').waitFor();
    await expect.poll(() => page.getByTestId('pending-count').textContent()).toBe('1 pending');
    const listed = Object.values((await as(h, ws, user).get('/api/requests')).body as Record<string, any>);
    expect(listed.filter((r) => r.type === 'projectAssignment')).toMatchObject([{ status: 'PENDING', createdBy: user.userId }]);
    await expectAccessible(page);
  });
});
