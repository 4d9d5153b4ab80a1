import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { describeInBrowser, expectAccessible } from './manage-browser.js';
import { settled, thisWeekAt, trackWorld } from './track-world.js';

/* Editing entries on Track (issue 37, defects 5 to 7): what the page sends is what the API then holds. */

describeInBrowser('Web app: editing entries on Track', ({ h, open }) => {
  it('the project picker: Enter takes the highlighted match of partial text, in the timer form and in an entry', async () => {
    const t = await trackWorld(h);
    const entry = await make.activity(h, t.ws, { owner: t.uma, name: 'Fixes', project: t.projects.internal, startedAt: thisWeekAt(0, 9), endedAt: thisWeekAt(0, 10) });
    const page = await open(t.ws, t.uma, '/');
    const form = page.getByRole('form', { name: 'Start a timer' });
    const keys = page.keyboard;

    await form.getByLabel('What are you working on?').fill('Landing page');
    await form.getByLabel('Project', { exact: true }).focus();
    await keys.type('Web');
    await keys.press('Enter');
    expect(await form.getByLabel('Project', { exact: true }).inputValue()).toBe('Website');
    await keys.press('Enter');
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    const timer = (await t.activities()).find((a) => a.endedAt === null)!;
    expect(await t.activity(timer.id)).toMatchObject({ name: 'Landing page', projectId: t.projects.website.id, billable: true });

    const project = page.locator(`#entry-${entry.id}-project`);
    // Tab selects what a field holds: what is typed replaces it.
    await project.selectText();
    await keys.type('intr');
    await keys.press('Enter');
    await settled(async () => (await t.activity(entry.id)).projectId).toBe(t.projects.intranet.id);
    await settled(() => project.inputValue()).toBe('Intranet');
  });

  it('the project picker: Enter with no match says so, keeps what is typed, and starts nothing', async () => {
    const t = await trackWorld(h);
    const entry = await make.activity(h, t.ws, { owner: t.uma, name: 'Fixes', project: t.projects.internal, startedAt: thisWeekAt(0, 9), endedAt: thisWeekAt(0, 10) });
    const page = await open(t.ws, t.uma, '/');
    const form = page.getByRole('form', { name: 'Start a timer' });
    const project = form.getByLabel('Project', { exact: true });
    const keys = page.keyboard;

    await form.getByLabel('What are you working on?').fill('Landing page');
    await project.focus();
    await keys.type('Wob');
    await keys.press('Enter');
    await keys.press('Enter');
    const none = form.getByRole('status').getByText('No project or client matches “Wob”.');
    expect(await none.count()).toBe(1);
    expect(await project.inputValue()).toBe('Wob');
    await expectAccessible(page);
    // Escape, then Enter: the list opens again rather than the form being sent with no project.
    await keys.press('Escape');
    await keys.press('Enter');
    expect(await none.count()).toBe(1);
    expect(await t.activities()).toHaveLength(1);

    const entryProject = page.locator(`#entry-${entry.id}-project`);
    await entryProject.selectText();
    await keys.type('Wob');
    await keys.press('Enter');
    await page.getByTestId('entry').getByRole('status').getByText('No project or client matches “Wob”.').waitFor();
    expect(await entryProject.inputValue()).toBe('Wob');
    expect((await t.activity(entry.id)).projectId).toBe(t.projects.internal.id);
  });

  it('an entry given another project, or a task, takes its billable as a new entry would: the task\'s when not null, else the project\'s', async () => {
    const t = await trackWorld(h);
    const entry = await make.activity(h, t.ws, { owner: t.uma, name: 'Fixes', project: t.projects.internal, billable: false, startedAt: thisWeekAt(0, 9), endedAt: thisWeekAt(0, 10) });
    const page = await open(t.ws, t.uma, '/');
    const row = page.getByTestId('entry');
    const project = row.getByLabel('Project', { exact: true });
    const billable = row.getByLabel('Billable');
    const pick = async (field: typeof project, text: string) => {
      await field.fill(text);
      await field.press('Enter');
    };

    await pick(project, 'Website');
    await settled(async () => await t.activity(entry.id)).toMatchObject({ projectId: t.projects.website.id, taskId: null, billable: true });
    await settled(() => billable.isChecked()).toBe(true);
    const task = row.getByLabel('Task', { exact: true });
    await pick(task, 'Design');
    await settled(async () => await t.activity(entry.id)).toMatchObject({ taskId: t.tasks.design.id, billable: false });
    await settled(() => billable.isChecked()).toBe(false);
    // Build's billable is null: Website's decides.
    await pick(task, 'Build');
    await settled(async () => await t.activity(entry.id)).toMatchObject({ taskId: t.tasks.build.id, billable: true });
    await pick(project, 'Mobile app');
    await settled(async () => await t.activity(entry.id)).toMatchObject({ projectId: t.projects.mobile.id, taskId: null, billable: false });
    await settled(() => billable.isChecked()).toBe(false);

    // Billable set by hand after the pick stays, until another project is picked.
    await billable.check();
    await settled(async () => (await t.activity(entry.id)).billable).toBe(true);
    await pick(project, 'Internal');
    await settled(async () => await t.activity(entry.id)).toMatchObject({ projectId: t.projects.internal.id, billable: false });
    await expectAccessible(page);
  });

  it('an end before the start is asked about ("ends the next day?") at the end field, and nothing is saved until the person answers', async () => {
    const t = await trackWorld(h);
    const entry = await make.activity(h, t.ws, { owner: t.uma, name: 'Deploy', project: t.projects.internal, startedAt: thisWeekAt(0, 9), endedAt: thisWeekAt(0, 10) });
    const page = await open(t.ws, t.uma, '/');
    const row = page.getByTestId('entry');
    const start = page.locator(`#entry-${entry.id}-start`);
    const end = page.locator(`#entry-${entry.id}-end`);
    const question = row.getByRole('alert').getByText('The end is before the start: does the entry end the next day?');
    const times = async () => {
      const { startedAt, endedAt } = await t.activity(entry.id);
      return { startedAt, endedAt };
    };
    const before = { startedAt: thisWeekAt(0, 9), endedAt: thisWeekAt(0, 10) };

    await end.fill('08:00');
    await end.press('Enter');
    await question.waitFor();
    expect(await end.inputValue()).toBe('08:00');
    expect(await end.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`[id="${await end.getAttribute('aria-describedby')}"]`).textContent()).toBe('The end is before the start: does the entry end the next day?');
    expect(await times()).toEqual(before);
    await expectAccessible(page);

    await row.getByRole('button', { name: 'No, put the times back' }).click();
    expect(await question.count()).toBe(0);
    expect(await end.inputValue()).toBe('10:00');
    expect(await end.getAttribute('aria-invalid')).toBeNull();
    expect(await times()).toEqual(before);

    // A start moved past the end is asked about too.
    await start.fill('11:00');
    await start.press('Enter');
    await question.waitFor();
    expect(await times()).toEqual(before);
    await row.getByRole('button', { name: 'Yes, the next day' }).click();
    await settled(times).toEqual({ startedAt: thisWeekAt(0, 11), endedAt: thisWeekAt(1, 10) });
    expect(await question.count()).toBe(0);

    // An entry that runs past midnight goes on ending the next day when its start changes.
    await start.fill('22:00');
    await start.press('Enter');
    await settled(times).toEqual({ startedAt: thisWeekAt(0, 22), endedAt: thisWeekAt(1, 10) });
    expect(await question.count()).toBe(0);
    // An end after the start is on the start's day.
    await end.fill('23:30');
    await end.press('Enter');
    await settled(times).toEqual({ startedAt: thisWeekAt(0, 22), endedAt: thisWeekAt(0, 23, 30) });
  });
});
