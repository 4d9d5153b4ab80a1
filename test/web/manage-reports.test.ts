import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

/**
 * July 2026 in a workspace: Ada (revenue 50 EUR/h on Apollo, cost 10 EUR/h) and Ben (no rates) on
 * Apollo, Ada also on Borealis. 2:00 + 1:30 billable on Apollo, 2:00 on Borealis: 5:30 in all, of
 * which Ben's 1:30 is unpriced and uncosted.
 */
async function july(h: Harness) {
  const ws = await h.workspace();
  const ada = await make.user(h, ws, { name: 'Ada Lovelace' });
  const ben = await make.user(h, ws, { name: 'Ben Turing' });
  const apollo = await make.project(h, ws, { name: 'Apollo', billable: true });
  const borealis = await make.project(h, ws, { name: 'Borealis' });
  const adaOnApollo = await make.member(h, ws, { project: apollo, user: ada });
  await make.member(h, ws, { project: apollo, user: ben });
  await make.member(h, ws, { project: borealis, user: ada });
  await make.revenueRate(h, ws, { project: apollo, member: adaOnApollo, value: 50 });
  await make.costRate(h, ws, { user: ada });
  await make.activity(h, ws, { owner: ada, project: apollo, name: 'Design', billable: true, startedAt: '2026-07-01T09:00:00Z', endedAt: '2026-07-01T11:00:00Z' });
  await make.activity(h, ws, { owner: ben, project: apollo, name: 'Build', billable: true, startedAt: '2026-07-02T09:00:00Z', endedAt: '2026-07-02T10:30:00Z' });
  await make.activity(h, ws, { owner: ada, project: borealis, name: 'Research', billable: false, startedAt: '2026-07-03T13:00:00Z', endedAt: '2026-07-03T15:00:00Z' });
  return { ws, ada, ben, apollo, borealis };
}

/** The form set to July 2026 by project, then person, with every metric an administrator may read. */
async function defineJuly(page: Page) {
  const form = page.getByRole('form', { name: 'Report' });
  await form.getByLabel('Period').selectOption('custom');
  await form.getByLabel('First day').fill('2026-07-01');
  await form.getByLabel('Last day').fill('2026-07-31');
  await form.getByRole('button', { name: 'Add person' }).click();
  for (const metric of ['Revenue', 'Cost', 'Profit']) await form.getByLabel(metric, { exact: true }).check();
  return form;
}

/** Runs the form's report and answers the body and query the page sent to POST /api/reports/run. */
async function runAndCapture(page: Page) {
  const sent = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/reports/run');
  await page.getByRole('button', { name: 'Run report' }).click();
  const request = await sent;
  await page.getByTestId('report-totals').waitFor();
  return { body: request.postDataJSON(), query: Object.fromEntries(new URL(request.url()).searchParams) as Record<string, string> };
}

const cellsOf = async (page: Page) => (await page.getByTestId('report-totals').locator('th, td').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());

/** A duration in seconds as the page shows it by default (hours:minutes, the clock's seconds optional). */
const clock = (seconds: number) => new RegExp(`^${Math.floor(seconds / 3600)}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}(:00)?$`);

/** A CSV as rows of fields (RFC 4180 quoting), without the byte-order mark. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

/** Clicks an export button and answers the downloaded file's name and bytes. */
async function download(page: Page, label: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label }).click()]);
  return { name: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
}

async function openAs(open: (ws: TestWorkspace, user: TestUser, at: string) => Promise<Page>, ws: TestWorkspace, user: TestUser) {
  const page = await open(ws, user, '/reports');
  await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
  return page;
}

