import { execFileSync } from 'node:child_process';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { as, describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { catalogWorld } from './catalog-world.js';

/*
 * Exports by client, task and tag (docs/rules.md §6 Report exports): the detailed report's Client,
 * Task and Tags columns in CSV and XLSX, and the summary's client, task and tag dimensions as
 * columns of its CSV, XLSX and PDF. The world's five entries are listed in catalog-world.ts.
 */

async function download(h: Harness, ws: TestWorkspace, url: string, body: unknown) {
  const res = await h.app.inject({
    method: 'POST',
    url,
    headers: { host: ws.host, authorization: `Bearer ${ws.admin.token}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, text: res.rawPayload.toString('utf8') };
}

const JULY = { name: 'July', period: 'custom', start: '2026-07-01T00:00:00Z', end: '2026-08-01T00:00:00Z', metrics: ['time'], hideEmptyRows: true };
const lines = (text: string) => text.slice(1).split('\r\n');

async function adminName(h: Harness, ws: TestWorkspace): Promise<string> {
  return (await ok(as(h, ws).get(`/api/users/${ws.admin.userId}`))).name;
}

describeEachStore('Exports by client, task and tag', (h) => {
  it('a detailed CSV has Client, Task and Tags columns: names, empty for none, an entry\'s tags in one cell', async () => {
    const w = await catalogWorld(h);
    const res = await download(h, w.ws, '/api/reports/entries?format=csv&timeZone=UTC', { ...JULY, dimensions: ['project'] });
    expect(res.status).toBe(200);
    const admin = await adminName(h, w.ws);
    expect(lines(res.text)).toEqual([
      'User,Client,Project,Task,Description,Tags,Billable,Date,Start,End,Duration (h),Duration (H:MM),Raw duration (h),Raw duration (H:MM)',
      'Ada,Acme,Apollo,Design,One,"Urgent, Review",true,2026-07-01,2026-07-01 09:00:00,2026-07-01 10:00:00,1.00,1:00,1.00,1:00',
      'Ada,Acme,Apollo,Build,Two,Urgent,true,2026-07-02,2026-07-02 09:00:00,2026-07-02 09:30:00,0.50,0:30,0.50,0:30',
      'Bob,Globex,Zeus,Design,Three,,false,2026-07-03,2026-07-03 09:00:00,2026-07-03 09:20:00,0.33,0:20,0.33,0:20',
      `${admin},,,,Four,Review,false,2026-07-04,2026-07-04 09:00:00,2026-07-04 09:10:00,0.17,0:10,0.17,0:10`,
      'Ada,,Solo,,Five,Review,false,2026-07-05,2026-07-05 09:00:00,2026-07-05 09:15:00,0.25,0:15,0.25,0:15',
      'Total,,,,,,,,,,2.25,2:15,2.25,2:15',
      '',
    ]);
  });

  it('a detailed XLSX has Client, Task and Tags columns as text cells', async () => {
    const w = await catalogWorld(h);
    const res = await download(h, w.ws, '/api/reports/entries?format=xlsx&timeZone=UTC', { ...JULY, dimensions: ['project'] });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.bytes as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Report')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1, 7)).toEqual(['User', 'Client', 'Project', 'Task', 'Description', 'Tags']);
    expect((sheet.getRow(2).values as unknown[]).slice(1, 7)).toEqual(['Ada', 'Acme', 'Apollo', 'Design', 'One', 'Urgent, Review']);
    expect((sheet.getRow(5).values as unknown[]).slice(2, 7)).toEqual([undefined, undefined, undefined, 'Four', 'Review']);
  });

  it('a summary CSV by client and tag: a column per dimension with names, the totals counting each entry once', async () => {
    const w = await catalogWorld(h);
    const res = await download(h, w.ws, '/api/reports/run?format=csv&timeZone=UTC', { ...JULY, dimensions: ['client', 'tag'] });
    expect(res.status).toBe(200);
    expect(lines(res.text)).toEqual([
      'Client,Tag,Time (h),Time (H:MM),Entries',
      'Acme,Review,1.00,1:00,1',
      'Acme,Urgent,1.50,1:30,2',
      'Globex,No tag,0.33,0:20,1',
      'No client,Review,0.42,0:25,2',
      'Total,,2.25,2:15,5',
      '',
    ]);
  });

  it('a summary XLSX by task has a Task column of names, and its column takes the report\'s override', async () => {
    const w = await catalogWorld(h);
    const body = { ...JULY, dimensions: ['task'], overridesEnabled: true, overrides: [{ column: 'task', hint: '', label: 'Activity' }] };
    const res = await download(h, w.ws, '/api/reports/run?format=xlsx&timeZone=UTC', body);
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.bytes as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Report')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Activity', 'Time', 'Entries']);
    expect([2, 3, 4, 5].map((row) => sheet.getRow(row).getCell(1).value)).toEqual(['Build', 'Design', 'Design', 'No task']);
    expect(sheet.getRow(6).getCell(3).value).toBe(5);
  });

  it('a summary PDF by tag charts and lists the tags, with the totals counting each entry once', async () => {
    const w = await catalogWorld(h);
    const res = await download(h, w.ws, '/api/reports/run?format=pdf&timeZone=UTC', { ...JULY, name: 'Tags of July', dimensions: ['tag', 'client'] });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: res.bytes }).toString('utf8');
    expect(text).toContain('Time by tag');
    expect(text).toMatch(/Tag\s+Client\s+Time\s+Entries/);
    expect(text).toMatch(/Review\s+Acme\s+1:00\s+1/);
    expect(text).toMatch(/Urgent\s+Acme\s+1:30\s+2/);
    expect(text).toMatch(/No tag\s+Globex\s+0:20\s+1/);
    expect(text).toMatch(/Total\s+2:15\s+5/);
  });
});
