import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

describeInBrowser('Web app: the projects page', ({ h, open }) => {
  it('an administrator creates a project, finds it by search, adds a member with title and tags and gives them a revenue rate over time', async () => {
    const ws = await h.workspace();
    const dana = await h.user(ws, { email: `dana-${ws.domain}@example.com` });
    const api = as(h, ws);
    const page = await open(ws, ws.admin, '/projects');

    await page.getByLabel('Name', { exact: true }).fill('Website relaunch');
    await page.getByLabel('Billable by default').check();
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Website relaunch' }).waitFor();
    const created = Object.values((await api.get('/api/projects')).body as Record<string, any>).find((p) => p.name === 'Website relaunch');
    expect(created).toMatchObject({ billable: true, archived: false });

    await page.getByLabel('Search projects').fill('relau');
    await page.getByRole('row', { name: /Website relaunch/ }).waitFor();
    await page.getByLabel('Search projects').fill('nothing like it');
    await page.getByText('No project matches.').waitFor();
    await page.getByLabel('Search projects').fill('');

    await page.getByLabel('Person to add').selectOption({ label: `Test User (${dana.email})` });
    await page.locator('#add-member-title').fill('Designer');
    await page.locator('#add-member-tags').fill('ui, web');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('form', { name: "Test User's membership" }).waitFor();
    const members = Object.values((await api.get(`/api/projects/${created.id}/members`)).body as Record<string, any>);
    const member = members.find((m) => m.userId === dana.userId);
    expect(member).toMatchObject({ role: 'User', title: 'Designer', tags: ['ui', 'web'], assignedBy: ws.admin.userId });

    const membership = page.getByRole('form', { name: "Test User's membership" });
    await membership.getByRole('button', { name: 'Revenue rates' }).click();
    const rates = page.getByRole('form', { name: 'Add a rate' });
    await rates.getByLabel('First day').fill('2026-01-01');
    await rates.getByLabel('Last day (empty: open-ended)').fill('2026-06-30');
    await rates.getByLabel('Per hour').fill('80');
    await rates.getByRole('button', { name: 'Add rate' }).click();
    await page.getByRole('list', { name: /revenue rates/ }).getByText(/per hour/).waitFor();
    const stored = Object.values((await api.get(`/api/projects/${created.id}/members/${member.id}/rates/revenue`)).body as Record<string, any>);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ from: '2026-01-01T00:00:00.000Z', to: '2026-07-01T00:00:00.000Z', value: 80, currency: (await api.get('/api/organization')).body.currency, taxRate: 0 });

    await expectAccessible(page);
    await screenshot(page, 'manage-projects', h);
  });

  it('an overlapping revenue rate is refused with the API message shown at the period field, and nothing is stored', async () => {
    const ws = await h.workspace();
    const dana = await h.user(ws);
    const project = await make.project(h, ws, { name: 'Overlaps' });
    const member = await make.member(h, ws, { project, user: dana });
    const first = await make.revenueRate(h, ws, { project, member, from: '2026-01-01T00:00:00Z', to: null, value: 50 });
    const page = await open(ws, ws.admin, '/projects');
    await page.getByRole('button', { name: 'Open Overlaps' }).click();
    await page.getByRole('form', { name: "Test User's membership" }).getByRole('button', { name: 'Revenue rates' }).click();
    const rates = page.getByRole('form', { name: 'Add a rate' });
    await rates.getByLabel('First day').fill('2026-03-01');
    await rates.getByLabel('Per hour').fill('70');
    await rates.getByRole('button', { name: 'Add rate' }).click();

    const field = rates.getByLabel('First day');
    const message = rates.locator(`#${await field.getAttribute('id')}-error`);
    await message.waitFor();
    expect(await message.textContent()).toBe("The period overlaps another rate of the same owner, from 2026-01-01, open-ended.");
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.getAttribute('aria-describedby')).toBe(await message.getAttribute('id'));
    const stored = (await as(h, ws).get(`/api/projects/${project.id}/members/${member.id}/rates/revenue`)).body;
    expect(Object.keys(stored)).toEqual([first.id]);
    await expectAccessible(page);
  });

  it('a refused save keeps what the person typed in every field: the page drawing again does not put the stored values back', async () => {
    const ws = await h.workspace();
    await make.project(h, ws, { name: 'Taken' });
    const project = await make.project(h, ws, { name: 'Mine' });
    const page = await open(ws, ws.admin, '/projects');
    await page.getByRole('button', { name: 'Open Mine' }).click();
    const settings = page.getByRole('form', { name: "Mine's settings" });
    await settings.getByLabel('Name', { exact: true }).fill('taken');
    await settings.getByLabel('Notes').fill('Typed, not saved');
    await settings.getByLabel('Billable by default').check();
    await settings.getByRole('button', { name: 'Save' }).click();

    const name = settings.getByLabel('Name', { exact: true });
    await settings.locator('#project-name-error').waitFor();
    expect(await name.inputValue()).toBe('taken');
    expect(await settings.getByLabel('Notes').inputValue()).toBe('Typed, not saved');
    expect(await settings.getByLabel('Billable by default').isChecked()).toBe(true);
    expect((await as(h, ws).get(`/api/projects/${project.id}`)).body).toMatchObject({ name: 'Mine', billable: false });
  });

  it('archiving keeps the project; deleting it says its time is kept without a project, and it is', async () => {
    const ws = await h.workspace();
    const project = await make.project(h, ws, { name: 'Old client' });
    const entry = await make.activity(h, ws, { project });
    const page = await open(ws, ws.admin, '/projects');
    await page.getByRole('button', { name: 'Open Old client' }).click();
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Unarchive' }).waitFor();
    expect((await as(h, ws).get(`/api/projects/${project.id}`)).body.archived).toBe(true);

    await page.getByRole('button', { name: 'Delete project…' }).click();
    const confirm = page.getByRole('group', { name: 'Delete Old client' });
    const text = await confirm.textContent();
    expect(text).toContain('Its tracked time is kept, without a project');
    expect(text).toContain('1 entry');
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Delete project' }).click();
    // The list showed no project already (an archived one is hidden): the toast says the deletion is done.
    await page.getByText('Old client is deleted; its time is kept, without a project.').waitFor();
    await page.getByText('No projects yet.').waitFor();
    expect((await as(h, ws).get(`/api/projects/${project.id}`)).status).toBe(404);
    expect((await as(h, ws).get(`/api/activities/${entry.id}`)).body.projectId).toBeNull();
  });

  it('a project admin manages members but creates and deletes no project; a plain member only reads', async () => {
    const ws = await h.workspace();
    const lead = await h.user(ws);
    const plain = await h.user(ws);
    const newcomer = await h.user(ws, { email: `newcomer-${ws.domain}@example.com` });
    const project = await make.project(h, ws, { name: 'Shared' });
    await make.member(h, ws, { project, user: lead, role: 'Administrator' });
    await make.member(h, ws, { project, user: plain });

    const page = await open(ws, lead, '/projects');
    expect(await page.getByRole('heading', { name: 'New project' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Open Shared' }).click();
    await page.getByLabel('Person to add').selectOption({ label: `Test User (${newcomer.email})` });
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByText('Everyone in the workspace is a member.').waitFor();
    const members = Object.values((await as(h, ws).get(`/api/projects/${project.id}/members`)).body as Record<string, any>);
    expect(members.find((m) => m.userId === newcomer.userId)).toMatchObject({ role: 'User', assignedBy: lead.userId });
    expect(await page.getByRole('button', { name: 'Delete project…' }).count()).toBe(0);
    await expectAccessible(page);

    const reader = await open(ws, plain, '/projects');
    await reader.getByRole('button', { name: 'Open Shared' }).click();
    await reader.getByRole('heading', { name: 'Members' }).waitFor();
    expect(await reader.getByLabel('Person to add').count()).toBe(0);
    expect(await reader.getByRole('button', { name: 'Revenue rates' }).count()).toBe(0);
    await expectAccessible(reader);
  });
});