describeInBrowser('Web app: the reports page', ({ h, open }) => {
  it('an administrator runs July by project and person: the table totals are what POST /api/reports/run answers, the chart is drawn, and the report is saved, pinned and run again', async () => {
    const { ws } = await july(h);
    const api = as(h, ws);
    const page = await openAs(open, ws, ws.admin);
    await defineJuly(page);
    // Reordering: Person dragged above Project, then Project moved back up with its button (the keyboard's way).
    await page.locator('[data-dimension="user"]').dragTo(page.locator('[data-dimension="project"]'));
    expect(await page.getByRole('list', { name: 'Grouping order' }).getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringContaining('Person'),
      expect.stringContaining('Project'),
    ]);
    await page.getByRole('button', { name: 'Move Project up' }).click();
    const { body, query } = await runAndCapture(page);
    expect(body).toMatchObject({ period: 'custom', dimensions: ['project', 'user'], metrics: ['time', 'billableTime', 'revenue', 'cost', 'profit'] });
    const expected = await api.post('/api/reports/run', body, { query });
    expect(expected.status).toBe(200);
    expect(expected.body.totals).toMatchObject({ entries: 3, time: 19_800, billableTime: 12_600, revenue: { EUR: 100 }, cost: { EUR: 40 }, unpricedBillableTime: 5_400, uncostedTime: 5_400 });

    const [total, entries, time, billable, revenue, cost, profit] = await cellsOf(page);
    expect(total).toBe('Total');
    expect(entries).toBe(String(expected.body.totals.entries));
    expect(time).toMatch(clock(expected.body.totals.time));
    expect(billable).toMatch(clock(expected.body.totals.billableTime));
    expect(revenue).toMatch(/^€100\.00 ⚠ 1:30(:00)? unpriced$/);
    expect(cost).toMatch(/^€40\.00 1:30(:00)? without a cost rate$/);
    expect(profit).toMatch(/^€60\.00 ⚠ 1:30(:00)? unpriced 1:30(:00)? without a cost rate$/);
    // The tree: each project's row with its people beneath it.
    const table = page.locator('table.report-table tbody');
    expect((await table.locator('tr').allInnerTexts()).map((text) => text.split('\t')[0].trim() || text.split('\t')[1].trim())).toEqual([
      'Apollo',
      'Ada Lovelace',
      'Ben Turing',
      'Borealis',
      'Ada Lovelace',
    ]);

    const chart = page.getByRole('img', { name: 'Bar chart: Time by project, in hours. The table below holds the same figures.' });
    await chart.locator('canvas').first().waitFor();
    await expectAccessible(page);

    await page.getByLabel('Report name').fill('July by project');
    await page.getByRole('button', { name: 'Save report' }).click();
    await page.getByText('Saved "July by project".').waitFor();
    const [report] = Object.values((await api.get('/api/reports')).body as Record<string, any>);
    expect(report).toMatchObject({ name: 'July by project', dimensions: ['project', 'user'], start: body.start, end: body.end, pinned: false });

    await page.getByRole('button', { name: 'Pin July by project' }).click();
    await page.getByRole('button', { name: 'Unpin July by project' }).waitFor();
    expect((await api.get(`/api/reports/${report.id}`)).body.pinned).toBe(true);

    await page.reload();
    const ran = page.waitForResponse((response) => new URL(response.url()).pathname === `/api/reports/${report.id}/run`);
    await page.getByRole('button', { name: 'Run July by project' }).click();
    expect((await ran).status()).toBe(200);
    await page.getByTestId('report-totals').waitFor();
    expect((await cellsOf(page)).slice(0, 3)).toEqual(['Total', '3', expect.stringMatching(clock(19_800))]);
    expect(await page.getByLabel('First day').inputValue()).toBe('2026-07-01');
    await screenshot(page, 'manage-reports', h, 'manage-reports.png');
  });

  it('the period shown is the days of the report in its zone: a week run in Berlin reads 23 – 29 Nov, not a day early', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    expect((await api.put(`/api/users/${ws.admin.userId}/preferences`, { locale: 'en-GB', timeZone: 'Europe/Berlin' })).status).toBe(200);
    const page = await openAs(open, ws, ws.admin);
    const form = page.getByRole('form', { name: 'Report' });
    await form.getByLabel('Period').selectOption('custom');
    await form.getByLabel('First day').fill('2026-11-23');
    await form.getByLabel('Last day').fill('2026-11-29');
    const { body, query } = await runAndCapture(page);
    expect(query.timeZone).toBe('Europe/Berlin');
    expect(body).toMatchObject({ start: '2026-11-22T23:00:00.000Z', end: '2026-11-29T23:00:00.000Z' });
    const period = page.getByRole('region', { name: 'Result' }).locator('p.muted').first();
    expect((await period.innerText()).replace(/\s+/g, ' ').trim()).toMatch(/^23 ?– ?29 Nov 2026 · Europe\/Berlin$/);
  });

  it('each export downloads the file the API answers: the CSV parsed, the XLSX read back, the PDF as text, all with the same totals', async () => {
    const { ws } = await july(h);
    const page = await openAs(open, ws, ws.admin);
    await defineJuly(page);
    const { body, query } = await runAndCapture(page);

    const csv = await download(page, 'Export CSV');
    expect(csv.name).toBe('Report 2026-07-01–2026-07-31.csv');
    const fromApi = await h.call('POST', '/api/reports/run', { host: ws.host, token: ws.admin.token, body, query: { ...query, format: 'csv' } });
    expect(csv.bytes.toString('utf8')).toBe(fromApi.text);
    const rows = parseCsv(csv.bytes.toString('utf8'));
    expect(rows[0].slice(0, 2)).toEqual(['Project', 'User']);
    // One row per leaf (Apollo: Ada, Ben; Borealis: Ada), then the totals.
    expect(rows.slice(1, -1).map((row) => row.slice(0, 2))).toEqual([
      ['Apollo', 'Ada Lovelace'],
      ['Apollo', 'Ben Turing'],
      ['Borealis', 'Ada Lovelace'],
    ]);
    const totals = rows[rows.length - 1];
    expect(totals[0]).toBe('Total');
    expect(totals).toContain('5:30');
    expect(totals).toContain('100.00');

    const xlsx = await download(page, 'Export XLSX');
    expect(xlsx.name).toBe('Report 2026-07-01–2026-07-31.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe('Project');
    const last = sheet.getRow(sheet.rowCount);
    expect(last.getCell(1).value).toBe('Total');
    expect((last.values as unknown[]).filter((value) => value === 100)).toHaveLength(1);

    const pdf = await download(page, 'Export PDF');
    expect(pdf.name).toBe('Report 2026-07-01–2026-07-31.pdf');
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf.bytes }).toString('utf8');
    expect(text).toContain('Time by project');
    expect(text).toMatch(/Total\s+5:30/);
    expect(text).toContain('Page 1 of 1');
  });

  it('cost and profit are not offered to a project admin or a User, revenue only to the project admin; the API refuses them cost with 403', async () => {
    const { ws, ada, ben, apollo } = await july(h);
    const lead = await make.user(h, ws, { name: 'Lee Lead' });
    await make.member(h, ws, { project: apollo, user: lead, role: 'Administrator' });

    const page = await openAs(open, ws, lead);
    const form = page.getByRole('form', { name: 'Report' });
    await form.getByLabel('Revenue', { exact: true }).waitFor();
    expect(await form.getByLabel('Cost', { exact: true }).count()).toBe(0);
    expect(await form.getByLabel('Profit', { exact: true }).count()).toBe(0);
    await expectAccessible(page);

    const userPage = await openAs(open, ws, ben);
    const userForm = userPage.getByRole('form', { name: 'Report' });
    await userForm.getByLabel('Billable time', { exact: true }).waitFor();
    for (const metric of ['Revenue', 'Cost', 'Profit']) expect(await userForm.getByLabel(metric, { exact: true }).count()).toBe(0);

    const costly = { period: 'custom', start: '2026-07-01T00:00:00Z', end: '2026-08-01T00:00:00Z', dimensions: ['project'], metrics: ['time', 'cost'] };
    for (const user of [lead, ada]) expect((await as(h, ws, user).post('/api/reports/run', costly)).status).toBe(403);
  });

  it('the detailed entries come a page at a time: the next page shows the entries that follow, the previous one those before', async () => {
    const ws = await h.workspace();
    for (let i = 1; i <= 12; i++) {
      const day = String(i).padStart(2, '0');
      await make.activity(h, ws, { name: `Task ${day}`, startedAt: `2026-07-${day}T09:00:00Z`, endedAt: `2026-07-${day}T10:00:00Z` });
    }
    const page = await openAs(open, ws, ws.admin);
    const form = page.getByRole('form', { name: 'Report' });
    await form.getByLabel('First day').fill('2026-07-01');
    await form.getByLabel('Last day').fill('2026-07-31');
    await runAndCapture(page);
    const names = (n: number) => page.getByRole('table', { name: `Entries, page ${n}` }).locator('tbody th').allInnerTexts();
    await page.getByRole('table', { name: 'Entries, page 1' }).waitFor();
    expect(await names(1)).toEqual(Array.from({ length: 10 }, (_, i) => `Task ${String(i + 1).padStart(2, '0')}`));
    expect(await page.getByRole('button', { name: 'Previous entries' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Next entries' }).click();
    await page.getByRole('table', { name: 'Entries, page 2' }).waitFor();
    await expect.poll(() => names(2)).toEqual(['Task 11', 'Task 12']);
    await expect.poll(() => page.getByRole('button', { name: 'Next entries' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Previous entries' }).click();
    await page.getByRole('table', { name: 'Entries, page 1' }).waitFor();
    await expect.poll(async () => (await names(1))[0]).toBe('Task 01');
    await expectAccessible(page);
  });
});
