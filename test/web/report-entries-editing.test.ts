import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';
import { settled } from './track-world.js';

/*
 * The detailed entries of the Reports page (docs/web-app.md, "Reports"): edited in place by those
 * who may change them, the result refreshed after a save, and the downloads named after the report
 * and its period (docs/rules.md §6 Report exports).
 */

/** July 2026: Ada on Apollo and Borealis, Ben on Apollo only; Lee, a User, administers Apollo. */
async function july(h: Harness) {
  const ws = await h.workspace();
  const ada = await make.user(h, ws, { name: 'Ada Lovelace' });
  const ben = await make.user(h, ws, { name: 'Ben Turing' });
  const lee = await make.user(h, ws, { name: 'Lee Lead' });
  const apollo = await make.project(h, ws, { name: 'Apollo' });
  const borealis = await make.project(h, ws, { name: 'Borealis' });
  await make.member(h, ws, { project: apollo, user: ada });
  await make.member(h, ws, { project: apollo, user: ben });
  await make.member(h, ws, { project: apollo, user: lee, role: 'Administrator' });
  await make.member(h, ws, { project: borealis, user: ada });
  const design = await make.activity(h, ws, { owner: ada, project: apollo, name: 'Design', startedAt: '2026-07-01T09:00:00Z', endedAt: '2026-07-01T11:00:00Z' });
  const build = await make.activity(h, ws, { owner: ben, project: apollo, name: 'Build', startedAt: '2026-07-02T09:00:00Z', endedAt: '2026-07-02T10:30:00Z' });
  await make.activity(h, ws, { owner: ada, project: borealis, name: 'Research', startedAt: '2026-07-03T13:00:00Z', endedAt: '2026-07-03T15:00:00Z' });
  const review = await make.activity(h, ws, { owner: lee, project: apollo, name: 'Review', startedAt: '2026-07-06T09:00:00Z', endedAt: '2026-07-06T09:30:00Z' });
  return { ws, ada, ben, lee, apollo, borealis, design, build, review };
}

async function openReports(open: (ws: TestWorkspace, user: TestUser, at: string) => Promise<Page>, ws: TestWorkspace, user: TestUser) {
  const page = await open(ws, user, '/reports');
  await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
  return page;
}

/** Runs July 2026 by project (the form's own metrics) and waits for its totals. */
async function runJuly(page: Page) {
  const form = page.getByRole('form', { name: 'Report' });
  await form.getByLabel('Period').selectOption('custom');
  await form.getByLabel('First day').fill('2026-07-01');
  await form.getByLabel('Last day').fill('2026-07-31');
  await page.getByRole('button', { name: 'Run report' }).click();
  await page.getByTestId('report-totals').waitFor();
}

const entriesTable = (page: Page) => page.getByRole('region', { name: 'Entries', exact: true }).getByRole('table');
/** The entries table's row of a description. */
const entryRow = (page: Page, name: string) => entriesTable(page).getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
/** The result table's row of a project, its cells' text. */
const resultRow = async (page: Page, project: string) =>
  (await page.locator('table.report-table tbody tr').filter({ hasText: project }).first().locator('th, td').allInnerTexts()).map((text) => text.trim());

/** Clicks a download button and answers the file name the browser is offered. */
async function suggestedName(page: Page, label: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label, exact: true }).click()]);
  return file.suggestedFilename();
}

