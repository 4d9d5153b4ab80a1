import { createHash } from 'node:crypto';
import { setImmediate as turn } from 'node:timers/promises';
import { normalizeEmail, isEmail } from '../../lib/email.js';
import { placeColumns, roleHeader, type ColumnPlaces, type CsvLayout, type Role } from './sources/columns.js';
import {
  calendarDate,
  currencyOfHeader,
  decideDateFormat,
  instantOf,
  nextDay,
  readCurrency,
  readDate,
  readDecimal,
  readHours,
  readTime,
  readYesNo,
  type DateFormat,
} from './reading.js';
import type { ImportProblem } from './schemas.js';

/*
 * From a CSV export's rows to entries (docs/rules.md §6 Imports): each row read by its source's layout,
 * its dates in the order the whole file decides, its times in the import's zone. Pure.
 */

/** Who an entry belongs to: an email (found or to be invited), or a user of the workspace found by name. */
export type PersonRef = { email: string; name: string | null } | { userId: string };

/** One row of the file, read. */
export interface ReadEntry {
  row: number;
  person: PersonRef;
  client: string | null;
  project: string | null;
  task: string | null;
  description: string;
  billable: boolean | null;
  startedAt: string;
  endedAt: string;
  tags: string[];
  revenueRate: number | null;
  costRate: number | null;
  currency: string | null;
  /** Where it came from: the same row of a later export has the same key (see entryKey). */
  key: string;
}

/** The workspace's people, as the rows look them up. */
export interface PeopleLookup {
  /** Users by full name (trimmed, lower case): their ids, several when a name is shared. */
  byName: ReadonlyMap<string, readonly string[]>;
}

export interface ReadOptions {
  timeZone: string;
  dateFormat?: DateFormat;
}

export interface ReadResult {
  entries: ReadEntry[];
  errors: ImportProblem[];
  /** A problem of the whole file (a missing column, dates that decide nothing): nothing is imported. */
  fatal: ImportProblem[];
  rows: number;
}

const problem = (row: number, column: string | null, code: string, message: string): ImportProblem => ({ row, column, code, message });

const HARVEST_DAY_START = '09:00:00';

/**
 * Rows read between two turns of the event loop: the reading of a large file gives way to the other
 * requests this often, so that none of them waits for more than a moment of it.
 */
const GIVE_WAY_ROWS = 25;

/** The key of a row that has no id of its source: its person, start, end, description and project. */
function entryKey(person: PersonRef, startedAt: string, endedAt: string, description: string, project: string | null): string {
  const who = 'email' in person ? `email:${person.email}` : `user:${person.userId}`;
  return createHash('sha256')
    .update(JSON.stringify([who, startedAt, endedAt, description.trim(), (project ?? '').trim().toLowerCase()]))
    .digest('base64url');
}

/**
 * Reads every row of a file with a source's layout, in two passes of `records()` (the header first
 * each time): the dates, whose order the whole file decides, then the rows. `progress` hears the rows
 * read now and then.
 */
