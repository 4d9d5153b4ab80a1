import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { as, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

/** Settings → Import (web/src/pages/settings/Import.tsx) over POST/GET /api/imports (docs/rules.md §6 Imports). */

const HEADER = 'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags';
const csv = (...lines: string[]): string => `${lines.join('\r\n')}\r\n`;

/** A Toggl Track detailed export: two good rows around one that ends before it starts (row 2). */
const TOGGL = csv(
  `\uFEFF${HEADER}`,
  'Ann Lee,ann@example.com,Acme,Website,Design,Mockups,Yes,2026-03-02,09:00:00,2026-03-02,10:30:00,01:30:00,design',
  'Ann Lee,ann@example.com,Acme,Website,,Backwards,No,2026-03-02,11:00:00,2026-03-02,10:00:00,,',
  'Bo Chen,bo@example.com,,Internal,,Standup,No,2026-03-03,08:00:00,2026-03-03,08:15:00,00:15:00,',
);
const ROW_2_ERROR = { row: 2, column: 'End time', code: 'end-before-start', message: 'The entry ends before it starts.' };
const CREATED = { activities: 2, clients: 1, projects: 2, tasks: 1, tags: 1, users: 2, members: 2, revenueRates: 0, costRates: 0 };

const section = (page: Page) => page.getByRole('region', { name: 'Import from another tool' });

/** The counts the result shows, by the Import record's `created` keys. */
async function shownCounts(page: Page): Promise<Record<string, number>> {
  const shown: Record<string, number> = {};
  for (const key of Object.keys(CREATED)) shown[key] = Number(await page.getByTestId(`import-created-${key}`).textContent());
  return shown;
}

/** The rows of the result's errors table, as their cells' text. */
async function errorRows(page: Page): Promise<string[][]> {
  const rows = section(page).getByRole('table', { name: 'Errors' }).locator('tbody tr');
  const found: string[][] = [];
  for (const row of await rows.all()) found.push(await row.locator('td').allTextContents());
  return found;
}

/** An import made through the API, once it has ended. */
async function importedByApi(h: Harness, ws: TestWorkspace, file: string, query: Record<string, string>) {
  const started = await ok(as(h, ws).post('/api/imports', undefined, { query: { source: 'toggl', ...query }, payload: file, headers: { 'content-type': 'text/csv' } }), 202);
  await expect.poll(async () => (await ok(as(h, ws).get(`/api/imports/${started.id}`))).status, { timeout: 20_000 }).toMatch(/^(succeeded|failed)$/);
  return ok(as(h, ws).get(`/api/imports/${started.id}`));
}

describeInBrowser('Web app: Settings → Import', ({ h, open }) => {
  it('an administrator checks a Toggl export (a dry run: the counts, the bad row by row and column, its CSV), then imports the valid rows', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const page = await open(ws, ws.admin, '/settings');
    const form = page.getByRole('form', { name: 'Import' });
    expect(await form.getByLabel('Toggl Track').isChecked()).toBe(true);
    expect(await form.getByText('In Toggl Track, open Reports → Detailed and choose the period.').count()).toBe(1);
    await form.getByLabel("Time zone of the file's times").selectOption('Europe/Berlin');
    await form.getByLabel(/^Only the valid rows/).check();
    await form.getByLabel('The export file (CSV)').setInputFiles({ name: 'toggl.csv', mimeType: 'text/csv', buffer: Buffer.from(TOGGL) });
    await form.getByTestId('import-file-name').getByText('toggl.csv').waitFor();
    await form.getByRole('button', { name: 'Check the file' }).click();

    await section(page).getByRole('heading', { name: 'The check: what the import would create' }).waitFor();
    expect(await page.getByTestId('import-summary').textContent()).toBe('Checked 3 rows: 2 entries to import, 0 rows imported before, 1 error.');
    expect(await shownCounts(page)).toEqual(CREATED);
    expect(await errorRows(page)).toEqual([['2', 'End time', ROW_2_ERROR.message]]);
    // A dry run writes nothing.
    expect(await ok(api.get('/api/activities'))).toEqual({});
    expect(await ok(api.get('/api/projects'))).toEqual({});
    await expectAccessible(page);

    const [download] = await Promise.all([page.waitForEvent('download'), section(page).getByRole('button', { name: 'Download the errors (CSV)' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^toggl-import-errors-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(await readFile(await download.path(), 'utf8')).toBe('\uFEFFrow,column,code,message\r\n2,End time,end-before-start,The entry ends before it starts.\r\n');

    await section(page).getByRole('button', { name: 'Import', exact: true }).click();
    await section(page).getByRole('heading', { name: 'Imported', exact: true }).waitFor();
    expect(await page.getByTestId('import-summary').textContent()).toBe('Read 3 rows: 2 entries imported, 0 rows imported before, 1 error.');
    expect(await shownCounts(page)).toEqual(CREATED);
    expect(await errorRows(page)).toEqual([['2', 'End time', ROW_2_ERROR.message]]);

    // The imported entries, as the API answers them: read in Europe/Berlin, the bad row left out.
    const activities = (Object.values(await ok(api.get('/api/activities'))) as Array<{ name: string; startedAt: string; endedAt: string }>).sort((a, b) =>
      a.startedAt.localeCompare(b.startedAt),
    );
    expect(activities.map(({ name, startedAt, endedAt }) => ({ name, startedAt, endedAt }))).toEqual([
      { name: 'Mockups', startedAt: '2026-03-02T08:00:00.000Z', endedAt: '2026-03-02T09:30:00.000Z' },
      { name: 'Standup', startedAt: '2026-03-03T07:00:00.000Z', endedAt: '2026-03-03T07:15:00.000Z' },
    ]);
    const imports = Object.values(await ok(api.get('/api/imports'))) as Array<{ dryRun: boolean; mode: string; status: string; errors: unknown[] }>;
    expect(imports.map(({ dryRun, mode, status }) => ({ dryRun, mode, status }))).toEqual([
      { dryRun: false, mode: 'valid', status: 'succeeded' },
      { dryRun: true, mode: 'valid', status: 'succeeded' },
    ]);
    expect(imports[0].errors).toEqual([ROW_2_ERROR]);

    await expectAccessible(page);
    await section(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-import', h);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);

    // The link opens Reports on the imported period (the first entry's start to the last one's end), run at once.
    await section(page).getByRole('link', { name: 'See the imported time in Reports' }).click();
    await page.waitForURL((url) => url.pathname === '/reports');
    const address = new URL(page.url()).searchParams;
    expect([address.get('start'), address.get('end')].map((at) => Date.parse(at ?? ''))).toEqual([Date.parse('2026-03-02T08:00:00Z'), Date.parse('2026-03-03T07:15:00Z')]);
    await page.getByTestId('report-totals').waitFor();
  });

  it('an import running when the page is opened (or reloaded) is shown with its progress and followed to its end', async () => {
    const ws = await h.workspace();
    const done = await importedByApi(h, ws, TOGGL, { mode: 'valid', timeZone: 'UTC' });
    expect(done.status).toBe('succeeded');
    const page = await open(ws, ws.admin, '/settings');
    await section(page).getByRole('button', { name: 'Check the file' }).waitFor();
    expect(await section(page).getByRole('progressbar').count()).toBe(0);

    // The page is reloaded while the import runs: the list answers it running, half read, and its own
    // address answers (for real: it has ended) once the test has looked at the progress.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/imports', (route) =>
      route.fulfill({ json: { [done.id]: { ...done, status: 'running', rows: 4, rowsDone: 2, created: CREATED, finishedAt: null } } }),
    );
    await page.route(`**/api/imports/${done.id}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    const progress = section(page).getByRole('progressbar', { name: 'Importing…' });
    await progress.waitFor();
    expect(await progress.getAttribute('value')).toBe('2');
    expect(await progress.getAttribute('max')).toBe('4');
    expect(await page.getByTestId('import-rows-done').textContent()).toBe('2 of 4 rows');
    // The choices it runs with are shown, and none can be changed meanwhile.
    expect(await section(page).getByLabel(/^Only the valid rows/).isChecked()).toBe(true);
    expect(await section(page).getByRole('button', { name: 'Check the file' }).isDisabled()).toBe(true);
    await expectAccessible(page);

    release();
    await section(page).getByRole('heading', { name: 'Imported', exact: true }).waitFor();
    expect(await section(page).getByRole('progressbar').count()).toBe(0);
    expect(await shownCounts(page)).toEqual(CREATED);
  });

  it('a dropped file checked with "all rows": nothing would be imported, no Import is offered; changing a choice clears the check', async () => {
    const ws = await h.workspace();
    const page = await open(ws, ws.admin, '/settings');
    // The file as a drag from the desktop brings it (the tests' TypeScript has no DOM types: the page builds it from text).
    const dataTransfer = await page.evaluateHandle(
      `(() => { const transfer = new DataTransfer(); transfer.items.add(new File([${JSON.stringify(TOGGL)}], 'export.csv', { type: 'text/csv' })); return transfer; })()`,
    );
    await page.getByTestId('import-drop').dispatchEvent('drop', { dataTransfer });
    await page.getByTestId('import-file-name').getByText('export.csv').waitFor();
    await section(page).getByRole('button', { name: 'Check the file' }).click();

    await section(page).getByRole('heading', { name: 'The check: nothing would be imported' }).waitFor();
    expect(await page.getByTestId('import-summary').textContent()).toBe('1 error in 3 rows.');
    expect(await errorRows(page)).toEqual([['2', 'End time', ROW_2_ERROR.message]]);
    expect(await section(page).getByRole('button', { name: 'Import', exact: true }).count()).toBe(0);
    await section(page).getByText('choose “Only the valid rows” to leave them out').waitFor();
    await expectAccessible(page);

    await section(page).getByLabel(/^Only the valid rows/).check();
    await expect.poll(() => section(page).getByRole('heading', { name: /^The check/ }).count()).toBe(0);
    expect(await ok(as(h, ws).get('/api/activities'))).toEqual({});
  });

  it('a User is not offered the import: no Settings link, the settings page refused, the API 403', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const page = await open(ws, user, '/settings');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Import from another tool' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Check the file' }).count()).toBe(0);
    expect((await as(h, ws, user).get('/api/imports')).status).toBe(403);
    await expectAccessible(page);
  });
});
