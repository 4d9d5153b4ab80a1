import { describe, expect, it } from 'vitest';
import { recordOfRow, rowOfRecord, type RenderedField } from '../support/src.js';

/*
 * A record and its row mapped by the record's fields (db/record-rows.ts): what lets a new field of a
 * record be read and written without a line of its own (docs/architecture.md "Add a field").
 */
const FIELDS: RenderedField[] = [
  { key: 'id', column: 'id', as: 'text' },
  { key: 'billable', column: 'billable', as: 'boolean' },
  { key: 'endedAt', column: 'ended_at', as: 'nullable' },
  { key: 'note', column: 'note_text', as: 'optional' },
];

describe('Records and rows are mapped by the fields of the record schema', () => {
  it('reads each field from its column: booleans from 0/1 or true/false, null kept, an optional field left out when null', () => {
    expect(recordOfRow(FIELDS, { id: 'a', billable: 1, ended_at: null, note_text: null, organization_id: 'o' })).toEqual({
      id: 'a',
      billable: true,
      endedAt: null,
    });
    expect(recordOfRow(FIELDS, { id: 'b', billable: false, ended_at: '2026-07-04T09:00:00.000Z', note_text: 'x' })).toEqual({
      id: 'b',
      billable: false,
      endedAt: '2026-07-04T09:00:00.000Z',
      note: 'x',
    });
  });

  it('writes the fields a record or a change holds, by column, booleans as 0/1, null as null, absent ones not at all', () => {
    expect(rowOfRecord(FIELDS, { billable: true, endedAt: null })).toEqual({ billable: 1, ended_at: null });
    expect(rowOfRecord(FIELDS, { id: 'a', billable: false, note: 'x', other: 'ignored' })).toEqual({ id: 'a', billable: 0, note_text: 'x' });
    expect(rowOfRecord(FIELDS, {})).toEqual({});
  });
});
