import { expect, it } from 'vitest';
import { as } from '../support/harness.js';
import { listMessages } from '../support/src.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

describeInBrowser('Web app: the team page', ({ h, open }) => {
  it('an administrator invites by email (the invitation is mailed), changes a role, archives someone and sets their cost rate', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const page = await open(ws, ws.admin, '/team');
    const email = `new.hire-${ws.domain}@example.com`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Name (optional)').fill('New Hire');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation sent to ${email}.`).waitFor();
    const hire = Object.values((await api.get('/api/users')).body as Record<string, any>).find((u) => u.email === email);
    expect(hire).toMatchObject({ name: 'New Hire', role: 'User', archived: false });
    const mails = (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((m) => m.kind === 'invitation' && m.to === email);
    expect(mails).toHaveLength(1);

    await page.getByLabel("New Hire's role").selectOption('Administrator');
    await expect.poll(async () => (await api.get(`/api/users/${hire.id}`)).body.role).toBe('Administrator');
    await page.getByRole('button', { name: 'Archive New Hire' }).click();
    await page.getByRole('button', { name: 'Unarchive New Hire' }).waitFor();
    expect((await api.get(`/api/users/${hire.id}`)).body.archived).toBe(true);

    await page.getByRole('button', { name: "New Hire's cost rates" }).click();
    const rates = page.getByRole('form', { name: 'Add a rate' });
    await rates.getByLabel('First day').fill('2026-02-01');
    await rates.getByLabel('Per hour').fill('35.5');
    await rates.getByRole('button', { name: 'Add rate' }).click();
    await page.getByRole('list', { name: "New Hire's cost rates" }).getByText(/per hour/).waitFor();
    const stored = Object.values((await api.get(`/api/users/${hire.id}/rates/cost`)).body as Record<string, any>);
    expect(stored).toMatchObject([{ from: '2026-02-01T00:00:00.000Z', to: null, value: 35.5 }]);
    await expectAccessible(page);
    await screenshot(page, 'manage-team', h);
  });

  it('the last administrator cannot be demoted or deleted: the API message is shown and nothing changes', async () => {
    const ws = await h.workspace();
    const page = await open(ws, ws.admin, '/team');
    await page.getByLabel("Admin's role").selectOption('User');
    const problem = page.getByRole('alert').filter({ hasText: 'must keep an active administrator' });
    await problem.waitFor();
    expect(await problem.textContent()).toBe('The workspace must keep an active administrator: the last one cannot be demoted.');
    expect(await page.getByLabel("Admin's role").inputValue()).toBe('Administrator');
    await page.getByRole('button', { name: 'Delete Admin…' }).click();
    await page.getByRole('group', { name: 'Delete Admin' }).getByRole('button', { name: 'Delete Admin' }).click();
    await page.getByRole('alert').filter({ hasText: 'the last one cannot be deleted' }).waitFor();
    expect((await as(h, ws).get(`/api/users/${ws.admin.userId}`)).body).toMatchObject({ role: 'Administrator', archived: false });
    await expectAccessible(page);
  });

  it('a User is offered neither Team nor Settings, and opening them shows a "not allowed" page', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const page = await open(ws, user, '/team');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Team' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Projects' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'manage-not-allowed', h);
    await page.goto(page.url().replace('/team', '/settings'));
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    await expectAccessible(page);
  });
});
