import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, type Harness, type TestWorkspace } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

/** The project's tasks as GET /api/projects/{id}/tasks answers them, by name. */
async function tasksByName(h: Harness, ws: TestWorkspace, projectId: string): Promise<Record<string, any>> {
  const answer = await as(h, ws).get(`/api/projects/${projectId}/tasks`);
  expect(answer.status).toBe(200);
  return Object.fromEntries(Object.values(answer.body as Record<string, any>).map((task) => [task.name, task]));
}

async function openProject(page: Page, name: string) {
  await page.getByRole('button', { name: `Open ${name}` }).click();
  await page.getByRole('heading', { name: 'Tasks' }).waitFor();
}

describeInBrowser("Web app: a project's tasks on its page", ({ h, open }) => {
  it("a project admin adds tasks from the keyboard, billable yes, no or as the project, renames one, hands its billable back to the project and archives another; the API holds each", async () => {
    const ws = await h.workspace();
    const lead = await h.user(ws);
    const project = await make.project(h, ws, { name: 'Apollo', billable: true });
    await make.member(h, ws, { project, user: lead, role: 'Administrator' });
    const page = await open(ws, lead, '/projects');
    await openProject(page, 'Apollo');

    const add = page.getByRole('form', { name: 'Add a task' });
    await add.getByLabel('New task').focus();
    await page.keyboard.type('Design');
    await page.keyboard.press('Tab');
    expect(await add.getByLabel('Billable').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('form', { name: 'Task Design' }).waitFor();
    expect(await add.getByLabel('New task').inputValue()).toBe('');

    await add.getByLabel('New task').fill('Support');
    await add.getByLabel('Billable').selectOption({ label: 'Not billable' });
    await add.getByRole('button', { name: 'Add task' }).click();
    await page.getByRole('form', { name: 'Task Support' }).waitFor();
    await add.getByLabel('New task').fill('Meetings');
    await add.getByRole('button', { name: 'Add task' }).click();
    await page.getByRole('form', { name: 'Task Meetings' }).waitFor();
    let stored = await tasksByName(h, ws, project.id);
    expect(stored.Design).toMatchObject({ billable: true, archived: false, projectId: project.id });
    expect(stored.Support).toMatchObject({ billable: false, archived: false });
    expect(stored.Meetings).toMatchObject({ billable: null, archived: false });
    expect(await page.getByRole('form', { name: 'Task Meetings' }).getByLabel('Billable').locator('option:checked').textContent()).toBe('As the project (billable)');

    const design = page.getByRole('form', { name: 'Task Design' });
    await design.getByLabel('Task name').fill('UX design');
    await design.getByLabel('Billable').selectOption({ label: 'As the project (billable)' });
    await design.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('form', { name: 'Task UX design' }).waitFor();
    await page.getByRole('button', { name: 'Archive Support', exact: true }).click();
    await page.getByRole('button', { name: 'Unarchive Support' }).waitFor();
    stored = await tasksByName(h, ws, project.id);
    expect(Object.keys(stored).sort()).toEqual(['Meetings', 'Support', 'UX design']);
    expect(stored['UX design']).toMatchObject({ id: expect.any(String), billable: null, archived: false });
    expect(stored.Support).toMatchObject({ archived: true, billable: false });
    // Archived tasks come last.
    expect(await page.getByRole('list', { name: "Apollo's tasks" }).getByRole('form').evaluateAll((forms) => forms.map((f) => f.getAttribute('aria-label')))).toEqual([
      'Task Meetings',
      'Task UX design',
      'Task Support',
    ]);
    await expectAccessible(page);
    await screenshot(page, 'manage-tasks', h);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  });

  it('a task name the project already has, in another case, is refused at the name field and nothing is added; another project may have it', async () => {
    const ws = await h.workspace();
    const apollo = await make.project(h, ws, { name: 'Apollo' });
    const borealis = await make.project(h, ws, { name: 'Borealis' });
    await make.task(h, ws, { project: apollo, name: 'Design' });
    const page = await open(ws, ws.admin, '/projects');
    await openProject(page, 'Apollo');

    const add = page.getByRole('form', { name: 'Add a task' });
    await add.getByLabel('New task').fill('design');
    await add.getByRole('button', { name: 'Add task' }).click();
    const field = add.getByLabel('New task');
    const message = add.locator('#new-task-name-error');
    await message.waitFor();
    expect(await message.textContent()).toMatch(/already/);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.inputValue()).toBe('design');
    expect(Object.keys(await tasksByName(h, ws, apollo.id))).toEqual(['Design']);
    await expectAccessible(page);

    await openProject(page, 'Borealis');
    await page.getByRole('form', { name: 'Add a task' }).getByLabel('New task').fill('design');
    await page.getByRole('form', { name: 'Add a task' }).getByRole('button', { name: 'Add task' }).click();
    await page.getByRole('form', { name: 'Task design' }).waitFor();
    expect(Object.keys(await tasksByName(h, ws, borealis.id))).toEqual(['design']);
  });

  it('deleting a task says how many entries have it and how long; they keep their time, without a task', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const project = await make.project(h, ws, { name: 'Apollo' });
    const task = await make.task(h, ws, { project, name: 'Design' });
    const entry = await make.activity(h, ws, { project, taskId: task.id });
    const page = await open(ws, ws.admin, '/projects');
    await openProject(page, 'Apollo');

    await page.getByRole('button', { name: 'Delete Design…' }).click();
    const confirm = page.getByRole('group', { name: 'Delete Design' });
    expect(await confirm.textContent()).toMatch(/^Delete Design for good\? 1 entry has it \(1:00(:00)?\): they keep their time, without a task\. Archiving keeps it on its entries instead\./);
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Delete task' }).click();
    await page.getByText('Design is deleted; its entries keep their time, without a task.').waitFor();
    await page.getByText('No tasks.').waitFor();
    expect((await api.get(`/api/projects/${project.id}/tasks/${task.id}`)).status).toBe(404);
    expect((await api.get(`/api/activities/${entry.id}`)).body).toMatchObject({ id: entry.id, taskId: null, projectId: project.id, endedAt: entry.endedAt });
  });

  it("a plain member reads the project's tasks and what billable they take, and is offered no change (the API refuses them with 403)", async () => {
    const ws = await h.workspace();
    const plain = await h.user(ws);
    const project = await make.project(h, ws, { name: 'Apollo', billable: false });
    await make.member(h, ws, { project, user: plain });
    const task = await make.task(h, ws, { project, name: 'Design' });
    await make.task(h, ws, { project, name: 'Billed', billable: true });
    const page = await open(ws, plain, '/projects');
    await openProject(page, 'Apollo');

    const list = page.getByRole('list', { name: "Apollo's tasks" });
    expect((await list.getByRole('listitem').allInnerTexts()).map((text) => text.trim())).toEqual(['Billed · Billable', 'Design · As the project (not billable)']);
    expect(await page.getByRole('form', { name: 'Add a task' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Delete Design/ }).count()).toBe(0);
    await expectAccessible(page);
    expect((await as(h, ws, plain).put(`/api/projects/${project.id}/tasks/${task.id}`, { name: 'Mine' })).status).toBe(403);
  });
});
