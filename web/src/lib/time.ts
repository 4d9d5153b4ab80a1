/*
 * Calendar arithmetic in a named time zone, with Intl only. A "day" is a plain calendar date,
 * held as a Date at 00:00 UTC of that date (so adding days never meets a DST change).
 */

export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partFormats.set(timeZone, format);
  }
  return format;
}

export function zonedParts(instant: Date | number, timeZone: string): ZonedParts {
  const parts: Record<string, number> = {};
  for (const part of partsFormat(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour % 24, minute: parts.minute, second: parts.second };
}

function offsetAt(ms: number, timeZone: string): number {
  const p = zonedParts(ms, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/** The instant of a wall-clock time in a time zone (a time skipped by DST moves forward). */
export function zonedInstant(day: Date, hour: number, minute: number, timeZone: string): Date {
  const guess = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hour, minute);
  const first = guess - offsetAt(guess, timeZone);
  const second = guess - offsetAt(first, timeZone);
  return new Date(second);
}

/** The calendar day an instant falls on in a time zone. */
export function dayOf(instant: Date | number, timeZone: string): Date {
  const p = zonedParts(instant, timeZone);
  return new Date(Date.UTC(p.year, p.month - 1, p.day));
}

export const addDays = (day: Date, days: number): Date => new Date(day.getTime() + days * 86_400_000);

/** A stable key for a day: `2026-03-02`. */
export const dayKey = (day: Date): string => day.toISOString().slice(0, 10);

/** The ISO 8601 week of a day: its week-numbering year and week number. */
export function isoWeek(day: Date): { year: number; week: number } {
  const weekday = (day.getUTCDay() + 6) % 7; // Monday 0
  const thursday = addDays(day, 3 - weekday);
  const year = thursday.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(year, 0, 4));
  const week = 1 + Math.round((thursday.getTime() - addDays(firstThursday, -((firstThursday.getUTCDay() + 6) % 7) + 3).getTime()) / (7 * 86_400_000));
  return { year, week };
}

/** The Monday of the week a day is in. */
export const mondayOf = (day: Date): Date => addDays(day, -((day.getUTCDay() + 6) % 7));

/** The Monday of an ISO week. */
export function mondayOfWeek(year: number, week: number): Date {
  const jan4 = new Date(Date.UTC(year, 0, 4));
  return addDays(mondayOf(jan4), (week - 1) * 7);
}

/** The seven days of the week that begins on a Monday. */
export const weekDays = (monday: Date): Date[] => Array.from({ length: 7 }, (_, i) => addDays(monday, i));

/** `HH:MM` of an instant in a time zone, as an `<input type="time">` holds it. */
export function timeInputValue(instant: Date | number, timeZone: string): string {
  const p = zonedParts(instant, timeZone);
  return `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` of a day, as an `<input type="date">` holds it. */
export const dateInputValue = (day: Date): string => dayKey(day);

export function parseDateInput(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
}

export function parseTimeInput(value: string): { hour: number; minute: number } | null {
  const match = /^(\d{2}):(\d{2})/.exec(value);
  return match ? { hour: Number(match[1]), minute: Number(match[2]) } : null;
}

/**
 * A duration typed into a timesheet cell, in minutes: `1:30`, `1.5`, `1,5`, `90m`, `1h 30m`, `2h`;
 * empty is 0. Null when it is none of these (or negative, or longer than a day).
 */
export function parseDuration(text: string): number | null {
  const value = text.trim().toLowerCase();
  if (value === '') return 0;
  let minutes: number | null = null;
  let match: RegExpExecArray | null;
  if ((match = /^(\d{1,2}):([0-5]\d)$/.exec(value))) minutes = Number(match[1]) * 60 + Number(match[2]);
  else if ((match = /^(\d{1,2})(?:[.,](\d{1,2}))?\s*h?$/.exec(value))) minutes = Math.round(Number(`${match[1]}.${match[2] ?? '0'}`) * 60);
  else if ((match = /^(?:(\d{1,2})\s*h)?\s*(?:(\d{1,4})\s*m(?:in)?)?$/.exec(value)) && (match[1] || match[2])) {
    minutes = Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
  }
  return minutes !== null && minutes <= 24 * 60 ? minutes : null;
}
