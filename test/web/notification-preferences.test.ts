import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, type Harness, type TestWorkspace } from '../support/harness.js';
import { listMessages } from '../support/src.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

/*
 * Issue 37, defect 10: the Profile page offered notification channels (dashboard, pop-up) and kinds
 * (an activity is created, monthly goal reached) that nothing sends, and request mail was never sent.
 * docs/web-app.md (Profile), docs/rules.md §6 Requests ("Mail") and §6 Preferences.
 */

const mailTo = async (h: Harness, ws: TestWorkspace, kind: string) =>
  (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((message) => message.kind === kind).map((message) => message.to);

describeInBrowser('Web app: notification preferences', ({ h, open }) => {
  it('the Profile page offers only the mail the service sends: the request-made one to administrators only', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);

    const page = await open(ws, ws.admin, '/profile');
    const group = page.getByRole('group', { name: 'Email me when' });
    await group.waitFor();
    const offered = ['My timesheet week is about to be locked', 'Someone makes a request', 'My request is approved or rejected'];
    expect(await group.locator('label').allTextContents()).toEqual(offered);
    expect(await group.getByRole('checkbox').count()).toBe(3);
    for (const label of offered) expect(await group.getByRole('checkbox', { name: label, exact: true }).isChecked()).toBe(true);
    expect(await page.locator('main').getByText(/Dashboard|Pop-up|An activity is created|Monthly goal reached/).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'profile-notifications', h);

    const userPage = await open(ws, user, '/profile');
    const userGroup = userPage.getByRole('group', { name: 'Email me when' });
    await userGroup.waitFor();
    expect(await userGroup.locator('label').allTextContents()).toEqual(['My timesheet week is about to be locked', 'My request is approved or rejected']);
    expect(await userGroup.getByRole('checkbox').count()).toBe(2);
    await expectAccessible(userPage);
  });

  it('turning "my request is approved or rejected" off is saved and stops that mail; turned on again, it is sent', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const page = await open(ws, user, '/profile');
    const box = page.getByRole('checkbox', { name: 'My request is approved or rejected' });
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    const stored = await as(h, ws, user).get(`/api/users/${user.userId}/preferences`);
    expect(stored.status).toBe(200);
    expect(stored.body.notifications).toEqual({ timesheetReminder: { email: true }, requestResolved: { email: false } });

    const unanswered = await make.request(h, ws, { kind: 'timesheetUnlock', by: user, year: 2026, week: 10 });
    expect(await mailTo(h, ws, 'requestCreated')).toEqual([ws.admin.email]);
    expect((await as(h, ws).put(`/api/requests/${unanswered.id}/timesheets/unlock`, { status: 'REJECTED' })).status).toBe(200);
    expect(await mailTo(h, ws, 'requestResolved')).toEqual([]);

    await page.reload();
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    expect((await as(h, ws, user).get(`/api/users/${user.userId}/preferences`)).body.notifications.requestResolved).toEqual({ email: true });
    const answered = await make.request(h, ws, { kind: 'timesheetUnlock', by: user, year: 2026, week: 11 });
    expect((await as(h, ws).put(`/api/requests/${answered.id}/timesheets/unlock`, { status: 'RESOLVED' })).status).toBe(200);
    expect(await mailTo(h, ws, 'requestResolved')).toEqual([user.email]);
    await expectAccessible(page);
  });

  it('an administrator turning "someone makes a request" off is saved and is no longer mailed of new requests', async () => {
    const ws = await h.workspace();
    const other = await h.user(ws, { role: 'Administrator' });
    const user = await h.user(ws);
    const page = await open(ws, ws.admin, '/profile');
    await page.getByRole('checkbox', { name: 'Someone makes a request' }).uncheck();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    expect((await as(h, ws).get(`/api/users/${ws.admin.userId}/preferences`)).body.notifications.requestCreated).toEqual({ email: false });

    await make.request(h, ws, { kind: 'projectAssignment', by: user });
    expect(await mailTo(h, ws, 'requestCreated')).toEqual([other.email]);
  });
});
