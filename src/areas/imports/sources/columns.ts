/** What a column of an export file means to the importer, whatever the source calls it. */
export type Role =
  | 'email'
  | 'user'
  | 'firstName'
  | 'lastName'
  | 'client'
  | 'project'
  | 'task'
  | 'description'
  | 'billable'
  | 'startDate'
  | 'startTime'
  | 'endDate'
  | 'endTime'
  | 'hours'
  | 'tags'
  | 'revenueRate'
  | 'costRate'
  | 'currency'
  | 'id';

/**
 * A CSV source's layout: for each role the headers that carry it (matched without regard to case
 * and surrounding spaces; a pattern for headers that name a currency, such as `Billable Rate (USD)`),
 * and the roles a file must have (the first header of each is named in missing-column).
 */
export interface CsvLayout {
  columns: Partial<Record<Role, ReadonlyArray<string | RegExp>>>;
  required: readonly Role[];
  /** No start or end time, only hours: a person's entries of a day are laid end to end (Harvest). */
  hoursOnly?: boolean;
  /** No end date: an end before the start is on the next day (Kimai's From and To). */
  endOnStartDay?: boolean;
}

const TOGGL: CsvLayout = {
  columns: {
    user: ['User'],
    email: ['Email'],
    client: ['Client'],
    project: ['Project'],
    task: ['Task'],
    description: ['Description'],
    billable: ['Billable'],
    startDate: ['Start date'],
    startTime: ['Start time'],
    endDate: ['End date'],
    endTime: ['End time'],
    tags: ['Tags'],
  },
  required: ['email', 'startDate', 'startTime', 'endDate', 'endTime'],
};

const CLOCKIFY: CsvLayout = {
  columns: {
    user: ['User'],
    email: ['Email'],
    client: ['Client'],
    project: ['Project'],
    task: ['Task', 'Activity'],
    description: ['Description'],
    billable: ['Billable'],
    startDate: ['Start Date'],
    startTime: ['Start Time'],
    endDate: ['End Date'],
    endTime: ['End Time'],
    tags: ['Tags'],
    revenueRate: [/^Billable Rate \([A-Z]{3}\)$/i],
  },
  required: ['email', 'startDate', 'startTime', 'endDate', 'endTime'],
};

const HARVEST: CsvLayout = {
  columns: {
    firstName: ['First Name'],
    lastName: ['Last Name'],
    client: ['Client'],
    project: ['Project'],
    task: ['Task'],
    description: ['Notes'],
    billable: ['Billable?'],
    startDate: ['Date'],
    hours: ['Hours'],
    revenueRate: ['Billable Rate'],
    costRate: ['Cost Rate'],
    currency: ['Currency'],
  },
  required: ['startDate', 'hours', 'firstName', 'lastName'],
  hoursOnly: true,
};

const KIMAI: CsvLayout = {
  columns: {
    user: ['User'],
    email: ['E-mail', 'Email'],
    client: ['Customer'],
    project: ['Project'],
    task: ['Activity'],
    description: ['Description'],
    billable: ['Billable'],
    startDate: ['Date'],
    startTime: ['From'],
    endTime: ['To'],
    tags: ['Tags'],
  },
  required: ['startDate', 'startTime', 'endTime', 'email'],
  endOnStartDay: true,
};

/** The CSV layouts, by source. */
export const CSV_LAYOUTS = { toggl: TOGGL, clockify: CLOCKIFY, harvest: HARVEST, kimai: KIMAI } as const;

export type CsvSource = keyof typeof CSV_LAYOUTS;

const headerKey = (header: string) => header.replace(/^\uFEFF/, '').trim().toLowerCase();

/** The header a role's name stands for in messages: the first one its layout lists, or its pattern's text. */
export const roleHeader = (layout: CsvLayout, role: Role): string => {
  const first = layout.columns[role]?.[0];
  return typeof first === 'string' ? first : first ? 'Billable Rate (CUR)' : role;
};

/** Where each role's column is in a file's header row, and the header as the file writes it. */
export type ColumnPlaces = Partial<Record<Role, { index: number; header: string }>>;

/** Finds each role of the layout in a header row; the required roles not found are answered apart. */
export function placeColumns(layout: CsvLayout, headers: readonly string[]): { places: ColumnPlaces; missing: Role[] } {
  const keys = headers.map(headerKey);
  const places: ColumnPlaces = {};
  for (const [role, names] of Object.entries(layout.columns) as Array<[Role, ReadonlyArray<string | RegExp>]>) {
    for (const name of names) {
      const index = typeof name === 'string' ? keys.indexOf(headerKey(name)) : headers.findIndex((header) => name.test(header.trim()));
      if (index >= 0) {
        places[role] = { index, header: headers[index].replace(/^\uFEFF/, '').trim() };
        break;
      }
    }
  }
  return { places, missing: layout.required.filter((role) => places[role] === undefined) };
}
