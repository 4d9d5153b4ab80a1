/**
 * `Content-Disposition: attachment` with a file name every client can use (RFC 6266): `filename` an
 * ASCII fallback (letters, digits, `.`, `-`, `_`; anything else `_`), `filename*` the UTF-8 name
 * percent-encoded (RFC 8187), which current browsers prefer.
 */

/** The longest file name stem, in characters (names are at most 200 characters; a date and an extension follow). */
const MAX_STEM = 120;

/** A file name stem from a report's name: no path separators, controls or quotes, trimmed, never empty. */
function stemOf(name: string): string {
  const cleaned = name
    .replace(/[\p{Cc}\p{Cf}\\/:*?"<>|]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const stem = [...cleaned].slice(0, MAX_STEM).join('').trim();
  return stem === '' || /^\.+$/.test(stem) ? 'Report' : stem;
}

/** The ASCII fallback of a file name: every other character, and spaces, become `_`. */
const asciiOf = (name: string): string =>
  name
    .replace(/\u2013/g, '-')
    .normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9._-]/g, '_');

/** RFC 8187 value characters: encodeURIComponent leaves `'()*!` as they are, which attr-char does not allow. */
const extValue = (name: string): string =>
  encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The calendar days a period covers, in its zone: its first and its last (the day before its end). */
export interface PeriodDays {
  first: string;
  last: string;
}

/**
 * The file name of an export: the report's name ("Report" when it has none), the first and last days
 * of its period joined by an en dash, a detailed report's `entries`, the format's extension
 * (`July 2026-07-01–2026-07-31.csv`).
 */
export function exportFileName(reportName: string | undefined, days: PeriodDays, extension: string, suffix?: string): string {
  return `${stemOf(reportName ?? '')} ${days.first}\u2013${days.last}${suffix ? ` ${suffix}` : ''}.${extension}`;
}

/** The header value for a download of this file name. */
export function attachment(fileName: string): string {
  return `attachment; filename="${asciiOf(fileName)}"; filename*=UTF-8''${extValue(fileName)}`;
}
