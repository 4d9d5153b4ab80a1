import { useSignal, useSignalEffect } from '@preact/signals';
import { api, problemMessage, type Problem, type Schemas } from '../../api/client.js';
import { formats } from '../../data/preferences.js';
import { me } from '../../data/session.js';
import { loadTags } from '../../data/tags.js';
import { fileNameOf, saveFile } from './download.js';
import { EntryEditor } from './EntryEditor.js';
import { money } from './ResultTable.js';
import type { RunBody } from './definition.js';

type Entry = Schemas['DetailedReportEntry'];

/** What a run was made of: a saved report (by id) or the form's definition. */
export interface Source {
  saved?: string;
  body: RunBody;
  timeZone: string;
}

export const ENTRIES_PAGE = 10;

type DetailFormat = 'csv' | 'xlsx';
const DETAIL_FORMATS: [DetailFormat, string][] = [
  ['csv', 'CSV'],
  ['xlsx', 'XLSX'],
];

/** The cursor of the page after this one, from the answer's `Link: <…>; rel="next"`. */
function nextCursor(response: Response): string | null {
  const link = response.headers.get('link') ?? '';
  const url = link.match(/<([^>]+)>\s*;\s*rel="next"/)?.[1];
  return url ? new URL(url, location.origin).searchParams.get('cursor') : null;
}

/**
 * Whether the person may change an entry (docs/rules.md §5: an administrator anyone's, anyone else their
 * own): only those entries offer "Edit". The API still decides, and its refusal is shown in words.
 */
const mayEdit = (entry: Entry): boolean => me.value?.role === 'Administrator' || entry.user.id === me.value?.id;

/**
 * The detailed entries of the report, a page at a time; "Previous" goes back along the cursors already
 * followed. An entry the person may change is edited in place; once saved, this page and (`onChanged`)
 * the report's result are loaded again. The entries download as CSV or XLSX.
 */