export async function readRows(
  layout: CsvLayout,
  records: () => AsyncIterable<string[]>,
  options: ReadOptions,
  people: PeopleLookup,
  progress: (counts: { rows?: number; rowsDone?: number }) => Promise<void>,
): Promise<ReadResult> {
  let headers: string[] | undefined;
  let places: ColumnPlaces = {};
  let rows = 0;
  let decided: DateFormat | undefined = options.dateFormat;
  let firstAmbiguous: number | undefined;
  for await (const cells of records()) {
    if (headers === undefined) {
      headers = cells;
      const placed = placeColumns(layout, headers);
      if (placed.missing.length > 0) {
        const fatal = placed.missing.map((role) => {
          const column = roleHeader(layout, role);
          return problem(0, column, 'missing-column', `The file has no column "${column}".`);
        });
        let count = 0;
        for await (const _record of records()) count++;
        return { entries: [], errors: [], fatal, rows: Math.max(0, count - 1) };
      }
      places = placed.places;
      continue;
    }
    rows++;
    if (rows % GIVE_WAY_ROWS === 0) await turn();
    for (const role of ['startDate', 'endDate'] as const) {
      const place = places[role];
      const date = place === undefined ? undefined : readDate(cells[place.index] ?? '');
      if (!date?.ambiguous) continue;
      firstAmbiguous ??= rows;
      decided ??= decideDateFormat([date]);
    }
  }
  await progress({ rows, rowsDone: 0 });
  const column = (role: Role) => places[role]?.header ?? roleHeader(layout, role);
  const errors: ImportProblem[] = [];
  if (decided === undefined && firstAmbiguous !== undefined) {
    const fatal = [problem(firstAmbiguous, column('startDate'), 'date-format-ambiguous', 'No date of the file tells day from month: run the import again with dateFormat MDY or DMY.')];
    return { entries: [], errors, fatal, rows };
  }
  const reader = rowReader(layout, places, { ...options, dateFormat: decided }, people, column);
  let row = 0;
  let header = true;
  for await (const cells of records()) {
    if (header) {
      header = false;
      continue;
    }
    row++;
    reader.read(cells, row);
    if (row % GIVE_WAY_ROWS === 0) await turn();
    if (row % 5000 === 0) await progress({ rowsDone: row });
  }
  return { entries: reader.entries, errors: reader.errors, fatal: [], rows };
}

/** Reads rows one at a time, once the file's date format is known. */
function rowReader(layout: CsvLayout, places: ColumnPlaces, options: ReadOptions, people: PeopleLookup, column: (role: Role) => string) {
  const { dateFormat } = options;
  const entries: ReadEntry[] = [];
  const errors: ImportProblem[] = [];
  const cell = (cells: readonly string[], role: Role): string | undefined => {
    const place = places[role];
    return place === undefined ? undefined : (cells[place.index] ?? '').trim();
  };
  /** Harvest: where the next entry of a person's day starts, in milliseconds after 09:00. */
  const dayFilled = new Map<string, number>();
  const read = (cells: readonly string[], row: number) => {
    const rowErrors: ImportProblem[] = [];
    const fail = (role: Role, code: string, message: string) => rowErrors.push(problem(row, column(role), code, message));
    const person = personOf(cells, cell, people, fail);
    const startDay = dateOf(cell(cells, 'startDate') ?? '', dateFormat);
    if (startDay === undefined) fail('startDate', 'invalid-date', `"${cell(cells, 'startDate')}" is not a date${dateFormat ? ` (${dateFormat})` : ''}.`);

    let startedAt: string | undefined;
    let endedAt: string | undefined;
    if (layout.hoursOnly) {
      const seconds = readHours(cell(cells, 'hours') ?? '');
      if (seconds === undefined) fail('hours', 'invalid-number', `"${cell(cells, 'hours')}" is not a number of hours.`);
      if (startDay !== undefined && seconds !== undefined && person !== undefined) {
        const dayStart = instantOf(startDay, HARVEST_DAY_START, options.timeZone);
        const dayKey = `${'email' in person ? person.email : person.userId}\n${startDay}`;
        const filled = dayFilled.get(dayKey) ?? 0;
        dayFilled.set(dayKey, filled + seconds * 1000);
        if (dayStart !== undefined) {
          startedAt = new Date(Date.parse(dayStart) + filled).toISOString();
          endedAt = new Date(Date.parse(dayStart) + filled + seconds * 1000).toISOString();
        }
      }
    } else {
      const startTime = readTime(cell(cells, 'startTime') ?? '');
      const endTime = readTime(cell(cells, 'endTime') ?? '');
      if (startTime === undefined) fail('startTime', 'invalid-time', `"${cell(cells, 'startTime')}" is not a time.`);
      if (endTime === undefined) fail('endTime', 'invalid-time', `"${cell(cells, 'endTime')}" is not a time.`);
      let endDay: string | undefined = startDay;
      if (places.endDate !== undefined) {
        endDay = dateOf(cell(cells, 'endDate') ?? '', dateFormat);
        if (endDay === undefined) fail('endDate', 'invalid-date', `"${cell(cells, 'endDate')}" is not a date${dateFormat ? ` (${dateFormat})` : ''}.`);
      } else if (layout.endOnStartDay && startDay !== undefined && startTime !== undefined && endTime !== undefined && endTime < startTime) {
        endDay = nextDay(startDay);
      }
      if (startDay !== undefined && startTime !== undefined) {
        startedAt = instantOf(startDay, startTime, options.timeZone);
        if (startedAt === undefined) fail('startTime', 'invalid-time', `${startDay} ${startTime} does not exist in ${options.timeZone} (the clock moves forward).`);
      }
      if (endDay !== undefined && endTime !== undefined) {
        endedAt = instantOf(endDay, endTime, options.timeZone);
        if (endedAt === undefined) fail('endTime', 'invalid-time', `${endDay} ${endTime} does not exist in ${options.timeZone} (the clock moves forward).`);
      }
      if (startedAt !== undefined && endedAt !== undefined && endedAt < startedAt) fail('endTime', 'end-before-start', 'The entry ends before it starts.');
    }

    const billableCell = cell(cells, 'billable');
    const billable = readYesNo(billableCell);
    if (billableCell && billable === undefined) fail('billable', 'invalid-value', `"${billableCell}" is neither yes nor no.`);
    const revenueRate = moneyOf(cell(cells, 'revenueRate'), 'revenueRate', fail);
    const costRate = moneyOf(cell(cells, 'costRate'), 'costRate', fail);
    const currency =
      readCurrency(cell(cells, 'currency')) ?? (places.revenueRate ? currencyOfHeader(places.revenueRate.header) : undefined) ?? null;

    if (rowErrors.length > 0 || person === undefined || startedAt === undefined || endedAt === undefined) {
      errors.push(...rowErrors);
      return;
    }
    const project = cell(cells, 'project') || null;
    const description = cell(cells, 'description') ?? '';
    entries.push({
      row,
      person,
      client: cell(cells, 'client') || null,
      project,
      task: cell(cells, 'task') || null,
      description,
      billable: billable ?? null,
      startedAt,
      endedAt,
      tags: tagsOf(cell(cells, 'tags')),
      revenueRate,
      costRate,
      currency,
      key: entryKey(person, startedAt, endedAt, description, project),
    });
  };
  return { entries, errors, read };
}

