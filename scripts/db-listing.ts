// `npm run db:listing [-- --check]`: runs through tsx (see package.json). Rebuilds the listing index
// of GET /activities when the Activity record's fields change (docs/architecture.md "Add a field").
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ACTIVITY_COLUMNS } from '../src/areas/activities/columns.js';
import { Activity } from '../src/areas/activities/schemas.js';
import { LISTING_INDEX_MIGRATION, POSTGRES_LISTING_INCLUDE, SQLITE_ACTIVITY_ENTRY } from '../src/db/frozen/activity-listing.js';
import { migrationFiles } from '../src/db/migrations/index.js';
import { LISTING_INDEX, listingIndexOf, rebuildListingIndexStatements, sameListingIndex, type ListingIndexDefinition } from '../src/db/listing-index.js';
import { renderedFieldsOf, type RenderedField } from '../src/db/rendered-entries.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const MIGRATIONS = path.join(ROOT, 'src/db/migrations');
const FROZEN = path.join(ROOT, 'src/db/frozen/activity-listing.ts');

/** The line of src/db/frozen/activity-listing.ts after which this script rewrites the file. */
export const CURRENT_MARK = '// The current listing index: `npm run db:listing` (scripts/db-listing.ts) rewrites from here to the end.';

/** What src/db/frozen/ says the databases hold now. */
export const frozenListingIndex: ListingIndexDefinition = { sqliteEntry: SQLITE_ACTIVITY_ENTRY, postgresInclude: POSTGRES_LISTING_INCLUDE };

/** The listed fields of an activity as the Activity schema and its columns (src/areas/activities) give them. */
export const activityListingFields = (): RenderedField[] => renderedFieldsOf(Activity, ACTIVITY_COLUMNS);

/** The next migration: its name, the file it goes in, the definition it builds and the file's text. */
export interface ListingMigration {
  name: string;
  file: string;
  definition: ListingIndexDefinition;
  source: string;
}

/**
 * The migration that rebuilds the listing index for these fields, numbered after every migration
 * named, or undefined when the index the databases hold (`frozen`) is already the one they call for.
 */
export function listingMigrationFor(fields: readonly RenderedField[], frozen: ListingIndexDefinition, migrationNames: readonly string[]): ListingMigration | undefined {
  const definition = listingIndexOf(fields);
  if (sameListingIndex(definition, frozen)) return undefined;
  const last = Math.max(0, ...migrationNames.map((name) => Number(/^(\d+)_/.exec(name)?.[1] ?? 0)));
  const name = `${String(last + 1).padStart(4, '0')}_activity_listing_fields`;
  return { name, file: `${name}.ts`, definition, source: migrationSourceOf(definition) };
}

/** A migration that rebuilds the index, its statements written out so that it keeps building exactly this index. */
export function migrationSourceOf(definition: ListingIndexDefinition): string {
  const statements = (dialect: 'sqlite' | 'postgres') =>
    rebuildListingIndexStatements(dialect, definition)
      .map((statement) => `    ${literalOf(statement, '      ')},\n`)
      .join('');
  return `import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * ${LISTING_INDEX} rebuilt for the fields GET /activities lists now, written by \`npm run db:listing\`
 * (docs/architecture.md "Add a field"): SQLite's index stores the record's new rendering, which the
 * listing query repeats byte for byte; PostgreSQL's includes the record's columns. The statements are
 * written out, so that this migration keeps building this very index whatever the fields become.
 */
const STATEMENTS: Record<MigrationContext['dialect'], string[]> = {
  sqlite: [
${statements('sqlite')}  ],
  postgres: [
${statements('postgres')}  ],
};

export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  for (const statement of STATEMENTS[dialect]) await sql.raw(statement).execute(db);
}
`;
}

