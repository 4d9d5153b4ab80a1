import { execFileSync } from 'node:child_process';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok, type Harness, type TestUser } from '../support/harness.js';
import { DETAIL_PIECE } from '../support/src.js';
import { report, world, type World } from './entries-world.js';

/*
 * Report exports (docs/rules.md §6 Report exports): CSV, XLSX and PDF of the summary and of the
 * detailed report, read back as a client reads them.
 */

/** A request whose answer is read as bytes (a file). */
async function download(h: Harness, w: World, url: string, options: { by?: TestUser; body?: unknown } = {}) {
  const by = options.by ?? w.ws.admin;
  const res = await h.app.inject({
    method: options.body === undefined ? 'GET' : 'POST',
    url,
    headers: { host: w.ws.host, authorization: `Bearer ${by.token}`, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
  });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, text: res.rawPayload.toString('utf8') };
}

const lines = (text: string) => text.split('\r\n');
const SUMMARY = { ...report(['time', 'billableTime', 'revenue', 'cost']), dimensions: ['project', 'user'], hideEmptyRows: true };

async function adminName(h: Harness, w: World): Promise<string> {
  const user = await ok(as(h, w.ws).get(`/api/users/${w.ws.admin.userId}`));
  return user.name;
}

describeEachStore('Report exports', (h) => {
  it('a summary as CSV: BOM, RFC 4180 records, override labels (neutralised), decimal hours and H:MM, a money column per currency, totals', async () => {
    const w = await world(h);
    const body = {
      ...SUMMARY,
      overridesEnabled: true,
      overrides: [
        { column: 'project', hint: '', label: 'Client project' },
        { column: 'time', hint: '', label: '=Hours' },
      ],
    };
    const res = await download(h, w, '/api/reports/run?format=csv&timeZone=UTC', { body });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers['content-disposition']).toBe('attachment; filename="July_2026-07-01-2026-07-31.csv"; filename*=UTF-8\'\'July%202026-07-01%E2%80%932026-07-31.csv');
    expect([...res.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const json = await ok(as(h, w.ws).post('/api/reports/run', body, { query: { timeZone: 'UTC' } }));
    const noProject = json.rows[2].label;
    const admin = await adminName(h, w);
    expect(lines(res.text.slice(1))).toEqual([
      "Client project,User,'=Hours (h),'=Hours (H:MM),Billable time (h),Billable time (H:MM),Unpriced billable time (h),Unpriced billable time (H:MM)," +
        'Uncosted time (h),Uncosted time (H:MM),Entries,Revenue (EUR),Revenue (USD),Cost (EUR)',
      'Alpha,Alice,1.50,1:30,1.50,1:30,0.00,0:00,0.00,0:00,1,150.00,0.00,60.00',
      'Alpha,Bob,2.00,2:00,2.00,2:00,0.00,0:00,2.00,2:00,1,0.00,100.00,0.00',
      'Beta,Alice,0.25,0:15,0.25,0:15,0.00,0:00,0.00,0:00,1,20.00,0.00,10.00',
      'Beta,Bob,1.00,1:00,1.00,1:00,0.00,0:00,1.00,1:00,1,60.00,0.00,0.00',
      `${noProject},${admin},0.75,0:45,0.00,0:00,0.00,0:00,0.75,0:45,1,0.00,0.00,0.00`,
      'Total,,5.50,5:30,4.75,4:45,0.00,0:00,3.75,3:45,5,230.00,100.00,70.00',
      '',
    ]);
  });

  it('a detailed report as CSV: text that starts a formula is neutralised, commas, quotes and newlines are quoted, numbers stay numbers', async () => {
    const w = await world(h);
    const saved = await make.report(h, w.ws, {
      ...report(['time', 'revenue', 'cost']),
      overridesEnabled: true,
      overrides: [{ column: 'user', hint: 'who', label: 'Person' }],
    });
    const res = await download(h, w, `/api/reports/${saved.id}/entries?format=csv&timeZone=UTC`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="${saved.name}_2026-07-01-2026-07-31_entries.csv"; filename*=UTF-8''${saved.name}%202026-07-01%E2%80%932026-07-31%20entries.csv`,
    );
    const admin = await adminName(h, w);
    expect(lines(res.text.slice(1))).toEqual([
      'Person,Client,Project,Task,Description,Tags,Billable,Date,Start,End,Duration (h),Duration (H:MM),Raw duration (h),Raw duration (H:MM),' +
        'Revenue rate (EUR),Revenue (EUR),Revenue rate (USD),Revenue (USD),Cost rate (EUR),Cost (EUR)',
      "Alice,,Alpha,,'=SUM(A1:A9),,true,2026-07-01,2026-07-01 09:00:00,2026-07-01 10:30:00,1.50,1:30,1.50,1:30,100,150.00,,,40,60.00",
      'Alice,,Beta,,"a, ""quoted""\nline",,true,2026-07-02,2026-07-02 09:00:00,2026-07-02 09:07:30,0.25,0:15,0.13,0:08,80,20.00,,,40,10.00',
      "Bob,,Alpha,,'+cmd,,true,2026-07-03,2026-07-03 10:00:00,2026-07-03 12:00:00,2.00,2:00,2.00,2:00,,,50,100.00,,",
      "Bob,,Beta,,'@at,,true,2026-07-04,2026-07-04 10:00:00,2026-07-04 11:00:00,1.00,1:00,1.00,1:00,60,60.00,,,,",
      `${admin},,,,'-minus,,false,2026-07-05,2026-07-05 08:00:00,2026-07-05 08:45:00,0.75,0:45,0.75,0:45,,,,,,`,
      'Total,,,,,,,,,,5.50,5:30,5.38,5:23,,230.00,,100.00,,70.00',
      '',
    ]);
  });

  it('the file name keeps a report\'s name in UTF-8 and gives an ASCII fallback', async () => {
    const w = await world(h);
    const saved = await make.report(h, w.ws, { ...report(['time']), name: 'Über "Q3"/plan' });
    const res = await download(h, w, `/api/reports/${saved.id}/run?format=csv&timeZone=UTC`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="Uber_Q3_plan_2026-07-01-2026-07-31.csv"; filename*=UTF-8\'\'%C3%9Cber%20Q3%20plan%202026-07-01%E2%80%932026-07-31.csv',
    );
  });

  it('an export is named after its report and period: a saved report\'s name, "Report" for an unnamed ad-hoc one, the first and last day in the report\'s zone', async () => {
    const w = await world(h);
    const saved = await make.report(h, w.ws, { ...report(['time']), name: 'Client hours', period: 'custom', start: '2026-07-06T00:00:00Z', end: '2026-07-13T00:00:00Z' });
    const summary = await download(h, w, `/api/reports/${saved.id}/run?format=xlsx&timeZone=UTC`);
    expect(summary.status).toBe(200);
    expect(summary.headers['content-disposition']).toBe(
      'attachment; filename="Client_hours_2026-07-06-2026-07-12.xlsx"; filename*=UTF-8\'\'Client%20hours%202026-07-06%E2%80%932026-07-12.xlsx',
    );
    const detailed = await download(h, w, `/api/reports/${saved.id}/entries?format=csv&timeZone=UTC`);
    expect(detailed.status).toBe(200);
    expect(detailed.headers['content-disposition']).toBe(
      'attachment; filename="Client_hours_2026-07-06-2026-07-12_entries.csv"; filename*=UTF-8\'\'Client%20hours%202026-07-06%E2%80%932026-07-12%20entries.csv',
    );
    const { name: _, ...unnamed } = report(['time']);
    const adHoc = await download(h, w, '/api/reports/run?format=csv&timeZone=America%2FNew_York', { body: unnamed });
    expect(adHoc.status).toBe(200);
    // July in UTC is 30 June 20:00 to 31 July 20:00 in New York.
    expect(adHoc.headers['content-disposition']).toBe('attachment; filename="Report_2026-06-30-2026-07-31.csv"; filename*=UTF-8\'\'Report%202026-06-30%E2%80%932026-07-31.csv');
    const adHocEntries = await download(h, w, '/api/reports/entries?format=xlsx&timeZone=UTC', { body: unnamed });
    expect(adHocEntries.status).toBe(200);
    expect(adHocEntries.headers['content-disposition']).toBe(
      'attachment; filename="Report_2026-07-01-2026-07-31_entries.xlsx"; filename*=UTF-8\'\'Report%202026-07-01%E2%80%932026-07-31%20entries.xlsx',
    );
  });

  it('a detailed report as XLSX reads back with typed cells, a frozen header and a bold totals row', async () => {
    const w = await world(h);
    const res = await download(h, w, '/api/reports/entries?format=xlsx&timeZone=UTC', { body: report(['time', 'revenue', 'cost']) });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="July_2026-07-01-2026-07-31_entries\.xlsx"/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.bytes as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Report')!;
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).values).toEqual([
      undefined, 'User', 'Client', 'Project', 'Task', 'Description', 'Tags', 'Billable', 'Date', 'Start', 'End', 'Duration', 'Raw duration',
      'Revenue rate (EUR)', 'Revenue (EUR)', 'Revenue rate (USD)', 'Revenue (USD)', 'Cost rate (EUR)', 'Cost (EUR)',
    ]);
    const first = sheet.getRow(2);
    expect(first.getCell(5).value).toBe('=SUM(A1:A9)');
    expect(first.getCell(7).value).toBe(true);
    expect(first.getCell(8).value).toEqual(new Date('2026-07-01T00:00:00Z'));
    expect(first.getCell(8).numFmt).toBe('yyyy-mm-dd');
    expect(first.getCell(9).value).toEqual(new Date('2026-07-01T09:00:00Z'));
    expect(first.getCell(11).numFmt).toBe('[h]:mm');
    // Durations are Excel times: fractions of a day.
    const days = (value: unknown) => (value instanceof Date ? (value.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000 : Number(value));
    expect(days(first.getCell(11).value)).toBeCloseTo(1.5 / 24, 9);
    expect(first.getCell(13).value).toBe(100);
    expect(first.getCell(14).value).toBe(150);
    expect(first.getCell(14).numFmt).toBe('#,##0.00');
    const totals = sheet.getRow(7);
    expect(totals.getCell(1).value).toBe('Total');
    expect(totals.font).toMatchObject({ bold: true });
    expect(days(totals.getCell(11).value)).toBeCloseTo(5.5 / 24, 9);
    expect([totals.getCell(14).value, totals.getCell(16).value, totals.getCell(18).value]).toEqual([230, 100, 70]);
    expect(sheet.rowCount).toBe(7);
    const about = book.getWorksheet('About')!;
    expect(about.getRow(5).values).toEqual([undefined, 'Time zone', 'UTC']);
  });

  it('a summary as XLSX: one row per leaf with days as dates, money per currency, totals', async () => {
    const w = await world(h);
    const res = await download(h, w, '/api/reports/run?format=xlsx&timeZone=UTC', { body: { ...report(['time', 'revenue']), dimensions: ['day'], hideEmptyRows: true } });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.bytes as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Report')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Day', 'Time', 'Unpriced billable time', 'Entries', 'Revenue (EUR)', 'Revenue (USD)']);
    expect(sheet.getRow(2).getCell(1).value).toEqual(new Date('2026-07-01T00:00:00Z'));
    expect(sheet.getRow(7).getCell(1).value).toBe('Total');
    expect([sheet.getRow(7).getCell(5).value, sheet.getRow(7).getCell(6).value]).toEqual([230, 100]);
  });

  it('a summary as PDF shows its title, period, time zone, chart and totals', async () => {
    const w = await world(h);
    const res = await download(h, w, '/api/reports/run?format=pdf&timeZone=Europe%2FBerlin', { body: { ...SUMMARY, name: 'July summary' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    // The period's days in the report's zone: July in UTC ends at 02:00 on 1 August in Berlin.
    expect(res.headers['content-disposition']).toBe('attachment; filename="July_summary_2026-07-01-2026-08-01.pdf"; filename*=UTF-8\'\'July%20summary%202026-07-01%E2%80%932026-08-01.pdf');
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: res.bytes }).toString('utf8');
    expect(text).toContain('July summary');
    // The custom period's bounds, as wall-clock times of the report's zone.
    expect(text).toContain('Period: custom, 2026-07-01 02:00 to 2026-08-01 02:00');
    expect(text).toContain('Time zone: Europe/Berlin');
    expect(text).toContain('Time by project');
    expect(text).toMatch(/Total\s+5:30\s+4:45\s+0:00\s+3:45\s+5\s+230\.00 EUR\s+100\.00 USD\s+70\.00 EUR/);
    expect(text).toContain('Page 1 of 1');
  });

  it('a summary PDF names the workspace under its title, follows each group with its subtotal, and sizes the columns to their text (no name or header cut)', async () => {
    const w = await world(h);
    const workspace = (await ok(as(h, w.ws).get('/api/organization'))).name;
    const res = await download(h, w, '/api/reports/run?format=pdf&timeZone=UTC', { body: SUMMARY });
    expect(res.status).toBe(200);
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: res.bytes }).toString('utf8');
    const lines = text.split('\n').map((line) => line.trim());
    expect(lines.slice(0, 2)).toEqual(['July', workspace]);
    expect(text).not.toMatch(/…|\.\.\./);
    expect(text).toMatch(/Project\s+User\s+Time\s+Billable time\s+Unpriced billable time\s+Uncosted time\s+Entries\s+Revenue \(EUR\)\s+Revenue \(USD\)\s+Cost \(EUR\)/);
    const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    // Alpha: Alice 1:30 and Bob 2:00, both billable; Bob's uncosted. Beta: Alice 0:15 and Bob 1:00.
    expect(at(/^Total Alpha\s+3:30\s+3:30\s+0:00\s+2:00\s+2\s+150\.00 EUR\s+100\.00 USD\s+60\.00 EUR$/)).toBe(at(/^Alpha\s+Bob\s/) + 1);
    expect(at(/^Total Beta\s+1:15\s+1:15\s+0:00\s+1:00\s+2\s+80\.00 EUR\s+0\.00 USD\s+10\.00 EUR$/)).toBe(at(/^Beta\s+Bob\s/) + 1);
    expect(text).toMatch(/Total\s+5:30\s+4:45\s+0:00\s+3:45\s+5\s+230\.00 EUR\s+100\.00 USD\s+70\.00 EUR/);
  });

  it('a summary as PDF of many pages is numbered "Page n of m" on every page, with no blank page, and ends with its totals', async () => {
    const w = await world(h);
    // Every day of 2026 filled (365 rows and the header on each page): several pages.
    const body = { ...report(['time']), start: '2026-01-01T00:00:00Z', end: '2027-01-01T00:00:00Z', dimensions: ['day'], hideEmptyRows: false, name: 'Year' };
    const res = await download(h, w, '/api/reports/run?format=pdf&timeZone=UTC', { body });
    expect(res.status).toBe(200);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', ['-'], { input: res.bytes }).toString('utf8'))![1]);
    expect(pages).toBeGreaterThan(5);
    for (let page = 1; page <= pages; page++) {
      const text = execFileSync('pdftotext', ['-layout', '-f', String(page), '-l', String(page), '-', '-'], { input: res.bytes }).toString('utf8');
      expect(text).toContain(`Page ${page} of ${pages}`);
      // The header row is repeated on every page.
      expect(text).toMatch(/Day\s+Time\s+Entries/);
      if (page === pages) expect(text).toMatch(/Total\s+7:30\s+6/);
    }
  });

  it('a detailed CSV longer than one read of the store finds the membership and rates of a member first seen in a later read', async () => {
    const w = await world(h);
    await ok(as(h, w.ws).put('/api/organization', { rounding: { enabled: false, interval: 15, mode: 'NEAREST' } }));
    const carol = await make.user(h, w.ws, { name: 'Carol' });
    const carolOnBeta = await make.member(h, w.ws, { project: w.beta, user: carol });
    await make.revenueRate(h, w.ws, { project: w.beta, member: carolOnBeta, value: 80 });
    await make.costRate(h, w.ws, { user: carol, value: 40 });
    // Entries of Bob on Alpha fill the first reads; Carol's come only after them.
    const base = Date.parse('2026-07-20T00:00:00Z');
    const bobs = DETAIL_PIECE;
    const entries = Array.from({ length: bobs + 10 }, (_, i) => ({ owner: i < bobs ? w.bob : carol, project: i < bobs ? w.alpha : w.beta, start: base + i * 120_000 }));
    for (let i = 0; i < entries.length; i += 50) {
      await Promise.all(
        entries.slice(i, i + 50).map(({ owner, project, start }, j) =>
          make.activity(h, w.ws, { owner, project, name: `Entry ${i + j}`, startedAt: new Date(start).toISOString(), endedAt: new Date(start + 60_000).toISOString() }),
        ),
      );
    }
    const res = await download(h, w, '/api/reports/entries?format=csv&timeZone=UTC', { body: report(['time', 'revenue', 'cost']) });
    expect(res.status).toBe(200);
    const records = lines(res.text.slice(1));
    const header = records[0].split(',');
    const cell = (record: string, column: string) => record.split(',')[header.indexOf(column)];
    const byName = (name: string) => records.find((record) => cell(record, 'Description') === name)!;
    // A minute at 50 USD an hour (Bob on Alpha); at 80 EUR and a cost of 40 EUR an hour (Carol on Beta).
    const bobs0 = byName('Entry 0');
    expect([cell(bobs0, 'Revenue (USD)'), cell(bobs0, 'Revenue (EUR)'), cell(bobs0, 'Cost (EUR)')]).toEqual(['0.83', '', '']);
    const carols = byName(`Entry ${bobs + 9}`);
    expect([cell(carols, 'User'), cell(carols, 'Project')]).toEqual(['Carol', 'Beta']);
    expect([cell(carols, 'Revenue (USD)'), cell(carols, 'Revenue (EUR)'), cell(carols, 'Cost (EUR)')]).toEqual(['', '1.33', '0.67']);
    expect([cell(carols, 'Revenue rate (EUR)'), cell(carols, 'Cost rate (EUR)')]).toEqual(['80', '40']);
  }, 180_000);

  it('a detailed CSV of more entries than one read of the store streams them all, in order, with their totals', async () => {
    const w = await world(h);
    const many = 2_050;
    const base = Date.parse('2026-07-20T00:00:00Z');
    for (let i = 0; i < many; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, many - i) }, (_, j) => {
          const start = base + (i + j) * 120_000;
          return make.activity(h, w.ws, { owner: w.bob, project: w.alpha, name: `Entry ${i + j}`, startedAt: new Date(start).toISOString(), endedAt: new Date(start + 60_000).toISOString() });
        }),
      );
    }
    const res = await download(h, w, '/api/reports/entries?format=csv&timeZone=UTC', { body: report(['time']) });
    expect(res.status).toBe(200);
    const records = lines(res.text.slice(1));
    expect(records).toHaveLength(1 + 5 + many + 1 + 1);
    const names = records.slice(6, 6 + many).map((line) => line.split(',')[4]);
    expect(names).toEqual(Array.from({ length: many }, (_, i) => `Entry ${i}`));
    // 2,050 minutes rounded to 15 each (NEAREST: 1 minute is 0) plus the five entries before: 5:30; raw 142,350 s.
    expect(records[records.length - 2]).toBe('Total,,,,,,,,,,5.50,5:30,39.54,39:33');
  }, 180_000);
});