export function Entries({ source, onChanged }: { source: Source; onChanged(): void }) {
  const entries = useSignal<Entry[]>([]);
  // The cursors of the pages shown so far: the last one is this page's (undefined: the first page).
  const trail = useSignal<(string | undefined)[]>([undefined]);
  const next = useSignal<string | null>(null);
  const problem = useSignal<Problem | undefined>(undefined);
  /** The entry being edited, by id. */
  const editing = useSignal<string | null>(null);
  const status = useSignal('');
  const load = async (cursor: string | undefined) => {
    const query = { limit: String(ENTRIES_PAGE), timeZone: source.timeZone, ...(cursor ? { cursor } : {}) };
    const answer = source.saved
      ? await api.GET('/reports/{reportId}/entries', { params: { path: { reportId: source.saved }, query } })
      : await api.POST('/reports/entries', { params: { query }, body: source.body });
    problem.value = answer.error;
    if (answer.data) {
      entries.value = (answer.data as Schemas['DetailedReport']).entries;
      next.value = nextCursor(answer.response);
    }
  };
  useSignalEffect(() => {
    trail.value = [undefined];
    void load(undefined);
    void loadTags();
  });
  const page = trail.value.length;
  const f = formats.value;
  const revenue = entries.value.some((entry) => entry.revenue);
  const cost = entries.value.some((entry) => entry.cost);
  const editable = entries.value.some(mayEdit);
  const columns = 9 + (revenue ? 1 : 0) + (cost ? 1 : 0) + (editable ? 1 : 0);
  const saved = async (entry: Entry) => {
    editing.value = null;
    status.value = `Saved “${entry.name}”.`;
    await load(trail.value[trail.value.length - 1]);
    onChanged();
  };
  return (
    <section class="card" aria-labelledby="entries-heading">
      <h2 id="entries-heading">Entries</h2>
      {problem.value && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
      {entries.value.length === 0 ? (
        <p class="muted">No entries.</p>
      ) : (
        <div class="table-wrap" tabIndex={0} role="region" aria-label={`Entries, page ${page}`}>
          <table class="table" aria-label={`Entries, page ${page}`}>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Person</th>
                <th scope="col">Client</th>
                <th scope="col">Project</th>
                <th scope="col">Task</th>
                <th scope="col">Description</th>
                <th scope="col">Tags</th>
                <th scope="col" class="num">
                  Duration
                </th>
                <th scope="col">Billable</th>
                {revenue && <th scope="col">Revenue</th>}
                {cost && <th scope="col">Cost</th>}
                {editable && (
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {entries.value.map((entry) => [
                <tr key={entry.id}>
                  <td>{f.dateTime(entry.startedAt)}</td>
                  <td>{entry.user.name ?? 'Unnamed'}</td>
                  <td>{entry.client?.name ?? <span class="muted">No client</span>}</td>
                  <td>{entry.project?.name ?? <span class="muted">No project</span>}</td>
                  <td>{entry.task?.name ?? <span class="muted">No task</span>}</td>
                  <th scope="row">{entry.name}</th>
                  <td>{entry.tags.length ? entry.tags.map((tag) => tag.name).join(', ') : <span class="muted">None</span>}</td>
                  <td class="num">{f.duration(entry.duration * 1000)}</td>
                  <td>{entry.billable ? 'Yes' : 'No'}</td>
                  {revenue && <td class="num">{amounts(entry.revenue, entry.billable && entry.revenueRate === null)}</td>}
                  {cost && <td class="num">{amounts(entry.cost, entry.costRate === null)}</td>}
                  {editable && (
                    <td>
                      {mayEdit(entry) && (
                        <button type="button" aria-expanded={editing.value === entry.id} onClick={() => (editing.value = editing.value === entry.id ? null : entry.id)} aria-label={`Edit “${entry.name}”`}>
                          Edit
                        </button>
                      )}
                    </td>
                  )}
                </tr>,
                editing.value === entry.id && (
                  <tr key={`${entry.id}-editor`} class="entry-editor-row">
                    <td colSpan={columns}>
                      <EntryEditor entry={entry} onSaved={() => void saved(entry)} onClose={() => (editing.value = null)} />
                    </td>
                  </tr>
                ),
              ])}
            </tbody>
          </table>
        </div>
      )}
      <p role="status" class="muted">
        {status.value}
      </p>
      <nav class="row-actions" aria-label="Entry pages">
        <button type="button" disabled={page === 1} onClick={() => void goBack()}>
          Previous entries
        </button>
        <span class="muted">Page {page}</span>
        <button type="button" disabled={!next.value} onClick={() => void goOn()}>
          Next entries
        </button>
      </nav>
      <div class="row-actions" role="group" aria-label="Export entries">
        {DETAIL_FORMATS.map(([format, label]) => (
          <button type="button" key={format} onClick={() => void exportAs(format)}>
            Export entries {label}
          </button>
        ))}
      </div>
    </section>
  );

  async function exportAs(format: DetailFormat) {
    const query = { timeZone: source.timeZone, format };
    const answer = source.saved
      ? await api.GET('/reports/{reportId}/entries', { params: { path: { reportId: source.saved }, query }, parseAs: 'blob' })
      : await api.POST('/reports/entries', { params: { query }, body: source.body, parseAs: 'blob' });
    problem.value = answer.error;
    if (answer.data) saveFile(answer.data as Blob, fileNameOf(answer.response.headers.get('content-disposition'), `entries.${format}`));
  }

  async function goOn() {
    if (!next.value) return;
    const cursor = next.value;
    trail.value = [...trail.value, cursor];
    await load(cursor);
  }

  async function goBack() {
    const back = trail.value.slice(0, -1);
    trail.value = back;
    await load(back[back.length - 1]);
  }
}

function amounts(values: Record<string, number> | undefined, unrated: boolean) {
  if (unrated) return <span class="unpriced">no rate</span>;
  const list = Object.entries(values ?? {});
  return list.length ? list.map(([currency, amount]) => money(amount, currency)).join(', ') : '—';
}
