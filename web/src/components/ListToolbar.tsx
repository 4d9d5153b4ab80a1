import type { Signal } from '@preact/signals';
import { Field } from './Field.js';

/** Above a list: its search field and the switch that shows archived records too (ids name the two controls). */
export function ListToolbar(props: { searchId: string; searchLabel: string; search: Signal<string>; archivedId: string; showArchived: Signal<boolean> }) {
  const { searchId, searchLabel, search, archivedId, showArchived } = props;
  return (
    <div class="toolbar">
      <Field id={searchId} label={searchLabel}>
        <input id={searchId} type="search" value={search.value} onInput={(e) => (search.value = e.currentTarget.value)} />
      </Field>
      <span class="check">
        <input type="checkbox" id={archivedId} checked={showArchived.value} onChange={(e) => (showArchived.value = e.currentTarget.checked)} />
        <label for={archivedId}>Show archived</label>
      </span>
    </div>
  );
}
