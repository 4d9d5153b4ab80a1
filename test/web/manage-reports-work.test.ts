import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, type Harness } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

/**
 * July 2026 by what the work was for: Apollo (client Acme, red) with tasks Design and Build,
 * Borealis (client Globex, green) without tasks, Cosmos (no client, blue). Entries: Wireframes
 * (Design) 2:00 tagged urgent and review, Backend (Build) 1:00 tagged urgent, Research on Borealis
 * 1:30 untagged, Docs on Cosmos 0:30 tagged review.
 */
async function work(h: Harness) {
  const ws = await h.workspace();
  const api = as(h, ws);
  const acme = await make.client(h, ws, { name: 'Acme' });
  const globex = await make.client(h, ws, { name: 'Globex' });
  const apollo = await make.project(h, ws, { name: 'Apollo', clientId: acme.id, color: '#ef4444' });
  const borealis = await make.project(h, ws, { name: 'Borealis', clientId: globex.id, color: '#22c55e' });
  const cosmos = await make.project(h, ws, { name: 'Cosmos', color: '#3b82f6' });
  const design = await make.task(h, ws, { project: apollo, name: 'Design' });
  const build = await make.task(h, ws, { project: apollo, name: 'Build' });
  const urgent = (await api.post('/api/tags', { name: 'urgent' })).body;
  const review = (await api.post('/api/tags', { name: 'review' })).body;
  const at = (day: string, from: string, to: string) => ({ startedAt: `2026-07-${day}T${from}:00Z`, endedAt: `2026-07-${day}T${to}:00Z` });
  await make.activity(h, ws, { name: 'Wireframes', project: apollo, taskId: design.id, tagIds: [urgent.id, review.id], ...at('01', '09:00', '11:00') });
  await make.activity(h, ws, { name: 'Backend', project: apollo, taskId: build.id, tagIds: [urgent.id], ...at('02', '09:00', '10:00') });
  await make.activity(h, ws, { name: 'Research', project: borealis, ...at('03', '09:00', '10:30') });
  await make.activity(h, ws, { name: 'Docs', project: cosmos, tagIds: [review.id], ...at('04', '09:00', '09:30') });
  return { ws, api, acme, globex, apollo, borealis, cosmos, design, build, urgent, review };
}

/** The form set to July 2026, grouped by the given dimensions only (added in order, then Project removed). */
async function defineJuly(page: Page, dimensions: string[]) {
  const form = page.getByRole('form', { name: 'Report' });
  await form.getByLabel('First day').fill('2026-07-01');
  await form.getByLabel('Last day').fill('2026-07-31');
  for (const dimension of dimensions) if (dimension !== 'Project') await form.getByRole('button', { name: `Add ${dimension.toLowerCase()}` }).click();
  if (!dimensions.includes('Project')) await form.getByRole('button', { name: 'Remove Project' }).click();
  return form;
}

/** Runs the form's report: the body and query the page sent, once the table is drawn. */
async function runAndCapture(page: Page) {
  const sent = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/reports/run');
  await page.getByRole('button', { name: 'Run report' }).click();
  const request = await sent;
  const answered = await request.response();
  expect(answered?.status()).toBe(200);
  await page.getByTestId('report-totals').waitFor();
  return { body: request.postDataJSON(), query: Object.fromEntries(new URL(request.url()).searchParams) as Record<string, string> };
}

/** The table's rows as [label, entries] (the label in the column of the row's own dimension). */
async function tableRows(page: Page): Promise<[string, string][]> {
  return page.locator('table.report-table tbody tr').evaluateAll((rows) =>
    rows.map((row) => {
      const label = row.querySelector('th')?.textContent?.trim() ?? '';
      const cells = [...row.querySelectorAll('td')].filter((cell) => cell.classList.contains('num'));
      return [label, cells[0]?.textContent?.trim() ?? ''] as [string, string];
    }),
  );
}

/** The API's tree as [label, entries], depth first, as the table lists it. */
function apiRows(rows: Array<{ label: string; entries: number; rows?: unknown[] }>): [string, string][] {
  return rows.flatMap((row) => [[row.label, String(row.entries)] as [string, string], ...apiRows((row.rows ?? []) as typeof rows)]);
}

