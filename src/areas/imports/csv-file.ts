import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { parse } from 'csv-parse';

/** The delimiter of a CSV file: `;` when its header line has more of them than commas (Kimai in some locales). */
async function delimiterOf(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    let commas = 0;
    let semicolons = 0;
    let quoted = false;
    for (const char of text) {
      if (char === '"') quoted = !quoted;
      else if (!quoted && (char === '\n' || char === '\r')) break;
      else if (!quoted && char === ',') commas++;
      else if (!quoted && char === ';') semicolons++;
    }
    return semicolons > commas ? ';' : ',';
  } finally {
    await file.close();
  }
}

/** A CSV file that cannot be read as one (an unclosed quote, invalid text): its line, and why. */
export class UnreadableFile extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The records of a CSV file, its header first, read as a stream (a UTF-8 BOM allowed, `,` or `;`):
 * each call reads the file anew, so a file is read twice rather than held in memory.
 */
export async function* csvRecords(path: string): AsyncGenerator<string[]> {
  // Small reads: the parser turns each into records in one go, and other requests wait for that much.
  const parser = createReadStream(path, { highWaterMark: 16 * 1024 }).pipe(
    parse({ bom: true, delimiter: await delimiterOf(path), relax_column_count: true, skip_empty_lines: true, trim: false }),
  );
  try {
    for await (const record of parser) yield record as string[];
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 0;
    throw new UnreadableFile(line, `The file is no CSV this source wrote: ${(error as Error).message}`);
  }
}
