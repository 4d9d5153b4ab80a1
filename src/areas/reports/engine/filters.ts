/**
 * The filter grammar of a report (docs/rules.md §6 Reports). Each filter object is understood when every
 * key it has is one of these, with a value of the right type; understood filters all apply (AND):
 *
 * - `{"billable": true|false}`: only billable, or only non-billable, entries;
 * - `{"userIds": ["<userId>", …]}`: only entries of these users;
 * - `{"projectIds": ["<projectId>", null, …]}`: only entries on these projects, `null` meaning "no project";
 * - `{"nameContains": "text"}`: only entries whose name contains the text (1–200 characters; ASCII
 *   letters compare without regard to case, every other character exactly).
 *
 * Any other object is listed in the result's `ignoredFilters`, as it was sent, and changes nothing.
 */
export interface EntryFilters {
  /** Each filter narrows further: an entry must match every one given. */
  billable: boolean[];
  userIds: string[][];
  projectIds: Array<{ ids: string[]; noProject: boolean }>;
  nameContains: string[];
}

export interface ParsedFilters {
  filters: EntryFilters;
  ignored: Array<Record<string, unknown>>;
}

const MAX_IDS = 1_000;
const isIdList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length <= MAX_IDS && value.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 64);

type Apply = (filters: EntryFilters, value: unknown) => boolean;

/** Each known key: applies its value and answers true, or answers false for a value it does not understand. */
const KEYS: Record<string, Apply> = {
  billable: (filters, value) => {
    if (typeof value !== 'boolean') return false;
    filters.billable.push(value);
    return true;
  },
  userIds: (filters, value) => {
    if (!isIdList(value)) return false;
    filters.userIds.push(value);
    return true;
  },
  projectIds: (filters, value) => {
    if (!Array.isArray(value) || value.length > MAX_IDS) return false;
    const ids = value.filter((id) => id !== null);
    if (!isIdList(ids)) return false;
    filters.projectIds.push({ ids, noProject: ids.length < value.length });
    return true;
  },
  nameContains: (filters, value) => {
    if (typeof value !== 'string' || value.length === 0 || value.length > 200) return false;
    filters.nameContains.push(value);
    return true;
  },
};

export function parseFilters(objects: ReadonlyArray<Record<string, unknown>>): ParsedFilters {
  const filters = noFilters();
  const ignored: Array<Record<string, unknown>> = [];
  for (const object of objects) {
    const keys = Object.keys(object);
    const understood = keys.length > 0 && keys.every((key) => Object.hasOwn(KEYS, key) && validFor(key, object[key]));
    if (!understood) {
      ignored.push(object);
      continue;
    }
    for (const key of keys) KEYS[key](filters, object[key]);
  }
  return { filters, ignored };
}

/** Whether the key's rule understands the value (checked on a scratch copy, so a half-understood object applies nothing). */
const validFor = (key: string, value: unknown): boolean => KEYS[key](noFilters(), value);

const noFilters = (): EntryFilters => ({ billable: [], userIds: [], projectIds: [], nameContains: [] });