const dateOf = (text: string, format: DateFormat | undefined): string | undefined => {
  const date = readDate(text);
  return date && calendarDate(date, format);
};

function personOf(
  cells: readonly string[],
  cell: (cells: readonly string[], role: Role) => string | undefined,
  people: PeopleLookup,
  fail: (role: Role, code: string, message: string) => void,
): PersonRef | undefined {
  const emailCell = cell(cells, 'email');
  const name = cell(cells, 'user') || [cell(cells, 'firstName'), cell(cells, 'lastName')].filter(Boolean).join(' ') || null;
  if (emailCell) {
    const email = normalizeEmail(emailCell);
    if (isEmail(email)) return { email, name };
    fail('email', 'invalid-email', `"${emailCell}" is not an email address.`);
    return undefined;
  }
  const found = name === null ? [] : (people.byName.get(name.toLowerCase()) ?? []);
  if (found.length === 1) return { userId: found[0] };
  const role: Role = cell(cells, 'firstName') !== undefined ? 'firstName' : 'email';
  fail(
    role,
    'user-unknown',
    name === null
      ? 'The row names nobody.'
      : found.length > 1
        ? `Several people of the workspace are named "${name}".`
        : `Nobody of the workspace is named "${name}": invite them first, or import a file with their email.`,
  );
  return undefined;
}

function moneyOf(text: string | undefined, role: Role, fail: (role: Role, code: string, message: string) => void): number | null {
  if (!text) return null;
  const value = readDecimal(text);
  if (value === undefined) fail(role, 'invalid-number', `"${text}" is not an amount.`);
  return value ?? null;
}

const tagsOf = (text: string | undefined): string[] => [
  ...new Map(
    (text ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '')
      .map((tag) => [tag.toLowerCase(), tag] as const),
  ).values(),
];
