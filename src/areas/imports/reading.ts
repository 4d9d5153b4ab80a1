import { IANAZone } from 'luxon';

/*
 * Reading the cells of an export file (docs/rules.md §6 Imports): dates whose order the whole file
 * decides, 12- and 24-hour times, wall-clock times in a zone, decimal numbers with either separator,
 * and the currency of a cell or a header. Pure: no store, no actor.
 */

export type DateFormat = 'MDY' | 'DMY' | 'YMD';

/** A date as read from a cell: its three numbers, and whether day and month could be either way round. */
export interface ReadDate {
  year: number;
  first: number;
  second: number;
  /** True for `a/b/yyyy`, `a.b.yyyy`, `a-b-yyyy`: which of first and second is the day the file decides. */
  ambiguous: boolean;
}

const YEAR_FIRST = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/;
const YEAR_LAST = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})$/;

/** The numbers of a date cell (time part after a space or T left out), or undefined when it is none. */
export function readDate(cell: string): ReadDate | undefined {
  const text = cell.trim().split(/[ T]/)[0];
  let match = YEAR_FIRST.exec(text);
  if (match) return { year: Number(match[1]), first: Number(match[2]), second: Number(match[3]), ambiguous: false };
  match = YEAR_LAST.exec(text);
  if (!match) return undefined;
  const year = match[3].length === 2 ? 2000 + Number(match[3]) : Number(match[3]);
  return { year, first: Number(match[1]), second: Number(match[2]), ambiguous: true };
}

/** Which order a file's ambiguous dates are in, as its dates decide it (see decideDateFormat). */
export type DateDecision = { format: DateFormat } | { format: undefined; contradicting: false } | { format: DateFormat; contradicting: true };

/**
 * The whole file decides: one date whose first number is above 12 means DMY, one whose second is,
 * MDY. When both occur the first such date decides and the others are invalid dates; when none does,
 * nothing is decided (date-format-ambiguous unless the import names a dateFormat).
 */
export function decideDateFormat(dates: Iterable<ReadDate>): DateFormat | undefined {
  for (const date of dates) {
    if (!date.ambiguous) continue;
    if (date.first > 12 && date.second <= 12) return 'DMY';
    if (date.second > 12 && date.first <= 12) return 'MDY';
  }
  return undefined;
}

/** The calendar date `YYYY-MM-DD` of a read date in a format, or undefined when no such day exists. */
export function calendarDate(date: ReadDate, format: DateFormat | undefined): string | undefined {
  let month: number;
  let day: number;
  if (!date.ambiguous) [month, day] = [date.first, date.second];
  else if (format === 'DMY') [day, month] = [date.first, date.second];
  else if (format === 'MDY') [month, day] = [date.first, date.second];
  else return undefined;
  const text = `${String(date.year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const parsed = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== text ? undefined : text;
}

const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp]\.?[Mm]\.?)?$/;

/** `HH:MM[:SS]` on a 24-hour clock or `h:MM[:SS] AM|PM`, as `HH:MM:SS`; undefined when it is no time. */
export function readTime(cell: string): string | undefined {
  const text = cell.trim();
  // A date before the time (`2024-01-15 09:00:00`) is the date column's business.
  const match = TIME.exec(text.includes(' ') && /^\d{4}-/.test(text) ? text.slice(text.indexOf(' ') + 1) : text);
  if (!match) return undefined;
  let hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = match[3] === undefined ? 0 : Number(match[3]);
  if (minute > 59 || second > 59) return undefined;
  if (match[4] !== undefined) {
    if (hour < 1 || hour > 12) return undefined;
    const pm = match[4][0].toLowerCase() === 'p';
    hour = (hour % 12) + (pm ? 12 : 0);
  } else if (hour > 23) return undefined;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:${String(second).padStart(2, '0')}`;
}

const DAY_MS = 86_400_000;
/** Zones change their offset at whole quarter hours of UTC: one lookup serves a quarter hour. */
const QUARTER_MS = 900_000;

