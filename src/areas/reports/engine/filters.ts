/**
 * The filter grammar of a report (docs/rules.md §6 Reports). Each filter object is understood when every
 * key it has is one of these, with a value of the right type; understood filters all apply (AND):
 *
 * - `{"billable": true|false}`: only billable, or only non-billable, entries;
 * - `{"userIds": ["<userId>", …]}`: only entries of these users;
 * - `{"projectIds": ["<projectId>", null, …]}`: only entries on these projects, `null` meaning "no project";
 * - `{"clientIds": ["<clientId>", null, …]}`: only entries on projects of these clients, `null` meaning
 *   "no client" (a project without one, or no project);
 * - `{"taskIds": ["<taskId>", null, …]}`: only entries of these tasks, `null` meaning "no task";
 * - `{"tagIds": ["<tagId>", null, …], "match": "any"|"all"|"none"}`: only entries carrying any of these
 *   tags (`any`, the default), every one of them (`all`) or none of them (`none`); `null` is the
 *   "no tag" an entry without tags carries. `match` is understood only beside `tagIds`;
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
  clientIds: Array<{ ids: string[]; noClient: boolean }>;
  taskIds: Array<{ ids: string[]; noTask: boolean }>;
  tagIds: Array<{ ids: string[]; untagged: boolean; match: TagMatch }>;
  nameContains: string[];
}

export const TAG_MATCHES = ['any', 'all', 'none'] as const;
export type TagMatch = (typeof TAG_MATCHES)[number];

export interface ParsedFilters {
  filters: EntryFilters;
  ignored: Array<Record<string, unknown>>;
}

const MAX_IDS = 1_000;
const isIdList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length <= MAX_IDS && value.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 64);

/** A list of ids where `null` stands for "none": its ids (without repeats) and whether it held null; undefined when it is no such list. */
function idsOrNone(value: unknown): { ids: string[]; none: boolean } | undefined {
  if (!Array.isArray(value) || value.length > MAX_IDS) return undefined;
  const ids = value.filter((id) => id !== null);
  if (!isIdList(ids)) return undefined;
  return { ids: [...new Set(ids)], none: ids.length < value.length };
}

const isTagMatch = (value: unknown): value is TagMatch => TAG_MATCHES.includes(value as TagMatch);

type Apply = (filters: EntryFilters, value: unknown, object: Record<string, unknown>) => boolean;

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
  clientIds: (filters, value) => {
    const list = idsOrNone(value);
    if (list === undefined) return false;
    filters.clientIds.push({ ids: list.ids, noClient: list.none });
    return true;
  },
  taskIds: (filters, value) => {
    const list = idsOrNone(value);
    if (list === undefined) return false;
    filters.taskIds.push({ ids: list.ids, noTask: list.none });
    return true;
  },
  tagIds: (filters, value, object) => {
    const list = idsOrNone(value);
    const match = object.match ?? 'any';
    if (list === undefined || !isTagMatch(match)) return false;
    filters.tagIds.push({ ids: list.ids, untagged: list.none, match });
    return true;
  },
  // Read by tagIds; alone it is not understood.
  match: (_filters, _value, object) => Object.hasOwn(object, 'tagIds'),
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
    const understood = keys.length > 0 && keys.every((key) => Object.hasOwn(KEYS, key) && validFor(key, object));
    if (!understood) {
      ignored.push(object);
      continue;
    }
    for (const key of keys) KEYS[key](filters, object[key], object);
  }
  return { filters, ignored };
}

/** Whether the key's rule understands the value (checked on a scratch copy, so a half-understood object applies nothing). */
const validFor = (key: string, object: Record<string, unknown>): boolean => KEYS[key](noFilters(), object[key], object);

export const noFilters = (): EntryFilters => ({ billable: [], userIds: [], projectIds: [], clientIds: [], taskIds: [], tagIds: [], nameContains: [] });
