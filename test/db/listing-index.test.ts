import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { activityListingFields, frozenListingIndex, frozenWith, listingMigrationFor, main } from '../../scripts/db-listing.js';
import {
  createListingIndexStatement,
  listingIndexOf,
  loadMigrations,
  migrationFiles,
  POSTGRES_LISTING_INCLUDE,
  POSTGRES_LISTING_INCLUDE_0005,
  SQLITE_ACTIVITY_ENTRY,
  SQLITE_ACTIVITY_ENTRY_0005,
  type RenderedField,
} from '../support/src.js';

/*
 * The listing index of GET /activities (docs/architecture.md "Add a field"): src/db/frozen records
 * what the databases hold, src/db/listing-index.ts builds what the Activity record calls for, and
 * `npm run db:listing` writes the migration between the two. test/db/listing-migration.test.ts
 * applies that migration on both stores.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The Activity record's fields as migration 0005 listed them, in its schema's order. */
const FIELDS_0005: RenderedField[] = [
  { key: 'id', column: 'id', as: 'text' },
  { key: 'name', column: 'name', as: 'text' },
  { key: 'billable', column: 'billable', as: 'boolean' },
  { key: 'startedAt', column: 'started_at', as: 'text' },
  { key: 'endedAt', column: 'ended_at', as: 'nullable' },
  { key: 'projectId', column: 'project_id', as: 'nullable' },
  { key: 'userId', column: 'user_id', as: 'text' },
];

const description: RenderedField = { key: 'description', column: 'description', as: 'nullable' };
const withDescription = [...activityListingFields(), description];
const registeredNames = Object.keys(await loadMigrations());
const nextNumber = String(Number(registeredNames.at(-1)!.slice(0, 4)) + 1).padStart(4, '0');

describe('The listing index src/db/frozen records is the one the Activity schema calls for', () => {
  it('the current SQLite entry and PostgreSQL include list are built from the Activity schema and ACTIVITY_COLUMNS (after changing either, run `npm run db:listing`)', () => {
    expect(listingIndexOf(activityListingFields())).toEqual({ sqliteEntry: SQLITE_ACTIVITY_ENTRY, postgresInclude: POSTGRES_LISTING_INCLUDE });
  });

  it('`npm run db:listing -- --check` exits 0 on the tree and says there is nothing to do', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/db-listing.ts', '--check'], { cwd: ROOT });
    expect(stdout).toContain('nothing to do');
  });
});

describe('The builder reproduces migration 0005', () => {
  it("builds 0005's SQLite entry and PostgreSQL include list (ended_at, project_id, billable, name) from the fields 0005 listed", () => {
    expect(listingIndexOf(FIELDS_0005)).toEqual({ sqliteEntry: SQLITE_ACTIVITY_ENTRY_0005, postgresInclude: POSTGRES_LISTING_INCLUDE_0005 });
    expect(POSTGRES_LISTING_INCLUDE_0005).toEqual(['ended_at', 'project_id', 'billable', 'name']);
  });

  it("creates the index with 0005's own statements on both stores: the same name, keys and include list, no condition", async () => {
    const source = await readFile(path.join(ROOT, 'src/db/migrations/0005_activity_listing.ts'), 'utf8');
    const definition = listingIndexOf(FIELDS_0005);
    expect(source).toContain(createListingIndexStatement('postgres', definition));
    // 0005 splices the frozen entry into its SQLite statement.
    expect(source).toContain(createListingIndexStatement('sqlite', { ...definition, sqliteEntry: '${sql.raw(SQLITE_ACTIVITY_ENTRY)}' }));
  });
});

