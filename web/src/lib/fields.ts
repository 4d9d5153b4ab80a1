/*
 * Date and time fields as text, in the person's locale and clock (docs/web-app.md, "Date and time
 * fields"): what a field shows, the format it hints at, and what it reads back. Values are the
 * page's own: a time of day is `HH:MM` (24 h), a day `YYYY-MM-DD`; Intl gives the locale's order.
 */

/** Whether times are shown on a 24-hour clock: the person's preference, else their locale's habit. */
export function uses24HourClock(locale: string, clock24Hour?: boolean): boolean {
  if (clock24Hour !== undefined) return clock24Hour;
  const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
  return cycle === 'h23' || cycle === 'h24';
}

/** A time of day (`HH:MM`) as the person reads it: "13:05" on a 24-hour clock, "1:05 PM" on a 12-hour one. */
export function timeText(value: string, locale: string, clock24: boolean): string {
  const time = readTime(value);
  if (!time) return value;
  return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', hour: clock24 ? '2-digit' : 'numeric', minute: '2-digit', hourCycle: clock24 ? 'h23' : 'h12' }).format(
    new Date(Date.UTC(2000, 0, 1, time.hour, time.minute)),
  );
}

/** The format a time field hints at. */
export const timeHint = (clock24: boolean): string => (clock24 ? 'HH:MM' : 'H:MM AM');

/**
 * A typed time of day, as `HH:MM`: "13:05", "13.05", "1305", "9", "1:05 PM", "1:05pm", "1 pm"
 * (AM/PM is read on either clock). Null when it is none of these.
 */
export function parseTimeText(text: string): string | null {
  const match = /^(\d{1,2})(?:[:.h]?(\d{2}))?\s*(?:([ap])\.?\s*m?\.?)?$/.exec(text.trim().toLowerCase());
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  if (minute > 59) return null;
  if (match[3]) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (match[3] === 'p' ? 12 : 0);
  } else if (hour > 23) return null;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

function readTime(value: string): { hour: number; minute: number } | null {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  return match ? { hour: Number(match[1]), minute: Number(match[2]) } : null;
}

/** The locale's short date, with the year in full: de "07.12.2026", en-GB "07/12/2026", en-US "12/7/2026". */
function dateParts(locale: string, day: Date): Intl.DateTimeFormatPart[] {
  return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', dateStyle: 'short' })
    .formatToParts(day)
    .map((part) => (part.type === 'year' ? { ...part, value: String(day.getUTCFullYear()) } : part));
}

/** A day (`YYYY-MM-DD`) as the person reads it, in their locale's order. */
export function dateText(value: string, locale: string): string {
  const day = readIsoDate(value);
  return day ? dateParts(locale, day).map((part) => part.value).join('') : value;
}

/** The format a date field hints at: "DD.MM.YYYY", "MM/DD/YYYY". */
export function dateHint(locale: string): string {
  const names: Partial<Record<string, string>> = { day: 'DD', month: 'MM', year: 'YYYY' };
  return dateParts(locale, new Date(Date.UTC(2026, 11, 7)))
    .map((part) => (part.type === 'literal' ? part.value : (names[part.type] ?? '')))
    .join('');
}

/**
 * A typed day, as `YYYY-MM-DD`: ISO ("2026-12-07") or the locale's order with any separators
 * ("07.12.2026", "7/12/26"; a two-digit year is this century's). Null when it is neither, or no such day.
 */
export function parseDateText(text: string, locale: string): string | null {
  const value = text.trim();
  if (readIsoDate(value)) return value;
  const numbers = value.split(/[^\d]+/).filter(Boolean);
  if (numbers.length !== 3 || !/^\d+([^\d]+\d+){2}$/.test(value)) return null;
  const order: string[] = dateParts(locale, new Date(Date.UTC(2026, 11, 7)))
    .map((part) => part.type)
    .filter((type) => type === 'day' || type === 'month' || type === 'year');
  const at = (type: string) => numbers[order.indexOf(type)].padStart(2, '0');
  const year = numbers[order.indexOf('year')];
  if (year.length !== 2 && year.length !== 4) return null;
  const iso = `${year.length === 2 ? `20${year}` : year}-${at('month')}-${at('day')}`;
  return readIsoDate(iso) ? iso : null;
}

function readIsoDate(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return day.getUTCMonth() === Number(match[2]) - 1 && day.getUTCDate() === Number(match[3]) ? day : null;
}
