import { DateTime, IANAZone } from 'luxon';
import { ApiError, invalid } from '../../../domain/errors.js';

/** The time dimensions: an entry's day, ISO week and month on the calendar of the report's time zone. */
export type TimeDimension = 'day' | 'week' | 'month';

export const isTimeDimension = (dimension: string): dimension is TimeDimension =>
  dimension === 'day' || dimension === 'week' || dimension === 'month';

/** More buckets than this of one time dimension, when empty buckets are filled, is 422. */
export const MAX_FILLED_BUCKETS = 1_000;

/** The longest period a report grouped by day, week or month may cover, in years (422 beyond). */
export const MAX_TIME_SPAN_YEARS = 100;

export function assertTimeSpan(period: { start: string; end: string }): void {
  if (Date.parse(period.end) - Date.parse(period.start) > MAX_TIME_SPAN_YEARS * 366 * DAY_MS) {
    throw new ApiError(
      'validation',
      `A report grouped by day, week or month covers at most ${MAX_TIME_SPAN_YEARS} years: narrow the period or group by project, user or member only.`,
    );
  }
}

/** From `from` (epoch ms; -Infinity for the first) on, the zone is `offsetSeconds` ahead of UTC. */
export interface OffsetSegment {
  from: number;
  offsetSeconds: number;
}

const DAY_MS = 86_400_000;

/**
 * The zone's UTC offsets over `[startMs, endMs)`, with the exact instants where they change (DST): an
 * entry's local time is its startedAt plus the offset of its own segment, so entries on both sides of
 * a change land on their own days. Probed once a day (no zone changes its offset twice within a day)
 * and each change found to the millisecond by bisection.
 */
export function offsetSegments(zone: string, startMs: number, endMs: number): OffsetSegment[] {
  const tz = IANAZone.create(zone);
  const offsetAt = (ms: number) => tz.offset(ms) * 60;
  const segments: OffsetSegment[] = [{ from: -Infinity, offsetSeconds: offsetAt(startMs) }];
  for (let probe = startMs; probe < endMs; ) {
    const next = Math.min(probe + DAY_MS, endMs);
    const current = segments[segments.length - 1].offsetSeconds;
    if (offsetAt(next) !== current) {
      let low = probe;
      let high = next;
      while (high - low > 1) {
        const middle = Math.floor((low + high) / 2);
        if (offsetAt(middle) === current) low = middle;
        else high = middle;
      }
      segments.push({ from: high, offsetSeconds: offsetAt(high) });
      probe = high;
    } else {
      probe = next;
    }
  }
  return segments;
}

/** The zone's UTC offsets (seconds) over a period, and the instants they change at: what the statements bucket entries with. */
export interface ZoneOffsets {
  changes: string[];
  offsets: number[];
}

export function zoneOffsets(zone: string, period: { start: string; end: string }): ZoneOffsets {
  const segments = offsetSegments(zone, Date.parse(period.start), Date.parse(period.end));
  return { changes: segments.slice(1).map((segment) => new Date(segment.from).toISOString()), offsets: segments.map((segment) => segment.offsetSeconds) };
}

/*
 * Bucket keys are calendar dates of the report's zone, so their arithmetic is plain UTC day counts:
 * no zone and no library object per row (a filled report labels up to 100,000 rows).
 */

/** A `YYYY-MM-DD` date as days since 1970-01-01. */
const dayNumber = (date: string): number =>
  new Date(0).setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
/** The ISO weekday of a day number: 1 Monday … 7 Sunday (1970-01-01 was a Thursday). */
const isoWeekday = (day: number): number => ((((day + 3) % 7) + 7) % 7) + 1;
const calendarOf = (day: number) => {
  const at = new Date(day * DAY_MS);
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() };
};
const weekKeyOfDay = (day: number): string => {
  // An ISO week belongs to the year of its Thursday, and is counted from that year's first Thursday's week.
  const thursday = day - isoWeekday(day) + 4;
  const year = calendarOf(thursday).year;
  const week = Math.floor((thursday - dayNumber(`${String(year).padStart(4, '0')}-01-01`)) / 7) + 1;
  return `${String(year).padStart(4, '0')}-W${String(week).padStart(2, '0')}`;
};

/** An ISO week's key from its Monday (`2026-06-29` → `2026-W27`). */
export function weekKeyOfMonday(monday: string): string {
  return weekKeyOfDay(dayNumber(monday));
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const short = (month: number) => MONTHS[month - 1].slice(0, 3);

/**
 * The label of a bucket (fixed English, independent of the server's locale): a day `Wed, 1 Jul 2026`,
 * a week `2026-W27 (29 Jun – 5 Jul 2026)`, a month `July 2026`.
 */
export function bucketLabel(dimension: TimeDimension, key: string): string {
  if (dimension === 'month') {
    const [year, month] = key.split('-').map(Number);
    return `${MONTHS[month - 1]} ${year}`;
  }
  if (dimension === 'day') {
    const day = dayNumber(key);
    const at = calendarOf(day);
    return `${WEEKDAYS[isoWeekday(day) - 1]}, ${at.day} ${short(at.month)} ${at.year}`;
  }
  const [year, week] = key.split('-W').map(Number);
  // Week 1 is the week holding 4 January.
  const january4 = dayNumber(`${String(year).padStart(4, '0')}-01-04`);
  const mondayNumber = january4 - isoWeekday(january4) + 1 + (week - 1) * 7;
  const monday = calendarOf(mondayNumber);
  const sunday = calendarOf(mondayNumber + 6);
  return `${key} (${monday.day} ${short(monday.month)} – ${sunday.day} ${short(sunday.month)} ${sunday.year})`;
}

/** The bucket of a time dimension an instant falls in, on the zone's calendar. */
export function bucketKeyOf(dimension: TimeDimension, at: DateTime): string {
  if (dimension === 'day') return at.toISODate()!;
  if (dimension === 'month') return at.toFormat('yyyy-MM');
  return weekKey(at);
}

const weekKey = (at: DateTime): string => `${String(at.weekYear).padStart(4, '0')}-W${String(at.weekNumber).padStart(2, '0')}`;

/**
 * Every bucket from the one holding `start` to the one holding the last instant before `end`, in
 * order, for filling empty rows. More than MAX_FILLED_BUCKETS is 422.
 */
export function bucketsBetween(dimension: TimeDimension, start: string, end: string, zone: string): string[] {
  const unit = dimension === 'day' ? 'day' : dimension === 'week' ? 'week' : 'month';
  let at = DateTime.fromISO(start, { zone }).startOf(unit);
  const last = DateTime.fromMillis(Date.parse(end) - 1, { zone });
  const keys: string[] = [];
  while (at <= last) {
    if (keys.length === MAX_FILLED_BUCKETS) {
      throw invalid(
        '/body/hideEmptyRows',
        `cannot be false for more than ${MAX_FILLED_BUCKETS} buckets of ${dimension}: narrow the period, hide empty rows or group by a longer unit`,
      );
    }
    keys.push(bucketKeyOf(dimension, at));
    at = at.plus({ [`${unit}s`]: 1 });
  }
  return keys;
}
