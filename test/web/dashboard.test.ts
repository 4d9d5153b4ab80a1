import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, ok, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

/* The dashboard (docs/web-app.md, "Dashboard"): issue 37, "what people reach for every day". */

const PASSWORD = 'correct horse battery staple';

/** Monday 00:00 UTC of this ISO week (the workspace's zone is UTC), plus `hours`, as ISO text. */
function thisMondayAt(hours: number): string {
  const today = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z');
  const monday = today.getTime() - ((today.getUTCDay() + 6) % 7) * 86_400_000;
  return new Date(monday + hours * 3_600_000).toISOString();
}

async function givePassword(h: Harness, ws: TestWorkspace, user: TestUser): Promise<void> {
  const session = await make.session(h, user.userId);
  await ok(h.call('PUT', '/api/auth/password', { host: ws.host, token: session, body: { newPassword: PASSWORD } }));
}

/** A table's body rows as [head, hours] pairs, and its foot's. */
async function tableRows(page: Page, id: string): Promise<string[][]> {
  return page.locator(`#${id} tbody tr, #${id} tfoot tr`).evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => (cell.textContent ?? '').trim())));
}

describeInBrowser('Web app: the dashboard', ({ h, open }) => {
  it("an administrator lands on the dashboard after signing in: this week's hours by person and by project, who is tracking now, and the pending request linking to Requests", async () => {
    const ws = await h.workspace();
    const ann = await make.user(h, ws, { name: 'Ann Archer' });
    const ben = await make.user(h, ws, { name: 'Ben Baker' });
    const apollo = await make.project(h, ws, { name: 'Apollo' });
    const zeus = await make.project(h, ws, { name: 'Zeus' });
    for (const project of [apollo, zeus]) for (const user of [ann, ben]) await make.member(h, ws, { project, user });
    await make.activity(h, ws, { owner: ann, project: apollo, name: 'Design', startedAt: thisMondayAt(9), endedAt: thisMondayAt(11) });
    await make.activity(h, ws, { owner: ann, project: zeus, name: 'Build', startedAt: thisMondayAt(11), endedAt: thisMondayAt(12.5) });
    await make.activity(h, ws, { owner: ben, project: apollo, name: 'Review', startedAt: thisMondayAt(9), endedAt: thisMondayAt(10) });
    // Last week's time is not this week's.
    await make.activity(h, ws, { owner: ben, project: zeus, name: 'Old', startedAt: thisMondayAt(-20), endedAt: thisMondayAt(-18) });
    await make.timer(h, ws, { owner: ben, project: zeus, name: 'Bug triage', startedAt: new Date(Date.now() - 20 * 60_000).toISOString() });
    await make.request(h, ws, { kind: 'projectAssignment', by: ann });
    await givePassword(h, ws, ws.admin);

    // Signing in without a page to return to lands an administrator on the dashboard.
    const page = await open(ws, ws.admin, '/timesheet');
    await page.getByRole('button', { name: 'Sign out' }).click();
    const form = page.getByRole('form', { name: 'Sign in with a password' });
    await form.getByLabel('Email').fill(ws.admin.email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');

    await page.locator('#hours-by-person tbody tr').first().waitFor();
    expect(await tableRows(page, 'hours-by-person')).toEqual([
      ['Ann Archer', '3:30'],
      ['Ben Baker', '1:00'],
      ['Total', '4:30'],
    ]);
    expect(await tableRows(page, 'hours-by-project')).toEqual([
      ['Apollo', '3:00'],
      ['Zeus', '1:30'],
      ['Total', '4:30'],
    ]);

    const tracking = page.getByRole('list', { name: 'Tracking now' });
    await tracking.locator('li').first().waitFor();
    expect(await tracking.locator('li p').allTextContents()).toEqual(['Ben Baker Bug triage Zeus']);

    const pending = page.getByRole('list', { name: 'Pending requests' });
    await pending.locator('li').first().waitFor();
    expect(await pending.locator('li p').allTextContents()).toEqual(['Project assignment Ann Archer asks to be assigned to projects.']);
    await expectAccessible(page);
    await screenshot(page, 'dashboard-admin', h);

    await page.getByRole('link', { name: 'Answer them on the Requests page' }).click();
    await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/requests');
    await page.close();
  });

  it('a User sees their week and their recent entries, and "Continue" starts a timer with the same name, project, task and tags', async () => {
    const ws = await h.workspace();
    const uma = await make.user(h, ws, { name: 'Uma User' });
    const other = await make.user(h, ws, { name: 'Otto Other' });
    const apollo = await make.project(h, ws, { name: 'Apollo' });
    await make.member(h, ws, { project: apollo, user: uma });
    const task = await make.task(h, ws, { project: apollo, name: 'Wireframes' });
    const tag = await make.tag(h, ws, { name: 'Design' });
    const design = { owner: uma, project: apollo, name: 'Design review', taskId: task.id, tagIds: [tag.id] };
    await make.activity(h, ws, { ...design, startedAt: thisMondayAt(8), endedAt: thisMondayAt(8.5) });
    await make.activity(h, ws, { ...design, startedAt: thisMondayAt(9), endedAt: thisMondayAt(10.5) });
    await make.activity(h, ws, { owner: uma, name: 'Standup', startedAt: thisMondayAt(10.5), endedAt: thisMondayAt(11) });
    await make.activity(h, ws, { owner: other, name: 'Not mine', startedAt: thisMondayAt(9), endedAt: thisMondayAt(12) });

    const page = await open(ws, uma, '/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const recent = page.getByRole('list', { name: 'Recent entries to continue' });
    await recent.locator('li').first().waitFor();
    await expect.poll(() => page.locator('#my-week').textContent()).toBe('My week 2:30');
    // The same work is offered once, the newest first.
    expect(await recent.locator('li p').allTextContents()).toEqual([
      expect.stringMatching(/^Standup No project.+ · 0:30$/),
      expect.stringMatching(/^Design review Apollo · Wireframes.+ · 1:30$/),
    ]);
    // The team's figures are administrators'.
    for (const name of ['Team this week', 'Tracking now', 'Pending requests']) expect(await page.getByRole('heading', { name }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'dashboard-user', h);

    await recent.getByRole('button', { name: 'Continue “Design review”' }).click();
    await page.getByText(/^Tracking “Design review” since /).waitFor();
    const running = async () =>
      Object.values((await as(h, ws, uma).get('/api/activities', undefined, { query: { userId: uma.userId } })).body as Record<string, any>).filter((activity) => activity.endedAt === null);
    await expect.poll(running).toMatchObject([{ name: 'Design review', projectId: apollo.id, taskId: task.id, tagIds: [tag.id], endedAt: null }]);
    await page.close();
  });
});
