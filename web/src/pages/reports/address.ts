/*
 * A period in the Reports page's address: `/reports?start=<instant>&end=<instant>` opens the page on
 * that custom range, exactly, and runs it (Settings → Import links to an import's period this way).
 * Kept apart from definition.ts so a page linking here carries none of the report's code.
 */

export interface AddressPeriod {
  start: string;
  end: string;
}

/** An ISO 8601 instant with its time and offset, as the API writes them. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** The Reports page's address for a period (the instants encoded: an offset's `+` survives). */
export function reportsAddress(period: AddressPeriod): string {
  return `/reports?${new URLSearchParams({ start: period.start, end: period.end }).toString()}`;
}

/** A typed `+` of an offset arrives as a space (the query's encoding): it is put back. */
const instantOf = (text: string | null): number | null => {
  const value = text?.trim().replace(/ (\d{2}:?\d{2})$/, '+$1');
  if (!value || !INSTANT.test(value)) return null;
  const at = Date.parse(value);
  return Number.isFinite(at) ? at : null;
};

/** The period an address names (`start` before `end`, both instants with their offset), or null: then the page opens as always. */
export function periodInAddress(search: string): AddressPeriod | null {
  const query = new URLSearchParams(search);
  const start = instantOf(query.get('start'));
  const end = instantOf(query.get('end'));
  if (start === null || end === null || start >= end) return null;
  return { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
}
