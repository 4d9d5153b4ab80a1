import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';

/** The path of a SQLite file not yet made, in a fresh temporary folder. */
export function tempSqliteFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-test-')), 'timetrack.db');
}

/** Waits up to 4 s for something another thread or process does, then asserts that it happened. */
export async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 800 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}
