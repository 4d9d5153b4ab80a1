import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';
import { focusedId, openList, pageWidth, settled, tabTo, thisWeekAt, trackWorld, type TrackWorld } from './track-world.js';

/* The timesheet with tasks (issue 36): a row per project and task, and what a cell takes lands on its task. */

const minutes = (a: { startedAt: string; endedAt: string | null }) => (Date.parse(a.endedAt!) - Date.parse(a.startedAt)) / 60_000;

/** The rows' heads and their seven cells' texts, top to bottom. */
async function grid(page: Page): Promise<Array<[string, string[]]>> {
  const rows: Array<[string, string[]]> = [];
  for (const row of await page.locator('table.grid tbody tr').all()) {
    rows.push([(await row.locator('th').textContent()) ?? '', await Promise.all((await row.locator('input').all()).map((input) => input.inputValue()))]);
  }
  return rows;
}

/** Uma's work of this week: Monday on Website's Design and without a task, Tuesday on Build and on Internal. */
async function week(h: Parameters<typeof trackWorld>[0], t: TrackWorld) {
  const work = (name: string, project: { id: string }, taskId: string | null, day: number, from: [number, number], to: [number, number]) =>
    make.activity(h, t.ws, { owner: t.uma, name, project, taskId, startedAt: thisWeekAt(day, ...from), endedAt: thisWeekAt(day, ...to) });
  return {
    design: await work('Sketches', t.projects.website, t.tasks.design.id, 0, [9, 0], [10, 0]),
    plain: await work('Call', t.projects.website, null, 0, [10, 0], [10, 30]),
    build: await work('Coding', t.projects.website, t.tasks.build.id, 1, [9, 0], [11, 0]),
    internal: await work('Admin', t.projects.internal, null, 1, [11, 0], [11, 45]),
  };
}