/** src/db/frozen/activity-listing.ts recording what the migration built as the current listing index. */
export function frozenWith(frozen: string, name: string, definition: ListingIndexDefinition): string {
  const at = frozen.indexOf(CURRENT_MARK);
  if (at === -1) throw new Error(`src/db/frozen/activity-listing.ts: the line "${CURRENT_MARK}" is missing`);
  const include = definition.postgresInclude.map((column) => `'${column}'`).join(', ');
  return `${frozen.slice(0, at)}${CURRENT_MARK}

/** The latest migration that built ${LISTING_INDEX}, and what it built: what the databases hold now. */
export const LISTING_INDEX_MIGRATION = '${name}';
/** SQLite's entry in the index now: the listing query repeats it byte for byte. */
export const SQLITE_ACTIVITY_ENTRY: string =
  ${literalOf(definition.sqliteEntry, '  ')};
/** PostgreSQL's INCLUDE columns of the index now. */
export const POSTGRES_LISTING_INCLUDE: readonly string[] = [${include}];
`;
}

/** Source lines longer than this are cut between the parts of a rendering. */
const LINE_WIDTH = 110;

/** A TypeScript expression for the text: template literals joined by `+`, cut after ` || `. */
function literalOf(text: string, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const part of text.split(/(?<= \|\| )/)) {
    if (line !== '' && line.length + part.length > LINE_WIDTH) {
      lines.push(line);
      line = '';
    }
    line += part;
  }
  lines.push(line);
  return lines.map((each) => `\`${each.replace(/[\\`]|\$\{/g, (special) => `\\${special}`)}\``).join(` +\n${indent}`);
}

function describeDifference(wanted: ListingIndexDefinition, frozen: ListingIndexDefinition): string[] {
  const lines: string[] = [];
  if (wanted.sqliteEntry !== frozen.sqliteEntry) lines.push(`  SQLite entry: the schema renders\n    ${wanted.sqliteEntry}\n  where the index holds\n    ${frozen.sqliteEntry}`);
  if (!sameListingIndex({ ...wanted, sqliteEntry: '' }, { ...frozen, sqliteEntry: '' })) {
    lines.push(`  PostgreSQL include: the schema calls for (${wanted.postgresInclude.join(', ')}) where the index has (${frozen.postgresInclude.join(', ')})`);
  }
  return lines;
}

const migrationNamesOnDisk = () => migrationFiles(fs.readdirSync(MIGRATIONS));

/**
 * Compares the index the fields call for (the Activity record's, unless told) with the frozen one,
 * then writes the migration, or with --check only says whether one is due. Answers the exit code.
 */
export function main(args: readonly string[], fields: readonly RenderedField[] = activityListingFields()): number {
  const unknown = args.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    console.error(`db:listing: unknown argument ${unknown.join(' ')} (usage: npm run db:listing [-- --check])`);
    return 2;
  }
  const migration = listingMigrationFor(fields, frozenListingIndex, migrationNamesOnDisk());
  if (migration === undefined) {
    console.log(`${LISTING_INDEX} is what the Activity schema calls for (as ${LISTING_INDEX_MIGRATION} built it): nothing to do.`);
    return 0;
  }
  const difference = describeDifference(migration.definition, frozenListingIndex).join('\n');
  if (args.includes('--check')) {
    console.error(
      `${LISTING_INDEX} is out of date: the Activity schema and ACTIVITY_COLUMNS (src/areas/activities) call for another index ` +
        `than the one ${LISTING_INDEX_MIGRATION} built (src/db/frozen/activity-listing.ts).\n${difference}\n` +
        'Run `npm run db:listing` to write the migration that rebuilds it (docs/architecture.md "Add a field").',
    );
    return 1;
  }
  fs.writeFileSync(path.join(MIGRATIONS, migration.file), migration.source);
  fs.writeFileSync(FROZEN, frozenWith(fs.readFileSync(FROZEN, 'utf8'), migration.name, migration.definition));
  console.log(
    `${LISTING_INDEX} changes:\n${difference}\nWrote src/db/migrations/${migration.file} ` +
      'and recorded its index as the current one in src/db/frozen/activity-listing.ts.',
  );
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
