/** Text as the pickers' searches compare it: case and accents aside (“cafe” finds “Café”). */
export function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().toLowerCase();
}

/** Whether `text` holds `query` (both folded); an empty query matches everything. */
export function holds(text: string, query: string): boolean {
  return folded(text).includes(folded(query.trim()));
}

/**
 * Whether two names are one name to the API: trimmed, NFC, case folded by upper- then lower-casing,
 * as it compares project, task and tag names ("Straße" = "STRASSE"; accents count).
 */
export function sameName(a: string, b: string): boolean {
  const key = (name: string) => name.trim().normalize('NFC').toUpperCase().toLowerCase();
  return key(a) === key(b);
}
