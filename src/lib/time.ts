/** Instants in and out of the API (docs/rules.md §4): in with an offset, out as UTC with milliseconds and Z. */

const WITH_OFFSET =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** The canonical stored and returned form of an instant. */
export const nowIso = (): string => new Date().toISOString();

/**
 * Parses an ISO 8601 date-time that carries an offset into canonical UTC form, or returns null when
 * the text has no offset, is not a real date, or falls outside years 0000–9999.
 */
export function toUtcIso(text: string): string | null {
  if (!WITH_OFFSET.test(text)) return null;
  const date = new Date(text);
  const ms = date.getTime();
  if (Number.isNaN(ms) || !sameCalendarFields(text, date)) return null;
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) return null;
  return date.toISOString();
}

/** Date.parse rolls 2026-02-30 over into March; a real date must keep the fields it was given. */
function sameCalendarFields(text: string, date: Date): boolean {
  // The text matched WITH_OFFSET: it ends in Z or ±hh:mm.
  const zulu = text.endsWith('Z') || text.endsWith('z');
  const offsetMinutes = zulu
    ? 0
    : (text[text.length - 6] === '-' ? -1 : 1) * (Number(text.slice(-5, -3)) * 60 + Number(text.slice(-2)));
  const local = new Date(date.getTime() + offsetMinutes * 60_000);
  return (
    local.getUTCFullYear() === Number(text.slice(0, 4)) &&
    local.getUTCMonth() + 1 === Number(text.slice(5, 7)) &&
    local.getUTCDate() === Number(text.slice(8, 10))
  );
}

export const addHours = (iso: string, hours: number): string =>
  new Date(new Date(iso).getTime() + hours * 3_600_000).toISOString();

export const addMinutes = (iso: string, minutes: number): string =>
  new Date(new Date(iso).getTime() + minutes * 60_000).toISOString();
