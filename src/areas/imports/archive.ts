import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import yauzl from 'yauzl';
import { UnreadableFile } from './csv-file.js';

/** A ZIP file's entries by name, read as lines of JSON (timetrack's export) or whole (a manifest). */
export interface Archive {
  names(): string[];
  /** The entry's JSON lines, in pages; nothing when the entry is absent. */
  rows(name: string, pageSize: number): AsyncIterable<Array<Record<string, unknown>>>;
  json(name: string): Promise<unknown>;
  /** The entry's CSV records as objects by header, in order; nothing when the entry is absent. */
  csv(name: string): AsyncIterable<Record<string, string>>;
  close(): void;
}

const openZip = (path: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, zip) => (error ? reject(error) : resolve(zip))),
  );

async function entriesOf(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

/** Opens a ZIP file (a file that is none is UnreadableFile). */
export async function openArchive(path: string): Promise<Archive> {
  let zip: yauzl.ZipFile;
  let entries: Map<string, yauzl.Entry>;
  try {
    zip = await openZip(path);
    entries = await entriesOf(zip);
  } catch (error) {
    throw new UnreadableFile(0, `The file is no ZIP archive: ${(error as Error).message}`);
  }
  const stream = (entry: yauzl.Entry) =>
    new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (error, opened) => (error ? reject(error) : resolve(opened))));
  async function* rows(name: string, pageSize: number): AsyncIterable<Array<Record<string, unknown>>> {
    const entry = entries.get(name);
    if (!entry) return;
    let page: Array<Record<string, unknown>> = [];
    let line = 0;
    for await (const text of createInterface({ input: await stream(entry), crlfDelay: Infinity })) {
      line++;
      if (text.trim() === '') continue;
      try {
        page.push(JSON.parse(text) as Record<string, unknown>);
      } catch {
        throw new UnreadableFile(line, `Line ${line} of ${name} is no JSON.`);
      }
      if (page.length >= pageSize) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  }
  return {
    names: () => [...entries.keys()],
    rows,
    async json(name) {
      const entry = entries.get(name);
      if (!entry) return undefined;
      let text = '';
      for await (const chunk of await stream(entry)) text += String(chunk);
      try {
        return JSON.parse(text);
      } catch {
        throw new UnreadableFile(0, `${name} is no JSON.`);
      }
    },
    async *csv(name) {
      const entry = entries.get(name);
      if (!entry) return;
      try {
        for await (const record of (await stream(entry)).pipe(parse({ bom: true, columns: true, relax_column_count: true, skip_empty_lines: true }))) {
          yield record as Record<string, string>;
        }
      } catch (error) {
        throw new UnreadableFile((error as { lines?: number }).lines ?? 0, `${name} is no CSV: ${(error as Error).message}`);
      }
    },
    close: () => zip.close(),
  };
}