describeInBrowser('Web app: the timesheet with tasks', ({ h, open }) => {
  it('the timesheet has a row per project and task, named "Project · Task" with the client, and a cell changes only its task\'s time', async () => {
    const t = await trackWorld(h);
    const work = await week(h, t);
    const page = await open(t.ws, t.uma, '/timesheet');
    await page.getByRole('row', { name: /^Website · Design/ }).waitFor();
    expect(await grid(page)).toEqual([
      ['Internal', ['', '0:45', '', '', '', '', '']],
      ['Website, client Acme', ['0:30', '', '', '', '', '', '']],
      ['Website · Build, client Acme', ['', '2:00', '', '', '', '', '']],
      ['Website · Design, client Acme', ['1:00', '', '', '', '', '', '']],
    ]);

    // Less on Design's Monday shortens the Design entry, not the one of the project without a task.
    const design = page.getByRole('row', { name: /^Website · Design/ }).getByRole('textbox');
    await design.nth(0).fill('0:20');
    await design.nth(0).press('Enter');
    await settled(async () => minutes(await t.activity(work.design.id))).toBe(20);
    expect(minutes(await t.activity(work.plain.id))).toBe(30);

    // A day without time on Build records an entry on the task, billable as the project (the task leaves it to it).
    const build = page.getByRole('row', { name: /^Website · Build/ }).getByRole('textbox');
    await build.nth(2).fill('1.5');
    await build.nth(2).press('Enter');
    await settled(async () => (await t.activities()).filter((a) => a.taskId === t.tasks.build.id).map(minutes).sort((a, b) => a - b)).toEqual([90, 120]);
    const recorded = (await t.activities()).find((a) => a.taskId === t.tasks.build.id && a.startedAt === thisWeekAt(2, 9))!;
    expect(await t.activity(recorded.id)).toMatchObject({ name: 'Website · Build', projectId: t.projects.website.id, taskId: t.tasks.build.id, billable: true, endedAt: thisWeekAt(2, 10, 30) });
    await settled(() => grid(page)).toEqual([
      ['Internal', ['', '0:45', '', '', '', '', '']],
      ['Website, client Acme', ['0:30', '', '', '', '', '', '']],
      ['Website · Build, client Acme', ['', '2:00', '1:30', '', '', '', '']],
      ['Website · Design, client Acme', ['0:20', '', '', '', '', '', '']],
    ]);
    expect(await page.getByTestId('week-total').textContent()).toBe('5:05');
  });

  it('from the keyboard: after a project, a row of each of its unarchived tasks is added, and time typed in it is recorded on the task', async () => {
    const t = await trackWorld(h);
    const page = await open(t.ws, t.uma, '/timesheet');
    await page.getByRole('heading', { name: /week/ }).waitFor();
    const keys = page.keyboard;
    expect(await page.getByLabel(/^Add a task row/).count()).toBe(0);

    await tabTo(page, 'add-project');
    await keys.type('acme');
    await settled(() => openList(page, 'Projects')).toEqual([['Acme', ['Mobile app', 'Website']]]);
    await keys.press('ArrowDown');
    await keys.press('Enter');
    await page.getByRole('row', { name: /^Website/ }).waitFor();
    await keys.press('Tab');
    expect(await focusedId(page)).toBe('add-task');
    expect(await page.getByLabel('Add a task row of Website').count()).toBe(1);
    await keys.press('ArrowDown');
    // The list fills in as Website's tasks arrive.
    await settled(() => openList(page, 'Tasks')).toEqual([['', ['No task']], ['', ['Design']], ['', ['Build']]]);
    await keys.press('ArrowDown');
    await keys.press('Enter');
    await keys.type('bu');
    await keys.press('Enter');
    await page.getByRole('row', { name: /^Website · Build/ }).waitFor();
    expect((await grid(page)).map(([head]) => head)).toEqual(['Website, client Acme', 'Website · Build, client Acme', 'Website · Design, client Acme']);

    const cell = `cell-${t.projects.website.id}-${t.tasks.build.id}-${thisWeekAt(3, 0).slice(0, 10)}`;
    await tabTo(page, cell, { back: true });
    await keys.type('2h');
    await keys.press('Enter');
    await settled(async () => (await t.activities()).map((a) => ({ projectId: a.projectId, taskId: a.taskId, minutes: minutes(a), startedAt: a.startedAt }))).toEqual([
      { projectId: t.projects.website.id, taskId: t.tasks.build.id, minutes: 120, startedAt: thisWeekAt(3, 9) },
    ]);
  });

  it('a row of a task archived since keeps its time and can shorten it, but a new entry on it is refused with a message, and nothing is recorded', async () => {
    const t = await trackWorld(h);
    const work = await week(h, t);
    expect((await as(h, t.ws).put(`/api/projects/${t.projects.website.id}/tasks/${t.tasks.design.id}`, { archived: true })).status).toBe(200);
    const page = await open(t.ws, t.uma, '/timesheet');
    const row = page.getByRole('row', { name: /^Website · Design \(archived\)/ });
    await row.waitFor();
    const cells = row.getByRole('textbox');
    await cells.nth(0).fill('0:40');
    await cells.nth(0).press('Enter');
    await settled(async () => minutes(await t.activity(work.design.id))).toBe(40);

    const before = await t.activities();
    await cells.nth(4).fill('1');
    await cells.nth(4).press('Enter');
    const message = row.getByRole('alert');
    await message.waitFor();
    expect(await message.textContent()).toBe('This task is archived: it takes no new entries.');
    expect(await cells.nth(4).getAttribute('aria-invalid')).toBe('true');
    expect(await t.activities()).toEqual(before);
    await expectAccessible(page);
  });

  it('at 360 px the timesheet with task rows and the task list open fits the screen (the grid scrolls), and passes axe', async () => {
    const t = await trackWorld(h);
    await week(h, t);
    const page = await open(t.ws, t.uma, '/timesheet');
    await page.getByRole('row', { name: /^Website · Design/ }).waitFor();
    await page.setViewportSize({ width: 360, height: 780 });
    await page.getByLabel('Add a project row').fill('Intranet');
    await page.getByLabel('Add a project row').press('Enter');
    await page.getByLabel('Add a task row of Intranet').click();
    await settled(() => openList(page, 'Tasks')).toEqual([['', ['No task']], ['', ['Support']]]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(360);
    await expectAccessible(page);
    await screenshot(page, 'timesheet-tasks', h);
  });
});
