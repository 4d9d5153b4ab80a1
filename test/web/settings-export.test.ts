import { readFile } from 'node:fs/promises';
import type { Page, Request } from 'playwright-core';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, ok } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

/*
 * Settings → Export (web/src/pages/settings/Export.tsx) over GET /api/export, the archive taken back by
 * Settings → Import's timetrack source (POST /api/imports?source=timetrack), and the Reports page
 * opened on a period from its address (web/src/pages/reports/address.ts): the import's result links
 * to exactly the imported period.
 */

const importSection = (page: Page) => page.getByRole('region', { name: 'Import from another tool' });

/** The report table's rows as [label, entries, time], and its totals' cells. */
async function reportRows(page: Page): Promise<string[][]> {
  const rows = await page.locator('table.report-table tbody tr').allInnerTexts();
  return rows.map((text) => text.split('\t').map((cell) => cell.trim()).slice(0, 3));
}
const totalCells = async (page: Page) => (await page.getByTestId('report-totals').locator('th, td').allInnerTexts()).map((text) => text.trim());

/** A duration as the page shows it by default: hours:minutes, seconds optional. */
const clock = (text: string) => new RegExp(`^${text}(:00)?$`);

describeInBrowser('Web app: Settings → Export, taken back by another workspace, and its time in Reports', ({ h, open }) => {
  it('workspace A downloads everything; empty workspace B checks and imports the ZIP; the result links to Reports over exactly the imported period', async () => {
    const a = await h.workspace();
    const apollo = await make.project(h, a, { name: 'Apollo' });
    const borealis = await make.project(h, a, { name: 'Borealis' });
    await make.activity(h, a, { project: apollo, name: 'Design', startedAt: '2026-03-02T09:00:00Z', endedAt: '2026-03-02T10:30:00Z' });
    await make.activity(h, a, { project: borealis, name: 'Research', startedAt: '2026-03-04T13:00:00Z', endedAt: '2026-03-04T15:00:00Z' });

    // Workspace A: Settings → Export → Download everything.
    const pageA = await open(a, a.admin, '/settings');
    const exportCard = pageA.getByRole('region', { name: 'Export' });
    await exportCard.getByText(/^One ZIP archive of every record of this workspace/).waitFor();
    const [download] = await Promise.all([pageA.waitForEvent('download'), exportCard.getByRole('button', { name: 'Download everything' }).click()]);
    const fileName = download.suggestedFilename();
    expect(fileName).toMatch(new RegExp(`^timetrack-${a.domain}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
    const zip = await readFile(await download.path());
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    await exportCard.getByText(`Downloaded ${fileName}.`).waitFor();
    await expectAccessible(pageA);
    await exportCard.scrollIntoViewIfNeeded();
    await screenshot(pageA, 'settings-export', h);

    // Workspace B, empty: the timetrack source, whose file is a ZIP and which has no CSV choices.
    const b = await h.workspace();
    const apiB = as(h, b);
    expect(await ok(apiB.get('/api/projects'))).toEqual({});
    const page = await open(b, b.admin, '/settings');
    const form = page.getByRole('form', { name: 'Import' });
    await form.getByLabel("Time zone of the file's times").waitFor();
    await form.getByLabel('timetrack (another timetrack workspace)').check();
    const how = await form.locator('#import-source-timetrack-how').innerText();
    expect(how.split('\n').map((line) => line.trim())).toEqual(['Settings → Export → Download everything in the other workspace,', 'then drop the ZIP here.']);
    expect(await form.getByLabel("Time zone of the file's times").count()).toBe(0);
    expect(await form.getByLabel('Dates such as 03/04/2024').count()).toBe(0);
    expect(await form.getByRole('group', { name: 'Rows with errors' }).count()).toBe(0);
    expect(await form.getByLabel(/^Email the people the import adds/).count()).toBe(0);
    expect(await form.getByLabel('The export file (CSV)').count()).toBe(0);
    expect(await form.getByLabel('The export file (ZIP)').getAttribute('accept')).toBe('.zip,application/zip');
    await expectAccessible(page);

    await form.getByLabel('The export file (ZIP)').setInputFiles({ name: fileName, mimeType: 'application/zip', buffer: zip });
    await form.getByTestId('import-file-name').getByText(fileName).waitFor();
    const checkSent = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/imports');
    await form.getByRole('button', { name: 'Check the file' }).click();
    const check = await checkSent;
    expect(check.headers()['content-type']).toBe('application/zip');
    expect(Object.fromEntries(new URL(check.url()).searchParams)).toEqual({ source: 'timetrack', dryRun: 'true' });
    await importSection(page).getByRole('heading', { name: 'The check: what the import would create' }).waitFor();
    expect(await page.getByTestId('import-created-projects').textContent()).toBe('2');
    expect(await page.getByTestId('import-created-activities').textContent()).toBe('2');
    expect(await page.getByTestId('import-period').textContent()).toBe('The entries to import run from 2 Mar 2026, 09:00 to 4 Mar 2026, 15:00.');
    // A dry run writes nothing.
    expect(await ok(apiB.get('/api/projects'))).toEqual({});
    expect(await ok(apiB.get('/api/activities'))).toEqual({});
    await expectAccessible(page);

    const importSent = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/imports');
    await importSection(page).getByRole('button', { name: 'Import', exact: true }).click();
    const imported = await importSent;
    expect(imported.headers()['content-type']).toBe('application/zip');
    expect(Object.fromEntries(new URL(imported.url()).searchParams)).toEqual({ source: 'timetrack' });
    await importSection(page).getByRole('heading', { name: 'Imported', exact: true }).waitFor();
    expect(await page.getByTestId('import-period').textContent()).toBe('The imported entries run from 2 Mar 2026, 09:00 to 4 Mar 2026, 15:00.');

    // B now has A's projects and time, as its API answers them.
    const projects = Object.values(await ok(apiB.get('/api/projects'))) as Array<{ id: string; name: string }>;
    expect(projects.map((project) => project.name).sort()).toEqual(['Apollo', 'Borealis']);
    const activities = (Object.values(await ok(apiB.get('/api/activities'))) as Array<{ name: string; projectId: string; startedAt: string; endedAt: string }>).sort((x, y) =>
      x.startedAt.localeCompare(y.startedAt),
    );
    const projectName = (id: string) => projects.find((project) => project.id === id)?.name;
    expect(activities.map(({ name, projectId, startedAt, endedAt }) => ({ name, project: projectName(projectId), startedAt, endedAt }))).toEqual([
      { name: 'Design', project: 'Apollo', startedAt: '2026-03-02T09:00:00.000Z', endedAt: '2026-03-02T10:30:00.000Z' },
      { name: 'Research', project: 'Borealis', startedAt: '2026-03-04T13:00:00.000Z', endedAt: '2026-03-04T15:00:00.000Z' },
    ]);
    const [record] = Object.values(await ok(apiB.get('/api/imports'))) as Array<{ source: string; dryRun: boolean; status: string; period: { start: string; end: string } }>;
    expect(record).toMatchObject({ source: 'timetrack', dryRun: false, status: 'succeeded' });
    expect(Date.parse(record.period.start)).toBe(Date.parse('2026-03-02T09:00:00Z'));
    expect(Date.parse(record.period.end)).toBe(Date.parse('2026-03-04T15:00:00Z'));

    // The link opens Reports on exactly that period and runs it.
    const ran = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/reports/run');
    await importSection(page).getByRole('link', { name: 'See the imported time in Reports' }).click();
    await page.waitForURL((url) => url.pathname === '/reports');
    const address = new URL(page.url()).searchParams;
    expect({ start: address.get('start'), end: address.get('end') }).toEqual(record.period);
    const body = (await ran).postDataJSON();
    expect(body).toMatchObject({ period: 'custom', start: '2026-03-02T09:00:00.000Z', end: '2026-03-04T15:00:00.000Z', dimensions: ['project'] });
    await page.getByTestId('report-totals').waitFor();
    expect(await reportRows(page)).toEqual([
      ['Apollo', '1', expect.stringMatching(clock('1:30'))],
      ['Borealis', '1', expect.stringMatching(clock('2:00'))],
    ]);
    expect((await totalCells(page)).slice(0, 3)).toEqual(['Total', '2', expect.stringMatching(clock('3:30'))]);
    const reportForm = page.getByRole('form', { name: 'Report', exact: true });
    expect(await reportForm.getByLabel('Period').inputValue()).toBe('custom');
    expect(await reportForm.getByLabel('First day').inputValue()).toBe('2026-03-02');
    expect(await reportForm.getByLabel('Last day').inputValue()).toBe('2026-03-04');
    await expectAccessible(page);
  });

  it('Reports runs the exact period of its address (a typed offset too); a day changed runs whole days; a bad or missing period opens the page as before', async () => {
    const ws = await h.workspace();
    const apollo = await make.project(h, ws, { name: 'Apollo' });
    await make.activity(h, ws, { project: apollo, name: 'Early', startedAt: '2026-03-02T07:00:00Z', endedAt: '2026-03-02T08:00:00Z' });
    await make.activity(h, ws, { project: apollo, name: 'Design', startedAt: '2026-03-02T09:00:00Z', endedAt: '2026-03-02T10:30:00Z' });
    await make.activity(h, ws, { project: apollo, name: 'Late', startedAt: '2026-03-03T16:00:00Z', endedAt: '2026-03-03T17:00:00Z' });

    // A `+` typed into the address arrives as a space: it is still the offset.
    const page = await open(ws, ws.admin, '/reports?start=2026-03-02T10:00:00+01:00&end=2026-03-03T12:00:00Z');
    await page.getByTestId('report-totals').waitFor();
    expect(await reportRows(page)).toEqual([['Apollo', '1', expect.stringMatching(clock('1:30'))]]);
    const form = page.getByRole('form', { name: 'Report', exact: true });
    expect(await form.getByLabel('First day').inputValue()).toBe('2026-03-02');
    expect(await form.getByLabel('Last day').inputValue()).toBe('2026-03-03');
    expect(await page.getByTestId('report-exact-period').innerText()).toMatch(/^Exactly 2 Mar 2026, 09:00 to 3 Mar 2026, 12:00/);
    await expectAccessible(page);

    // A day changed (even to the same day): whole days again, midnight to midnight.
    await form.getByLabel('Last day').fill('2026-03-03');
    expect(await page.getByTestId('report-exact-period').count()).toBe(0);
    const sent = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/reports/run');
    await form.getByRole('button', { name: 'Run report' }).click();
    expect((await sent).postDataJSON()).toMatchObject({ period: 'custom', start: '2026-03-02T00:00:00.000Z', end: '2026-03-04T00:00:00.000Z' });
    await expect.poll(() => totalCells(page).then((cells) => cells.slice(0, 3))).toEqual(['Total', '3', expect.stringMatching(clock('3:30'))]);

    // No period, or one the page cannot read (not an instant, end not after start): this month so far, nothing run.
    for (const search of ['', '?start=yesterday&end=2026-03-03T12:00:00Z', '?start=2026-03-03T12:00:00Z&end=2026-03-02T12:00:00Z']) {
      const runs: string[] = [];
      const listen = (request: Request) => {
        if (new URL(request.url()).pathname === '/api/reports/run') runs.push(request.url());
      };
      page.on('request', listen);
      await page.goto(new URL(`/reports${search}`, page.url()).toString());
      await page.getByRole('heading', { name: 'Saved reports' }).waitFor();
      expect(await form.getByLabel('Period').inputValue()).toBe('custom');
      const today = new Date().toISOString().slice(0, 10);
      expect(await form.getByLabel('First day').inputValue()).toBe(`${today.slice(0, 8)}01`);
      expect(await form.getByLabel('Last day').inputValue()).toBe(today);
      expect(await page.getByTestId('report-exact-period').count()).toBe(0);
      expect(await page.getByRole('region', { name: 'Result' }).count()).toBe(0);
      expect(runs).toEqual([]);
      page.off('request', listen);
    }
  });

  it('a User is offered no export, and GET /api/export answers them 403', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const page = await open(ws, user, '/settings');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('button', { name: 'Download everything' }).count()).toBe(0);
    expect((await as(h, ws, user).get('/api/export')).status).toBe(403);
  });
});