describeInBrowser('Web app: the detailed entries of a report', ({ h, open }) => {
  it('an administrator edits an entry\'s description and project in place: the API holds the change, the entry and the result show it; a refusal is said in words and changes nothing', async () => {
    const w = await july(h);
    const api = as(h, w.ws);
    const page = await openReports(open, w.ws, w.ws.admin);
    await runJuly(page);
    // Project, entries, time: Apollo has Ada's 2:00, Ben's 1:30 and Lee's 0:30.
    expect((await resultRow(page, 'Apollo')).slice(0, 3)).toEqual(['Apollo', '3', expect.stringMatching(/^4:00(:00)?$/)]);

    // Ben is no member of Borealis: the API refuses the move, the page says why, and nothing changes.
    await entryRow(page, 'Build').getByRole('button', { name: 'Edit “Build”' }).click();
    const benEditor = page.getByRole('form', { name: 'Edit “Build”' });
    await benEditor.getByLabel('Project', { exact: true }).fill('Borealis');
    await benEditor.getByLabel('Project', { exact: true }).press('Enter');
    await benEditor.getByRole('button', { name: 'Save entry' }).click();
    // The API's own words for the refusal, beside the field it names.
    const refused = await api.put(`/api/activities/${w.build.id}`, { projectId: w.borealis.id });
    expect(refused.status).toBe(422);
    const words = (refused.body as { errors: { pointer: string; message: string }[] }).errors.find((error) => error.pointer === '/body/projectId')!.message;
    await benEditor.getByRole('alert').getByText(words, { exact: true }).waitFor();
    expect((await api.get(`/api/activities/${w.build.id}`)).body).toMatchObject({ name: 'Build', projectId: w.apollo.id });
    expect(await entryRow(page, 'Build').getByRole('cell').allInnerTexts()).toContain('Apollo');
    await expectAccessible(page);
    await benEditor.getByRole('button', { name: 'Cancel' }).click();

    await entryRow(page, 'Design').getByRole('button', { name: 'Edit “Design”' }).click();
    const editor = page.getByRole('form', { name: 'Edit “Design”' });
    await editor.getByLabel('Description').fill('Design review');
    await editor.getByLabel('Project', { exact: true }).fill('Borealis');
    await editor.getByLabel('Project', { exact: true }).press('Enter');
    await expectAccessible(page);
    await screenshot(page, 'report-entry-editor', h);
    await editor.getByRole('button', { name: 'Save entry' }).click();
    await page.getByRole('region', { name: 'Entries', exact: true }).getByRole('status').getByText('Saved “Design”.').waitFor();

    await settled(async () => (await api.get(`/api/activities/${w.design.id}`)).body).toMatchObject({ name: 'Design review', projectId: w.borealis.id });
    await entryRow(page, 'Design review').waitFor();
    expect(await entryRow(page, 'Design review').getByRole('cell').allInnerTexts()).toContain('Borealis');
    expect(await entryRow(page, 'Design').count()).toBe(0);
    // The result follows: Apollo keeps Ben's 1:30 and Lee's 0:30, Borealis has Ada's 2:00 and 2:00.
    await settled(async () => (await resultRow(page, 'Apollo')).slice(0, 3)).toEqual(['Apollo', '2', expect.stringMatching(/^2:00(:00)?$/)]);
    await settled(async () => (await resultRow(page, 'Borealis')).slice(0, 3)).toEqual(['Borealis', '2', expect.stringMatching(/^4:00(:00)?$/)]);
    await expectAccessible(page);
  });

  it('a User who administers a project sees its members\' entries without an edit control, and edits their own', async () => {
    const w = await july(h);
    const page = await openReports(open, w.ws, w.lee);
    await runJuly(page);
    await entryRow(page, 'Build').waitFor();
    expect(await entryRow(page, 'Build').getByRole('button').count()).toBe(0);
    expect(await entryRow(page, 'Design').getByRole('button').count()).toBe(0);
    await entryRow(page, 'Review').getByRole('button', { name: 'Edit “Review”' }).click();
    const editor = page.getByRole('form', { name: 'Edit “Review”' });
    await editor.getByLabel('Description').fill('Code review');
    await editor.getByRole('button', { name: 'Save entry' }).click();
    await entryRow(page, 'Code review').waitFor();
    expect((await as(h, w.ws, w.lee).get(`/api/activities/${w.review.id}`)).body).toMatchObject({ name: 'Code review' });
    // The API refuses a project admin another member's entry (docs/rules.md §5) as the page does.
    expect((await as(h, w.ws, w.lee).put(`/api/activities/${w.build.id}`, { name: 'Mine now' })).status).toBe(403);
    await expectAccessible(page);
  });

  it('every download is named after the report and its period: "Report" for an unnamed one, the saved report\'s name once saved', async () => {
    const w = await july(h);
    const page = await openReports(open, w.ws, w.ws.admin);
    await runJuly(page);
    expect(await suggestedName(page, 'Export CSV')).toBe('Report 2026-07-01–2026-07-31.csv');
    expect(await suggestedName(page, 'Export entries XLSX')).toBe('Report 2026-07-01–2026-07-31 entries.xlsx');

    await page.getByLabel('Report name').fill('Agency July');
    await page.getByRole('button', { name: 'Save report' }).click();
    await page.getByRole('button', { name: 'Run Agency July' }).click();
    await page.getByTestId('report-totals').waitFor();
    expect(await suggestedName(page, 'Export PDF')).toBe('Agency July 2026-07-01–2026-07-31.pdf');
    expect(await suggestedName(page, 'Export entries CSV')).toBe('Agency July 2026-07-01–2026-07-31 entries.csv');
    await expectAccessible(page);
  });
});