const totalsOf = async (page: Page) => (await page.getByTestId('report-totals').locator('th, td').allInnerTexts()).map((text) => text.trim());

describeInBrowser('Web app: reports by client, task and tag', ({ h, open }) => {
  it('a report grouped by client, then task, sends those dimensions in order and shows the tree and totals the API answers', async () => {
    const { ws, api } = await work(h);
    const page = await open(ws, ws.admin, '/reports');
    await defineJuly(page, ['Client', 'Task']);
    expect(await page.getByRole('list', { name: 'Grouping order' }).getByRole('listitem').allInnerTexts()).toEqual([expect.stringContaining('Client'), expect.stringContaining('Task')]);
    const { body, query } = await runAndCapture(page);
    expect(body.dimensions).toEqual(['client', 'task']);
    const expected = await api.post('/api/reports/run', body, { query });
    expect(expected.status).toBe(200);
    expect(expected.body.totals).toMatchObject({ entries: 4, time: 18_000 });
    expect(await tableRows(page)).toEqual(apiRows(expected.body.rows));
    expect((await tableRows(page)).map(([label]) => label).slice(0, 3)).toEqual(['Acme', 'Build', 'Design']);
    expect((await totalsOf(page)).slice(0, 2)).toEqual(['Total', '4']);

    const entries = page.getByRole('table', { name: 'Entries, page 1' });
    await entries.waitFor();
    const cells = (name: string) => entries.getByRole('row', { name: new RegExp(name) }).locator('th, td').allInnerTexts();
    expect((await cells('Wireframes')).slice(2, 7)).toEqual(['Acme', 'Apollo', 'Design', 'Wireframes', 'urgent, review']);
    expect((await cells('Docs')).slice(2, 7)).toEqual(['No client', 'Cosmos', 'No task', 'Docs', 'review']);
    await expectAccessible(page);
  });

  it('by tag, an entry with two tags counts in both tags\' rows and once in the totals', async () => {
    const { ws, api } = await work(h);
    const page = await open(ws, ws.admin, '/reports');
    await defineJuly(page, ['Tag']);
    const { body, query } = await runAndCapture(page);
    expect(body.dimensions).toEqual(['tag']);
    const expected = (await api.post('/api/reports/run', body, { query })).body;
    const rows = await tableRows(page);
    expect(rows).toEqual(apiRows(expected.rows));
    expect(rows.slice(0, 2)).toEqual([
      ['review', '2'],
      ['urgent', '2'],
    ]);
    expect(rows).toHaveLength(3);
    expect(rows[2][1]).toBe('1');
    expect((await totalsOf(page)).slice(0, 3)).toEqual(['Total', '4', expect.stringMatching(/^5:00(:00)?$/)]);
    await screenshot(page, 'manage-reports-tags', h);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);

    // "No tag" is the API's null: the untagged entry (Research) alone.
    const form = page.getByRole('form', { name: 'Report' });
    await form.getByText('Tags (all)').click();
    await form.getByRole('group', { name: 'Tags' }).getByLabel('No tag').check();
    const untagged = await runAndCapture(page);
    expect(untagged.body.filters).toEqual([{ tagIds: [null], match: 'any' }]);
    await expect.poll(async () => (await totalsOf(page)).slice(0, 3)).toEqual(['Total', '1', expect.stringMatching(/^1:30(:00)?$/)]);
  });

  it('the client, task and tag filters send what the API takes ("no client" and "no task" as null, the tags with their match), and a saved report brings them back', async () => {
    const { ws, api, acme, design, urgent, review } = await work(h);
    const page = await open(ws, ws.admin, '/reports');
    const form = await defineJuly(page, ['Project']);
    await form.getByText('Clients (all)').click();
    await form.getByRole('group', { name: 'Clients' }).getByLabel('Acme').check();
    await form.getByRole('group', { name: 'Clients' }).getByLabel('No client').check();
    await form.getByText('Tasks (all)').click();
    await form.getByRole('group', { name: 'Tasks' }).getByLabel('Apollo · Design').check();
    await form.getByRole('group', { name: 'Tasks' }).getByLabel('No task').check();
    await form.getByText('Tags (all)').click();
    await form.getByRole('group', { name: 'Tags' }).getByLabel('urgent').check();
    await form.getByRole('group', { name: 'Tags' }).getByLabel('review').check();
    await form.getByLabel('Entries carrying the chosen tags').selectOption({ label: 'All of them' });

    const { body, query } = await runAndCapture(page);
    expect(body.filters).toEqual([{ clientIds: [acme.id, null] }, { taskIds: [design.id, null] }, { tagIds: [urgent.id, review.id], match: 'all' }]);
    const all = (await api.post('/api/reports/run', body, { query })).body;
    // Acme or no client, Design or no task, both tags: the Design entry only.
    expect(all.totals).toMatchObject({ entries: 1, time: 7_200 });
    expect((await totalsOf(page)).slice(0, 2)).toEqual(['Total', '1']);

    await form.getByLabel('Entries carrying the chosen tags').selectOption({ label: 'None of them' });
    const none = await runAndCapture(page);
    expect(none.body.filters[2]).toEqual({ tagIds: [urgent.id, review.id], match: 'none' });
    // Of Acme's or no client's entries on Design or no task (Design, Cosmos), each carries one of the tags.
    expect((await api.post('/api/reports/run', none.body, { query: none.query })).body.totals.entries).toBe(0);
    await expect.poll(async () => (await totalsOf(page)).slice(0, 2)).toEqual(['Total', '0']);
    await expectAccessible(page);

    await page.getByLabel('Report name').fill('Acme, tagged');
    await page.getByRole('button', { name: 'Save report' }).click();
    await page.getByText('Saved "Acme, tagged".').waitFor();
    const [saved] = Object.values((await api.get('/api/reports')).body as Record<string, any>);
    expect(saved.filters).toEqual(none.body.filters);
    await page.reload();
    await page.getByRole('button', { name: 'Run Acme, tagged' }).click();
    await page.getByTestId('report-totals').waitFor();
    const again = page.getByRole('form', { name: 'Report' });
    await again.getByText('Tasks (2 chosen)').click();
    expect(await again.getByRole('group', { name: 'Tasks' }).getByLabel('Apollo · Design').isChecked()).toBe(true);
    expect(await again.getByRole('group', { name: 'Tasks' }).getByLabel('No task').isChecked()).toBe(true);
    await again.getByText('Clients (2 chosen)').click();
    expect(await again.getByRole('group', { name: 'Clients' }).getByLabel('Acme').isChecked()).toBe(true);
    expect(await again.getByLabel('Entries carrying the chosen tags').inputValue()).toBe('none');
  });

  it("project rows show each project's color: the chart's bars are drawn in them, and a swatch of it is beside the name in the table", async () => {
    const { ws } = await work(h);
    const page = await open(ws, ws.admin, '/reports');
    await defineJuly(page, ['Project']);
    await runAndCapture(page);
    const chart = page.getByRole('img', { name: 'Bar chart: Time by project, in hours. The table below holds the same figures.' });
    await chart.locator('canvas').first().waitFor();
    const colorsDrawn = () =>
      chart.locator('canvas').first().evaluate((canvas) => {
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        const seen = new Set<string>();
        for (let i = 0; i < data.length; i += 4) if (data[i + 3] === 255) seen.add('#' + [data[i], data[i + 1], data[i + 2]].map((v) => v.toString(16).padStart(2, '0')).join(''));
        return ['#ef4444', '#22c55e', '#3b82f6', '#0b5cad'].filter((color) => seen.has(color));
      });
    await expect.poll(colorsDrawn).toEqual(['#ef4444', '#22c55e', '#3b82f6']);
    const swatches = await page.locator('table.report-table tbody th .swatch').evaluateAll((spans) => spans.map((span) => span.ownerDocument.defaultView!.getComputedStyle(span).backgroundColor));
    expect(swatches).toEqual(['rgb(239, 68, 68)', 'rgb(34, 197, 94)', 'rgb(59, 130, 246)']);
    await expectAccessible(page);
  });
});
