import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

/** A tag made through POST /api/tags, which anyone may call (a User here unless told). */
async function tag(h: Harness, ws: TestWorkspace, name: string, by: TestUser = ws.admin) {
  const answer = await as(h, ws, by).post('/api/tags', { name });
  expect(answer.status).toBe(200);
  return answer.body as { id: string; name: string; archived: boolean };
}

/** Three tags: urgent on two entries (1 h and 2 h), review on one, idle on none; one entry without tags. */
async function tagged(h: Harness, ws: TestWorkspace) {
  const user = await h.user(ws);
  const urgent = await tag(h, ws, 'urgent', user);
  const review = await tag(h, ws, 'review');
  const idle = await tag(h, ws, 'idle');
  const first = await make.activity(h, ws, { tagIds: [urgent.id, review.id] });
  const second = await make.activity(h, ws, { tagIds: [urgent.id], startedAt: '2026-07-05T09:00:00Z', endedAt: '2026-07-05T11:00:00Z' });
  const untagged = await make.activity(h, ws, { startedAt: '2026-07-06T09:00:00Z', endedAt: '2026-07-06T10:00:00Z' });
  return { urgent, review, idle, first, second, untagged };
}

const rowOf = (page: Page, name: string) => page.getByRole('form', { name: `Tag ${name}` });
const usageOf = (page: Page, tagId: string) => page.getByTestId(`usage-${tagId}`).textContent();

describeInBrowser('Web app: tags under Settings', ({ h, open }) => {
  it('each tag shows how many entries carry it and their time, all counted by one report by tag (no request per tag)', async () => {
    const ws = await h.workspace();
    const { urgent, review, idle } = await tagged(h, ws);
    const page = await open(ws, ws.admin, '/settings');
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/reports/run' || url.pathname === '/api/activities') asked.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Tags' }).waitFor();

    await expect.poll(() => usageOf(page, urgent.id)).toMatch(/^On 2 entries \(3:00(:00)?\)$/);
    expect(await usageOf(page, review.id)).toMatch(/^On 1 entry \(1:00(:00)?\)$/);
    expect(await usageOf(page, idle.id)).toBe('On no entry');
    // One report for all the tags (a tab's focus may run it again): never a listing per tag.
    expect(new Set(asked)).toEqual(new Set(['POST /api/reports/run']));
    await expectAccessible(page);
    await screenshot(page, 'manage-tags', h);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  });

  it('an administrator renames a tag; a name another tag has in another case is refused at the field and nothing changes', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const { urgent, review } = await tagged(h, ws);
    const page = await open(ws, ws.admin, '/settings');

    await rowOf(page, 'urgent').getByLabel('Tag name').fill('asap');
    await rowOf(page, 'urgent').getByRole('button', { name: 'Rename' }).click();
    await rowOf(page, 'asap').waitFor();
    let stored = (await api.get('/api/tags')).body as Record<string, any>;
    expect(stored[urgent.id]).toEqual({ id: urgent.id, name: 'asap', archived: false });

    const form = rowOf(page, 'review');
    await form.getByLabel('Tag name').fill('ASAP');
    await form.getByRole('button', { name: 'Rename' }).click();
    const message = form.locator(`#tag-${review.id}-name-error`);
    await message.waitFor();
    expect(await message.textContent()).toMatch(/ASAP/);
    expect(await form.getByLabel('Tag name').getAttribute('aria-invalid')).toBe('true');
    stored = (await api.get('/api/tags')).body as Record<string, any>;
    expect(stored[review.id].name).toBe('review');
    await expectAccessible(page);
  });

  it('archiving a tag keeps it on the entries that carry it; unarchiving brings it back', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const { urgent, first } = await tagged(h, ws);
    const page = await open(ws, ws.admin, '/settings');

    await page.getByRole('button', { name: 'Archive urgent', exact: true }).click();
    await page.getByRole('button', { name: 'Unarchive urgent' }).waitFor();
    await rowOf(page, 'urgent').getByText('archived', { exact: true }).waitFor();
    expect(((await api.get('/api/tags')).body as Record<string, any>)[urgent.id].archived).toBe(true);
    expect((await api.get(`/api/activities/${first.id}`)).body.tagIds).toContain(urgent.id);

    await page.getByRole('button', { name: 'Unarchive urgent' }).click();
    await page.getByRole('button', { name: 'Archive urgent', exact: true }).waitFor();
    expect(((await api.get('/api/tags')).body as Record<string, any>)[urgent.id].archived).toBe(false);
  });

  it('deleting a tag says how many entries carry it, and takes it off them: they keep their time', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const { urgent, review, first, second } = await tagged(h, ws);
    const page = await open(ws, ws.admin, '/settings');
    await expect.poll(() => usageOf(page, urgent.id)).toMatch(/^On 2 entries/);

    await page.getByRole('button', { name: 'Delete urgent…' }).click();
    const confirm = page.getByRole('group', { name: 'Delete urgent' });
    expect(await confirm.textContent()).toContain('Delete urgent for good? It comes off the 2 entries that carry it; their time is kept.');
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Delete tag' }).click();
    await page.getByText('urgent is deleted; its entries keep their time.').waitFor();
    await rowOf(page, 'urgent').waitFor({ state: 'detached' });
    expect(Object.keys((await api.get('/api/tags')).body)).not.toContain(urgent.id);
    expect((await api.get(`/api/activities/${first.id}`)).body).toMatchObject({ tagIds: [review.id], startedAt: first.startedAt, endedAt: first.endedAt });
    expect((await api.get(`/api/activities/${second.id}`)).body).toMatchObject({ tagIds: [], startedAt: second.startedAt, endedAt: second.endedAt });
  });

  it('a tag added under Settings is stored unarchived; a name taken in another case is refused at the field', async () => {
    const ws = await h.workspace();
    await tag(h, ws, 'Billing');
    const page = await open(ws, ws.admin, '/settings');
    const add = page.getByRole('form', { name: 'Add a tag' });
    await add.getByLabel('New tag').fill('Design');
    await add.getByLabel('New tag').press('Enter');
    await rowOf(page, 'Design').waitFor();
    const stored = Object.values((await as(h, ws).get('/api/tags')).body as Record<string, any>);
    expect(stored.find((t) => t.name === 'Design')).toMatchObject({ archived: false });

    await add.getByLabel('New tag').fill('billing');
    await add.getByLabel('New tag').press('Enter');
    await add.locator('#new-tag-name-error').waitFor();
    expect(Object.values((await as(h, ws).get('/api/tags')).body)).toHaveLength(2);
  });
});
