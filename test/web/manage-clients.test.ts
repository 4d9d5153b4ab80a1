import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

/** The client's row on the Clients page. */
const rowOf = (page: Page, name: string) => page.getByRole('list', { name: 'Clients' }).getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) });

describeInBrowser('Web app: the clients page and a project\'s client and color', ({ h, open }) => {
  it('an administrator creates a client from the keyboard and renames it; a name taken in another case is refused at the name field and nothing changes', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    await make.client(h, ws, { name: 'Globex' });
    const page = await open(ws, ws.admin, '/clients');

    await page.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.type('Acme');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Pays in 30 days');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Acme is added.' }).waitFor();
    const created = Object.values((await api.get('/api/clients')).body as Record<string, any>).find((c) => c.name === 'Acme');
    expect(created).toMatchObject({ name: 'Acme', notes: 'Pays in 30 days', archived: false });

    await page.getByRole('button', { name: 'Edit Acme' }).click();
    const details = page.getByRole('form', { name: "Acme's details" });
    await details.getByLabel('Name').fill('Acme Corp');
    await details.getByRole('button', { name: 'Save' }).click();
    await rowOf(page, 'Acme Corp').waitFor();
    expect((await api.get(`/api/clients/${created.id}`)).body).toMatchObject({ name: 'Acme Corp', notes: 'Pays in 30 days' });

    await page.getByRole('button', { name: 'Edit Acme Corp' }).click();
    const again = page.getByRole('form', { name: "Acme Corp's details" });
    await again.getByLabel('Name').fill('globex');
    await again.getByRole('button', { name: 'Save' }).click();
    const name = again.getByLabel('Name');
    const message = again.locator(`#${await name.getAttribute('id')}-error`);
    await message.waitFor();
    expect(await message.textContent()).toBe('A client named "globex" already exists in this workspace.');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.inputValue()).toBe('globex');
    expect((await api.get(`/api/clients/${created.id}`)).body.name).toBe('Acme Corp');
    await expectAccessible(page);
    await screenshot(page, 'manage-clients', h);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  });

  it('a client with projects is not deleted: the page names its projects and offers archiving, which keeps them on it', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const acme = await make.client(h, ws, { name: 'Acme' });
    const apollo = await make.project(h, ws, { name: 'Apollo', clientId: acme.id });
    await make.project(h, ws, { name: 'Borealis', clientId: acme.id, archived: true });
    const page = await open(ws, ws.admin, '/clients');

    await rowOf(page, 'Acme').getByText('2 projects: Apollo, Borealis').waitFor();
    await page.getByRole('button', { name: 'Delete Acme…' }).click();
    const panel = page.getByRole('group', { name: 'Delete Acme' });
    expect(await panel.textContent()).toContain('Acme still has 2 projects: Apollo, Borealis. A client with projects, archived ones included, cannot be deleted.');
    expect(await panel.getByRole('button', { name: 'Delete client' }).count()).toBe(0);
    await expectAccessible(page);

    await panel.getByRole('button', { name: 'Archive Acme instead' }).click();
    await rowOf(page, 'Acme').waitFor({ state: 'detached' });
    expect((await api.get(`/api/clients/${acme.id}`)).body).toMatchObject({ archived: true });
    expect((await api.get(`/api/projects/${apollo.id}`)).body.clientId).toBe(acme.id);

    await page.getByLabel('Show archived').check();
    await rowOf(page, 'Acme').getByText('archived', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Unarchive Acme' }).click();
    await page.getByRole('button', { name: 'Archive Acme', exact: true }).waitFor();
    expect((await api.get(`/api/clients/${acme.id}`)).body.archived).toBe(false);
  });

  it('a project given the client after the page loaded makes the deletion 409: the page says it was not deleted and names the project; a client without projects is deleted', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const acme = await make.client(h, ws, { name: 'Acme' });
    const initech = await make.client(h, ws, { name: 'Initech' });
    const page = await open(ws, ws.admin, '/clients');
    await rowOf(page, 'Acme').getByText('No projects').waitFor();

    await page.getByRole('button', { name: 'Delete Acme…' }).click();
    const panel = page.getByRole('group', { name: 'Delete Acme' });
    await panel.getByText('No project has it').waitFor();
    await make.project(h, ws, { name: 'Late arrival', clientId: acme.id });
    const refused = page.waitForResponse((r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname === `/api/clients/${acme.id}`);
    await panel.getByRole('button', { name: 'Delete client' }).click();
    expect((await refused).status()).toBe(409);
    await panel.getByRole('alert').waitFor();
    expect(await panel.getByRole('alert').textContent()).toBe('Acme was not deleted. The client still has projects: archive it, or move its projects to another client (or none) first.');
    await panel.getByText('Acme still has a project: Late arrival.').waitFor();
    expect((await api.get(`/api/clients/${acme.id}`)).status).toBe(200);
    await expectAccessible(page);
    await panel.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Delete Initech…' }).click();
    await page.getByRole('group', { name: 'Delete Initech' }).getByRole('button', { name: 'Delete client' }).click();
    await page.getByText('Initech is deleted.').waitFor();
    expect((await api.get(`/api/clients/${initech.id}`)).status).toBe(404);
    expect(await rowOf(page, 'Initech').count()).toBe(0);
  });

  it('the Clients page is for administrators: a User is not offered it, and opening it says so', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const page = await open(ws, user, '/clients');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clients' }).count()).toBe(0);
    await expectAccessible(page);

    const admin = await open(ws, ws.admin, '/');
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clients' }).click();
    await admin.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
  });

  it("a project's client and color are chosen on its page and shown with it; an archived client stays on the project but is offered to no other", async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const acme = await make.client(h, ws, { name: 'Acme' });
    const old = await make.client(h, ws, { name: 'Old Client' });
    const kept = await make.project(h, ws, { name: 'Kept', clientId: old.id });
    await api.put(`/api/clients/${old.id}`, { archived: true });
    const project = await make.project(h, ws, { name: 'Website' });
    const page = await open(ws, ws.admin, '/projects');

    await page.getByRole('button', { name: 'Open Website' }).click();
    const settings = page.getByRole('form', { name: "Website's settings" });
    const clientChoice = settings.getByLabel('Client');
    expect(await clientChoice.locator('option').allTextContents()).toEqual(['No client', 'Acme']);
    await clientChoice.selectOption({ label: 'Acme' });
    await settings.getByLabel('Color').fill('#14b8a6');
    await settings.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await api.get(`/api/projects/${project.id}`)).body).toMatchObject({ clientId: acme.id, color: '#14b8a6' });
    await page.getByText('Client: Acme').waitFor();
    const row = page.getByRole('row', { name: /Website/ });
    await expect.poll(() => row.getByRole('cell').first().textContent()).toBe('Acme');
    expect(await row.locator('.swatch').evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).backgroundColor)).toBe('rgb(20, 184, 166)');

    await page.getByLabel('Search projects or clients').fill('acm');
    await page.getByRole('row', { name: /Website/ }).waitFor();
    expect(await page.getByRole('row', { name: /Kept/ }).count()).toBe(0);
    await page.getByLabel('Search projects or clients').fill('');

    await page.getByRole('button', { name: 'Open Kept' }).click();
    const keptSettings = page.getByRole('form', { name: "Kept's settings" });
    expect(await keptSettings.getByLabel('Client').locator('option').allTextContents()).toEqual(['No client', 'Acme', 'Old Client (archived)']);
    await keptSettings.getByLabel('Notes').fill('Still theirs');
    await keptSettings.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await api.get(`/api/projects/${kept.id}`)).body).toMatchObject({ clientId: old.id, notes: 'Still theirs' });

    const create = page.getByRole('form', { name: 'New project' });
    expect(await create.getByLabel('Client').locator('option').allTextContents()).toEqual(['No client', 'Acme']);
    await create.getByLabel('Name', { exact: true }).fill('Launch');
    await create.getByLabel('Client').selectOption({ label: 'Acme' });
    await create.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Launch' }).waitFor();
    const launch = Object.values((await api.get('/api/projects')).body as Record<string, any>).find((p) => p.name === 'Launch');
    expect(launch.clientId).toBe(acme.id);
    await expectAccessible(page);
  });

  it('a User sees the client of their project with it, and no client or color to choose', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const acme = await make.client(h, ws, { name: 'Acme' });
    const project = await make.project(h, ws, { name: 'Theirs', clientId: acme.id, color: '#3b82f6' });
    await make.member(h, ws, { project, user });
    const page = await open(ws, user, '/projects');
    await expect.poll(() => page.getByRole('row', { name: /Theirs/ }).getByRole('cell').first().textContent()).toBe('Acme');
    await page.getByRole('button', { name: 'Open Theirs' }).click();
    await page.getByText('Client: Acme').waitFor();
    expect(await page.getByLabel('Client', { exact: true }).count()).toBe(0);
    expect(await page.getByLabel('Color').count()).toBe(0);
    await expectAccessible(page);
  });
});
