import { createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../domain/errors.js';

/** The largest file an import takes (docs/rules.md §6 Imports). */
export const MAX_IMPORT_BYTES = 200 * 1024 * 1024;

const tooLarge = () => new ApiError('payload-too-large', `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`);

/**
 * Writes a request body to a file of its own in the system's temporary folder, as it arrives (the
 * memory an upload takes is bounded whatever its size); over MAX_IMPORT_BYTES is 413 and keeps nothing.
 */
export async function receiveFile(body: Readable, declaredLength: number | undefined): Promise<string> {
  if (declaredLength !== undefined && declaredLength > MAX_IMPORT_BYTES) {
    body.resume();
    throw tooLarge();
  }
  const folder = await mkdtemp(path.join(os.tmpdir(), 'timetrack-import-'));
  const file = path.join(folder, 'upload');
  let bytes = 0;
  try {
    await pipeline(
      body,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          bytes += chunk.length;
          if (bytes > MAX_IMPORT_BYTES) throw tooLarge();
          yield chunk;
        }
      },
      createWriteStream(file),
    );
  } catch (error) {
    const { rm } = await import('node:fs/promises');
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return file;
}