/** A zone's offset in minutes at an instant, looked up once per quarter hour (an import reads many times of few days). */
function offsetLookup(zone: string): (at: number) => number {
  const iana = IANAZone.create(zone);
  const quarters = new Map<number, number>();
  return (at) => {
    const quarter = Math.floor(at / QUARTER_MS);
    let offset = quarters.get(quarter);
    if (offset === undefined) {
      offset = iana.offset(quarter * QUARTER_MS);
      quarters.set(quarter, offset);
    }
    return offset;
  };
}

const lookups = new Map<string, (at: number) => number>();

/**
 * The instant of a wall-clock time in a zone, as a canonical UTC ISO string. A time the zone skips
 * (the hour a clock moves forward) is undefined; a time it has twice (the hour it moves back) is the
 * earlier instant. A candidate instant (the wall clock less an offset the zone has near that day) is
 * the time when the zone's offset at that instant is the one taken.
 */
export function instantOf(date: string, time: string, zone: string): string | undefined {
  let offsetAt = lookups.get(zone);
  if (offsetAt === undefined) {
    if (lookups.size > 100) lookups.clear();
    offsetAt = offsetLookup(zone);
    lookups.set(zone, offsetAt);
  }
  const asUtc = Date.parse(`${date}T${time}Z`);
  let earliest: number | undefined;
  for (const offset of new Set([offsetAt(asUtc - DAY_MS), offsetAt(asUtc), offsetAt(asUtc + DAY_MS)])) {
    const instant = asUtc - offset * 60_000;
    if (offsetAt(instant) === offset && (earliest === undefined || instant < earliest)) earliest = instant;
  }
  return earliest === undefined ? undefined : new Date(earliest).toISOString();
}

/** The calendar day after `YYYY-MM-DD`. */
export const nextDay = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/**
 * A decimal number as written in an export: `1.5`, `1,5`, `1,234.56`, `1.234,56`, `19.99`; with both
 * separators the last is the decimal one, a single comma alone is one too. Undefined when it is none
 * or negative. The text is kept as written (exact decimals: 19.99 stays 19.99).
 */
export function readDecimal(cell: string): number | undefined {
  let text = cell.trim().replace(/\s/g, '');
  if (text === '') return undefined;
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    text = lastComma > lastDot ? text.replace(/\./g, '').replace(',', '.') : text.replace(/,/g, '');
  } else if (lastComma >= 0) {
    if (text.indexOf(',') !== lastComma) return undefined;
    text = text.replace(',', '.');
  }
  if (!/^\d+(?:\.\d+)?$/.test(text)) return undefined;
  return Number(text);
}

/** Hours written as a decimal (`1.5`, `1,5`) or as `h:mm`, in seconds; undefined when it is none. */
export function readHours(cell: string): number | undefined {
  const clock = /^(\d+):([0-5]\d)(?::([0-5]\d))?$/.exec(cell.trim());
  if (clock) return Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3] ?? 0);
  const hours = readDecimal(cell);
  return hours === undefined ? undefined : Math.round(hours * 3600);
}

/** Yes/No, true/false, 1/0 (any case); undefined for an empty cell or anything else. */
export function readYesNo(cell: string | undefined): boolean | undefined {
  const text = (cell ?? '').trim().toLowerCase();
  if (['yes', 'true', '1', 'y', 'ja', 'oui'].includes(text)) return true;
  if (['no', 'false', '0', 'n', 'nein', 'non'].includes(text)) return false;
  return undefined;
}

/** The ISO 4217 code of a currency cell (`EUR`, `Euro - EUR`, `US Dollar - USD`), or undefined. */
export function readCurrency(cell: string | undefined): string | undefined {
  const match = /(?:^|[\s-])([A-Z]{3})\s*$/.exec((cell ?? '').trim());
  return match?.[1];
}

/** The currency a header names in parentheses (`Billable Rate (USD)`), or undefined. */
export const currencyOfHeader = (header: string): string | undefined => /\(([A-Z]{3})\)\s*$/.exec(header.trim())?.[1];
