import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

describeInBrowser('Web app: the geofences page', ({ h, open }) => {
  it('an administrator adds a geofence with a project, sees it listed with its coordinates and radius, changes and deletes it', async () => {
    const ws = await h.workspace();
    const project = await make.project(h, ws, { name: 'Site works' });
    const api = as(h, ws);
    const page = await open(ws, ws.admin, '/geofences');
    const form = page.getByRole('form', { name: 'New geofence' });
    await form.getByLabel('Name').fill('Head office');
    await form.getByLabel(/^Latitude/).fill('52.520008');
    await form.getByLabel(/^Longitude/).fill('13.404954');
    await form.getByLabel(/^Radius/).fill('150');
    await form.getByLabel('Project').selectOption({ label: 'Site works' });
    await form.getByRole('button', { name: 'Add geofence' }).click();
    const row = page.getByRole('row', { name: /Head office/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('52.520008');
    expect(await row.textContent()).toContain('Site works');
    const stored = Object.values((await api.get('/api/geofences')).body as Record<string, any>);
    expect(stored).toMatchObject([{ name: 'Head office', latitude: 52.520008, longitude: 13.404954, radius: 150, projectId: project.id }]);
    await expectAccessible(page);
    await screenshot(page, 'manage-geofences', h);

    await page.getByRole('button', { name: 'Change Head office' }).click();
    const change = page.getByRole('form', { name: 'Change Head office' });
    await change.getByLabel(/^Radius/).fill('300');
    await change.getByLabel('Project').selectOption({ label: 'No project' });
    await change.getByRole('button', { name: 'Save geofence' }).click();
    await expect.poll(async () => (await api.get(`/api/geofences/${stored[0].id}`)).body).toMatchObject({ radius: 300, projectId: null });
    await page.getByRole('button', { name: 'Delete Head office' }).click();
    await page.getByText('No geofences yet.').waitFor();
    expect((await api.get(`/api/geofences/${stored[0].id}`)).status).toBe(404);
  });

  it('a User reads the geofences but is offered no form', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    await as(h, ws).post('/api/geofences', { name: 'Depot', latitude: 1, longitude: 2, radius: 50 });
    const page = await open(ws, user, '/geofences');
    await page.getByRole('row', { name: /Depot/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Add geofence' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete Depot' }).count()).toBe(0);
    await page.getByText('Only administrators add or change geofences.').waitFor();
    await expectAccessible(page);
  });
});