describe('npm run db:listing on a record with one more field', () => {
  it('writes the next migration, numbered after the last one, whose index renders the field and includes its column', () => {
    const migration = listingMigrationFor(withDescription, frozenListingIndex, registeredNames)!;
    expect(migration.name).toBe(`${nextNumber}_activity_listing_fields`);
    expect(migration.file).toBe(`${nextNumber}_activity_listing_fields.ts`);
    expect(migration.definition).toEqual({
      sqliteEntry: SQLITE_ACTIVITY_ENTRY.replace(/ \|\| '\}'\)$/, ` || ',"description":' || json_quote(description) || '}')`),
      postgresInclude: [...POSTGRES_LISTING_INCLUDE, 'description'],
    });
  });

  it("orders the include list deterministically: 0005's columns in 0005's order, then new ones in the schema's order", () => {
    const tag: RenderedField = { key: 'tag', column: 'tag', as: 'optional' };
    const [id, name, ...rest] = FIELDS_0005;
    expect(listingIndexOf([id, tag, name, description, ...rest]).postgresInclude).toEqual([...POSTGRES_LISTING_INCLUDE_0005, 'tag', 'description']);
    expect(listingIndexOf([id, ...rest.reverse(), description, name]).postgresInclude).toEqual([...POSTGRES_LISTING_INCLUDE_0005, 'description']);
  });

  it('finds nothing to do once the frozen index is the one the fields call for', () => {
    const migration = listingMigrationFor(withDescription, frozenListingIndex, registeredNames)!;
    expect(listingMigrationFor(withDescription, migration.definition, [...registeredNames, migration.name])).toBeUndefined();
  });

  it('runs every migration file of src/db/migrations in the order of its number, with no registry to edit', async () => {
    const files = (await readdir(path.join(ROOT, 'src/db/migrations'))).filter((file) => /^\d{4}_/.test(file));
    expect(registeredNames).toEqual(files.map((file) => file.replace(/\.ts$/, '')).sort());
    expect(migrationFiles([`${nextNumber}_activity_listing_fields.ts`, 'index.ts', 'context.ts', ...files.reverse()]).at(-1)).toBe(
      `${nextNumber}_activity_listing_fields`,
    );
    expect(migrationFiles(['0002_b.js', '0002_b.d.ts', '0001_a.js', 'index.js'])).toEqual(['0001_a', '0002_b']);
  });

  it('refuses two migrations of one number (two branches that each added the next one)', () => {
    expect(() => migrationFiles(['0016_clients.ts', '0016_budgets.ts', '0015_x.ts'])).toThrow(
      'Two migrations are numbered 0016 (0016_budgets, 0016_clients): renumber the newer one',
    );
  });

  it("records the migration's index as the current one in src/db/frozen, keeping 0005's constants as they are", async () => {
    const migration = listingMigrationFor(withDescription, frozenListingIndex, registeredNames)!;
    const frozen = frozenWith(await readFile(path.join(ROOT, 'src/db/frozen/activity-listing.ts'), 'utf8'), migration.name, migration.definition);
    const dir = await mkdtemp(path.join(tmpdir(), 'timetrack-frozen-'));
    try {
      await writeFile(path.join(dir, 'activity-listing.ts'), frozen);
      const written = await import(pathToFileURL(path.join(dir, 'activity-listing.ts')).href);
      expect(written.LISTING_INDEX_MIGRATION).toBe(migration.name);
      expect(written.SQLITE_ACTIVITY_ENTRY).toBe(migration.definition.sqliteEntry);
      expect(written.POSTGRES_LISTING_INCLUDE).toEqual(migration.definition.postgresInclude);
      expect(written.SQLITE_ACTIVITY_ENTRY_0005).toBe(SQLITE_ACTIVITY_ENTRY_0005);
      expect(written.POSTGRES_LISTING_INCLUDE_0005).toEqual(POSTGRES_LISTING_INCLUDE_0005);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('with --check, exits 1 naming the difference and writes nothing', async () => {
    const files = ['src/db/frozen/activity-listing.ts'].map((file) => path.join(ROOT, file));
    const before = await Promise.all(files.map((file) => readFile(file, 'utf8')));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(main(['--check'], withDescription)).toBe(1);
      const message = errors.mock.calls.map((call) => String(call[0])).join('\n');
      expect(message).toContain('activities_user_listing is out of date');
      expect(message).toContain(`(${[...POSTGRES_LISTING_INCLUDE, 'description'].join(', ')})`);
      expect(message).toContain('npm run db:listing');
    } finally {
      errors.mockRestore();
    }
    expect(await Promise.all(files.map((file) => readFile(file, 'utf8')))).toEqual(before);
    await expect(readFile(path.join(ROOT, `src/db/migrations/${nextNumber}_activity_listing_fields.ts`))).rejects.toThrow('ENOENT');
  });
});
