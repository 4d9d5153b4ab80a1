import { DateTime } from 'luxon';
import { invalid } from '../domain/errors.js';

/** An ISO week: its week-numbering year and its number, 1–53. */
export interface IsoWeek {
  year: number;
  week: number;
}

/** Weeks in an ISO week-numbering year: 53 in long years (those with 53 Thursdays), else 52. */
export function weeksInYear(year: number): number {
  return DateTime.fromObject({ weekYear: year, weekNumber: 1, weekday: 1 }, { zone: 'UTC' }).weeksInWeekYear;
}

export const isRealWeek = (year: number, week: number): boolean =>
  Number.isInteger(year) && Number.isInteger(week) && year >= 1 && year <= 9999 && week >= 1 && week <= weeksInYear(year);

/** Throws 422 unless year/week name a real ISO week (week 53 only in long years). */
export function assertRealWeek(year: number, week: number, pointers: { year: string; week: string }): void {
  if (!Number.isInteger(year) || year < 1 || year > 9999) throw invalid(pointers.year, 'must be an ISO week-numbering year, 1–9999');
  const weeks = weeksInYear(year);
  if (!Number.isInteger(week) || week < 1 || week > weeks) {
    throw invalid(pointers.week, `must be an ISO week of ${year}: 1–${weeks}`);
  }
}

/**
 * Year and week from path values, parsed strictly (`5x`, `+5`, ` 5`, `5.0` are 422 at /path/year or
 * /path/week): four digits for the year, one or two for the week, and a real ISO week.
 */
export function weekOfPath(params: { year: string; week: string }): IsoWeek {
  if (!/^\d{4}$/.test(params.year)) throw invalid('/path/year', 'must be a four-digit ISO week-numbering year');
  if (!/^\d{1,2}$/.test(params.week)) throw invalid('/path/week', 'must be an ISO week number, 1–53');
  const year = Number(params.year);
  const week = Number(params.week);
  assertRealWeek(year, week, { year: '/path/year', week: '/path/week' });
  return { year, week };
}

/** The ISO week an instant falls in, on the calendar of a time zone. */
export function weekOf(instant: string | Date, zone: string): IsoWeek {
  // From milliseconds: the instants here are canonical already, and reading ISO text again costs more.
  const at = DateTime.fromMillis(typeof instant === 'string' ? Date.parse(instant) : instant.getTime(), { zone });
  return { year: at.weekYear, week: at.weekNumber };
}

/** Negative when a is before b, 0 when equal, positive when after. */
export const compareWeeks = (a: IsoWeek, b: IsoWeek): number => a.year - b.year || a.week - b.week;

/** The last ISO week that has fully elapsed at `now` in a time zone: the one before the current week. */
export function lastElapsedWeek(zone: string, now: Date = new Date()): IsoWeek {
  const previous = DateTime.fromJSDate(now, { zone }).minus({ weeks: 1 });
  return { year: previous.weekYear, week: previous.weekNumber };
}

/** The ISO week after a given one. */
export function nextWeek({ year, week }: IsoWeek): IsoWeek {
  const next = DateTime.fromObject({ weekYear: year, weekNumber: week, weekday: 1 }, { zone: 'UTC' }).plus({ weeks: 1 });
  return { year: next.weekYear, week: next.weekNumber };
}

/** Monday and Sunday of an ISO week, as calendar dates (YYYY-MM-DD). */
export function datesOfWeek({ year, week }: IsoWeek): { monday: string; sunday: string } {
  const monday = DateTime.fromObject({ weekYear: year, weekNumber: week, weekday: 1 }, { zone: 'UTC' });
  return { monday: monday.toISODate()!, sunday: monday.plus({ days: 6 }).toISODate()! };
}
