import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';
import { focusedId, focusedLabel, openList, pageWidth, settled, tabTo, thisWeekAt, trackWorld } from './track-world.js';

/* The Track page with clients, tasks and tags (issue 36): what is picked is what the API then holds. */

describeInBrowser('Web app: Track with clients, tasks and tags', ({ h, open }) => {
  it('the project picker lists the projects under their clients and finds a project by its name or its client\'s', async () => {
    const t = await trackWorld(h);
    const page = await open(t.ws, t.uma, '/');
    const form = page.getByRole('form', { name: 'Start a timer' });
    const project = form.getByLabel('Project', { exact: true });
    await project.click();
    await settled(() => openList(page, 'Projects')).toEqual([
      ['', ['No project']],
      ['Acme', ['Mobile app', 'Website']],
      ['Globex', ['Intranet']],
      ['No client', ['Internal']],
    ]);
    await expectAccessible(page);

    await project.fill('glob');
    await settled(() => openList(page, 'Projects')).toEqual([['Globex', ['Intranet']]]);
    await project.fill('MOBILE');
    await settled(() => openList(page, 'Projects')).toEqual([['Acme', ['Mobile app']]]);
    await project.fill('acme');
    await settled(() => openList(page, 'Projects')).toEqual([['Acme', ['Mobile app', 'Website']]]);
    await project.fill('nothing like it');
    await page.getByRole('status').getByText('No project or client matches “nothing like it”.').waitFor();
    expect(await project.getAttribute('aria-expanded')).toBe('false');

    await project.fill('glob');
    await project.press('Enter');
    expect(await project.inputValue()).toBe('Intranet');
    expect(await page.locator('#timer-project-client').textContent()).toBe('Client: Globex');
    await page.getByLabel('What are you working on?').fill('Helpdesk');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    expect(await page.getByRole('region', { name: 'Running timer' }).getByText(/^Globex · Intranet · started/).count()).toBe(1);
    const [timer] = await t.activities();
    expect(await t.activity(timer.id)).toMatchObject({ name: 'Helpdesk', projectId: t.projects.intranet.id, taskId: null, tagIds: [], endedAt: null });
  });

  it('after a project, the task picker offers only that project\'s unarchived tasks, and the task\'s billable decides the timer\'s', async () => {
    const t = await trackWorld(h);
    const page = await open(t.ws, t.uma, '/');
    const form = page.getByRole('form', { name: 'Start a timer' });
    expect(await form.getByLabel('Task', { exact: true }).count()).toBe(0);
    const project = form.getByLabel('Project', { exact: true });
    await project.fill('Website');
    await project.press('Enter');
    expect(await form.getByLabel('Billable').isChecked()).toBe(true);

    const task = form.getByLabel('Task', { exact: true });
    await task.click();
    await settled(() => openList(page, 'Tasks')).toEqual([['', ['No task']], ['', ['Design']], ['', ['Build']]]);
    await task.fill('ret');
    await page.getByRole('status').getByText('No task matches “ret”.').waitFor();
    await task.fill('des');
    await task.press('Enter');
    expect(await task.inputValue()).toBe('Design');
    expect(await form.getByLabel('Billable').isChecked()).toBe(false);

    // Another project takes none of Website's tasks: the task is cleared with the project.
    await project.fill('Intranet');
    await project.press('Enter');
    expect(await task.inputValue()).toBe('');
    await task.click();
    await settled(() => openList(page, 'Tasks')).toEqual([['', ['No task']], ['', ['Support']]]);
    await task.press('Escape');
    await project.fill('Website');
    await project.press('Enter');
    await task.fill('Design');
    await task.press('Enter');

    await page.getByLabel('What are you working on?').fill('Wireframes');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    expect(await page.getByRole('region', { name: 'Running timer' }).getByText(/^Acme · Website · Design · started/).count()).toBe(1);
    const [timer] = await t.activities();
    expect(await t.activity(timer.id)).toMatchObject({ name: 'Wireframes', projectId: t.projects.website.id, taskId: t.tasks.design.id, billable: false, endedAt: null });

    // A project without tasks leaves the task field disabled, saying so.
    await page.getByRole('button', { name: 'Stop' }).click();
    await project.fill('Internal');
    await project.press('Enter');
    await settled(() => task.isDisabled()).toBe(true);
    expect(await task.getAttribute('placeholder')).toBe('No tasks');
  });

  it('the tag field searches, picks several tags, offers no archived one, and creates a new tag on Enter', async () => {
    const t = await trackWorld(h);
    const page = await open(t.ws, t.uma, '/');
    const form = page.getByRole('form', { name: 'Start a timer' });
    const field = form.getByLabel('Tags', { exact: true });
    await field.click();
    await settled(() => openList(page, 'Tags to add')).toEqual([['', ['review']], ['', ['urgent']]]);

    // A name no tag has: "Create" comes first and Enter takes it; the arrow keys reach the tags that match.
    await field.fill('rev');
    await settled(() => openList(page, 'Tags to add')).toEqual([['', ['Create tag “rev”']], ['', ['review']]]);
    await field.press('ArrowDown');
    await field.press('Enter');
    await field.fill('URGENT');
    await settled(() => openList(page, 'Tags to add')).toEqual([['', ['urgent']]]);
    await field.press('Enter');
    await field.fill('old');
    await page.getByRole('status').getByText('“old” is an archived tag: it goes on no other entry.').waitFor();
    await field.fill('Client call');
    await field.press('Enter');
    await form.getByRole('list', { name: 'Tags: chosen' }).getByText('Client call').waitFor();
    expect(await form.getByRole('list', { name: 'Tags: chosen' }).getByRole('listitem').allTextContents()).toEqual(['review×', 'urgent×', 'Client call×']);
    const created = (await t.tagList()).filter((tag) => tag.name === 'Client call');
    expect(created).toMatchObject([{ archived: false }]);

    await field.click();
    expect(await field.getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('status').getByText('No other tag: type a name and press Enter to create one.').waitFor();
    // The note lies over the page like a list: Escape puts it away.
    await field.press('Escape');
    await page.getByRole('button', { name: 'Remove tag “urgent”' }).click();
    expect(await focusedId(page)).toBe('timer-tags');

    await page.getByLabel('What are you working on?').fill('Standup');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    const [timer] = await t.activities();
    expect((await t.activity(timer.id)).tagIds).toEqual([t.tags.review.id, created[0].id]);
    expect(await page.getByRole('list', { name: 'Tags of the running timer' }).getByRole('listitem').allTextContents()).toEqual(['review', 'Client call']);
  });

  it('a tag created meanwhile by someone else is added, not created twice; a name the API refuses is told at the field and creates nothing', async () => {
    const t = await trackWorld(h);
    const page = await open(t.ws, t.uma, '/');
    const form = page.getByRole('form', { name: 'Start a timer' });
    const field = form.getByLabel('Tags', { exact: true });
    await field.click();
    await page.getByRole('listbox', { name: 'Tags to add' }).waitFor();
    const late = await t.asUma.post('/api/tags', { name: 'Late' });
    expect(late.status).toBe(200);
    await field.fill('late');
    await settled(() => openList(page, 'Tags to add')).toEqual([['', ['Create tag “late”']]]);
    await field.press('Enter');
    await form.getByRole('list', { name: 'Tags: chosen' }).getByText('Late').waitFor();
    expect((await t.tagList()).filter((tag) => tag.name.toLowerCase() === 'late')).toHaveLength(1);

    const before = await t.tagList();
    await field.fill('x'.repeat(101));
    await field.press('Enter');
    const message = page.locator('#timer-tags-error');
    await message.waitFor();
    expect(await message.textContent()).toMatch(/100/);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.getAttribute('aria-describedby')).toContain('timer-tags-error');
    expect(await t.tagList()).toEqual(before);

    await page.getByLabel('What are you working on?').fill('Late work');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    const [timer] = await t.activities();
    expect((await t.activity(timer.id)).tagIds).toEqual([late.body.id]);
  });

  it('an entry shows its client, task and tags; an archived tag it carries stays; a tag taken off or added is saved at once', async () => {
    const t = await trackWorld(h);
    const entry = await make.activity(h, t.ws, {
      owner: t.uma,
      name: 'Mockups',
      project: t.projects.website,
      taskId: t.tasks.design.id,
      tagIds: [t.tags.urgent.id],
      startedAt: thisWeekAt(0, 9),
      endedAt: thisWeekAt(0, 10),
    });
    const page = await open(t.ws, t.uma, '/');
    const row = page.getByTestId('entry');
    await row.getByLabel('Task', { exact: true }).waitFor();
    expect(await row.getByLabel('Project', { exact: true }).inputValue()).toBe('Website');
    expect(await row.locator(`#entry-${entry.id}-project-client`).textContent()).toBe('Client: Acme');
    // The task's name shows once the project's tasks are loaded.
    await settled(() => row.getByLabel('Task', { exact: true }).inputValue()).toBe('Design');
    expect(await row.getByRole('list', { name: 'Tags: chosen' }).getByRole('listitem').allTextContents()).toEqual(['urgent×']);

    await row.getByLabel('Tags', { exact: true }).fill('review');
    await row.getByLabel('Tags', { exact: true }).press('Enter');
    await settled(async () => (await t.activity(entry.id)).tagIds).toEqual([t.tags.urgent.id, t.tags.review.id]);
    await row.getByRole('button', { name: 'Remove tag “urgent”' }).click();
    await settled(async () => (await t.activity(entry.id)).tagIds).toEqual([t.tags.review.id]);

    // Archived after it was put on the entry, the tag stays there, marked.
    expect((await as(h, t.ws).put(`/api/tags/${t.tags.review.id}`, { archived: true })).status).toBe(200);
    await page.reload();
    await row.getByText('(archived)').waitFor();
    expect(await row.getByRole('list', { name: 'Tags: chosen' }).getByRole('listitem').allTextContents()).toEqual(['review (archived)×']);
    await row.getByLabel('Tags', { exact: true }).fill('urgent');
    await row.getByLabel('Tags', { exact: true }).press('Enter');
    await settled(async () => (await t.activity(entry.id)).tagIds).toEqual([t.tags.review.id, t.tags.urgent.id]);

    // Continue starts the same work, less the tag archived since.
    await page.getByRole('button', { name: 'Continue “Mockups”' }).click();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    const timer = (await t.activities()).find((a) => a.endedAt === null)!;
    expect(await t.activity(timer.id)).toMatchObject({ name: 'Mockups', projectId: t.projects.website.id, taskId: t.tasks.design.id, tagIds: [t.tags.urgent.id] });
    await expectAccessible(page);
  });

  it('changing an entry\'s project clears its task (the API refuses a task of another project), and the new project\'s task can be picked', async () => {
    const t = await trackWorld(h);
    const entry = await make.activity(h, t.ws, { owner: t.uma, name: 'Fixes', project: t.projects.website, taskId: t.tasks.build.id, startedAt: thisWeekAt(0, 9), endedAt: thisWeekAt(0, 10) });
    const page = await open(t.ws, t.uma, '/');
    const row = page.getByTestId('entry');
    const project = row.getByLabel('Project', { exact: true });
    const task = row.getByLabel('Task', { exact: true });
    await settled(() => task.inputValue()).toBe('Build');
    await project.fill('intra');
    await project.press('Enter');
    await settled(async () => await t.activity(entry.id)).toMatchObject({ projectId: t.projects.intranet.id, taskId: null });
    await settled(() => task.inputValue()).toBe('');
    await task.fill('sup');
    await page.getByRole('option', { name: 'Support' }).waitFor();
    await task.press('Enter');
    await settled(async () => (await t.activity(entry.id)).taskId).toBe(t.tasks.support.id);

    await project.fill('');
    await project.press('Tab');
    await settled(async () => await t.activity(entry.id)).toMatchObject({ projectId: null, taskId: null });
    await settled(() => row.getByLabel('Task', { exact: true }).count()).toBe(0);
  });

  it('from the keyboard: a timer is started with a project, a task and tags (one created), and an entry\'s project, task and tags are changed', async () => {
    const t = await trackWorld(h);
    const entry = await make.activity(h, t.ws, { owner: t.uma, name: 'Review', project: t.projects.website, taskId: t.tasks.design.id, tagIds: [t.tags.urgent.id], startedAt: thisWeekAt(0, 9), endedAt: thisWeekAt(0, 10) });
    const page = await open(t.ws, t.uma, '/');
    await page.getByTestId('entry').getByLabel('Task', { exact: true }).waitFor();
    const form = page.getByRole('form', { name: 'Start a timer' });
    const keys = page.keyboard;

    await tabTo(page, 'timer-name');
    await keys.type('Planning');
    await keys.press('Tab');
    expect(await focusedId(page)).toBe('timer-project');
    await keys.press('ArrowDown');
    await settled(() => openList(page, 'Projects')).toEqual([['', ['No project']], ['Acme', ['Mobile app', 'Website']], ['Globex', ['Intranet']], ['No client', ['Internal']]]);
    await keys.press('ArrowDown');
    await keys.press('ArrowDown');
    await keys.press('Enter');
    await keys.press('Tab');
    expect(await focusedId(page)).toBe('timer-task');
    await keys.type('bui');
    await keys.press('Enter');
    await keys.press('Tab');
    expect(await focusedId(page)).toBe('timer-tags');
    await keys.type('urg');
    await keys.press('ArrowDown');
    await keys.press('Enter');
    await keys.type('Sprint 12');
    await keys.press('Enter');
    await form.getByRole('list', { name: 'Tags: chosen' }).getByText('Sprint 12').waitFor();
    await tabTo(page, 'timer-billable');
    await keys.press('Tab');
    await keys.press('Enter');
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    const sprint = (await t.tagList()).find((tag) => tag.name === 'Sprint 12')!;
    const timer = (await t.activities()).find((a) => a.endedAt === null)!;
    expect(await t.activity(timer.id)).toMatchObject({ name: 'Planning', projectId: t.projects.website.id, taskId: t.tasks.build.id, tagIds: [t.tags.urgent.id, sprint.id], billable: true });

    const id = `entry-${entry.id}`;
    await tabTo(page, `${id}-project`);
    await keys.type('Globex');
    await keys.press('Enter');
    await settled(async () => await t.activity(entry.id)).toMatchObject({ projectId: t.projects.intranet.id, taskId: null });
    // The entry drawn again with Intranet: no task, and Intranet's tasks offered once loaded.
    const task = page.locator(`#${id}-task`);
    await settled(async () => [await task.inputValue(), await task.isEnabled()]).toEqual(['', true]);
    await keys.press('Tab');
    expect(await focusedId(page)).toBe(`${id}-task`);
    await keys.press('ArrowDown');
    await page.getByRole('option', { name: 'Support' }).waitFor();
    await keys.press('ArrowDown');
    await keys.press('Enter');
    await settled(async () => (await t.activity(entry.id)).taskId).toBe(t.tasks.support.id);
    await keys.press('Tab');
    expect(await focusedId(page)).toBe(`${id}-tags`);
    await keys.press('Tab');
    expect(await focusedLabel(page)).toBe('Remove tag “urgent”');
    await keys.press('Enter');
    await settled(async () => (await t.activity(entry.id)).tagIds).toEqual([]);
    expect(await focusedId(page)).toBe(`${id}-tags`);
    await keys.type('rev');
    await keys.press('ArrowDown');
    await keys.press('Enter');
    await settled(async () => (await t.activity(entry.id)).tagIds).toEqual([t.tags.review.id]);
    // Escape closes the list, then puts back what the field held.
    await tabTo(page, `${id}-project`, { back: true });
    await keys.type('Mob');
    await keys.press('Escape');
    expect(await page.locator(`#${id}-project`).getAttribute('aria-expanded')).toBe('false');
    await keys.press('Escape');
    expect(await page.locator(`#${id}-project`).inputValue()).toBe('Intranet');
    expect((await t.activity(entry.id)).projectId).toBe(t.projects.intranet.id);
  });

  it('at 360 px the page with tagged entries and an open list fits the screen, and passes axe', async () => {
    const t = await trackWorld(h);
    for (const [index, name] of ['Quarterly planning with the whole Acme team', 'Design review'].entries()) {
      await make.activity(h, t.ws, {
        owner: t.uma,
        name,
        project: t.projects.website,
        taskId: t.tasks.design.id,
        tagIds: [t.tags.urgent.id, t.tags.review.id],
        startedAt: thisWeekAt(0, 9 + index),
        endedAt: thisWeekAt(0, 10 + index),
      });
    }
    const page = await open(t.ws, t.uma, '/');
    await page.getByTestId('entry').first().getByLabel('Task', { exact: true }).waitFor();
    await page.setViewportSize({ width: 360, height: 780 });
    await page.getByRole('form', { name: 'Start a timer' }).getByLabel('Project', { exact: true }).click();
    await page.getByRole('listbox', { name: 'Projects' }).waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(360);
    const list = await page.getByRole('listbox', { name: 'Projects' }).boundingBox();
    expect(list!.x + list!.width).toBeLessThanOrEqual(360);
    await expectAccessible(page);
    await screenshot(page, 'track-clients-tasks-tags', h);
  });
});
