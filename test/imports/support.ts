import { expect } from 'vitest';
import { as, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';

/** Lines joined as a CSV file writes them (CRLF, as the exporting tools do). */
export const csv = (...lines: string[]): string => `${lines.join('\r\n')}\r\n`;

/** POST /imports with a file; the 202's record. */
export async function postImport(h: Harness, ws: TestWorkspace, source: string, file: string, query: Record<string, string> = {}, user: TestUser = ws.admin) {
  return as(h, ws, user).post(`/api/imports`, undefined, {
    query: { source, ...query },
    payload: file,
    headers: { 'content-type': 'text/csv' },
  });
}

/** The import once it has ended (succeeded or failed). */
export async function ended(h: Harness, ws: TestWorkspace, importId: string): Promise<any> {
  const until = Date.now() + 20_000;
  for (;;) {
    const res = await as(h, ws).get(`/api/imports/${importId}`);
    expect(res.status).toBe(200);
    if (res.body.status === 'succeeded' || res.body.status === 'failed') return res.body;
    if (Date.now() > until) throw new Error(`import ${importId} still ${res.body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Imports a file and waits for its end: the ended Import record. */
export async function importFile(h: Harness, ws: TestWorkspace, source: string, file: string, query: Record<string, string> = {}) {
  const res = await postImport(h, ws, source, file, query);
  expect(res.status).toBe(202);
  return ended(h, ws, res.body.id);
}

export const counts = (created: Partial<Record<string, number>> = {}) => ({
  clients: 0,
  projects: 0,
  tasks: 0,
  tags: 0,
  users: 0,
  members: 0,
  activities: 0,
  revenueRates: 0,
  costRates: 0,
  ...created,
});

/** Every activity of the workspace, as an administrator lists them, sorted by start. */
export async function activitiesOf(h: Harness, ws: TestWorkspace): Promise<any[]> {
  const res = await as(h, ws).get('/api/activities');
  expect(res.status).toBe(200);
  return (Object.values(res.body) as any[]).sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
}

/** A map of the workspace's records by name (clients, projects, tags; users by email elsewhere). */
export async function byName(h: Harness, ws: TestWorkspace, path: string): Promise<Record<string, any>> {
  const res = await as(h, ws).get(path);
  expect(res.status).toBe(200);
  return Object.fromEntries((Object.values(res.body) as any[]).map((record) => [record.name, record]));
}

/** Reads a ZIP answer: its entries' texts by name. */
export async function unzip(bytes: Buffer): Promise<Record<string, string>> {
  const yauzl = (await import('yauzl')).default;
  const zip = await new Promise<import('yauzl').ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const texts: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: import('yauzl').Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        let text = '';
        stream.on('data', (chunk) => (text += chunk));
        stream.on('end', () => {
          texts[entry.fileName] = text;
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return texts;
}

/** GET /export as the workspace's admin: the archive's bytes. */
export async function exportOf(h: Harness, ws: TestWorkspace): Promise<Buffer> {
  const res = await h.app.inject({ method: 'GET', url: '/api/export', headers: { host: ws.host, authorization: `Bearer ${ws.admin.token}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  return res.rawPayload;
}

/** POST /imports of a ZIP (source timetrack unless the query names another), then its end. */
export async function importArchive(h: Harness, ws: TestWorkspace, archive: Buffer, query: Record<string, string> = {}) {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/imports',
    query: { source: 'timetrack', ...query },
    headers: { host: ws.host, authorization: `Bearer ${ws.admin.token}`, 'content-type': 'application/zip' },
    payload: archive,
  });
  expect(res.statusCode, res.body).toBe(202);
  return ended(h, ws, JSON.parse(res.body).id);
}
