import { useSignal, useSignalEffect } from '@preact/signals';
import { api, problemMessage, type Problem, type Schemas } from '../../api/client.js';
import { formats } from '../../data/preferences.js';
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

/** The cursor of the page after this one, from the answer's `Link: <…>; rel="next"`. */
function nextCursor(response: Response): string | null {
  const link = response.headers.get('link') ?? '';
  const url = link.match(/<([^>]+)>\s*;\s*rel="next"/)?.[1];
  return url ? new URL(url, location.origin).searchParams.get('cursor') : null;
}

/** The detailed entries of the report, a page at a time; "Previous" goes back along the cursors already followed. */
export function Entries({ source }: { source: Source }) {
  const entries = useSignal<Entry[]>([]);
  // The cursors of the pages shown so far: the last one is this page's (undefined: the first page).
  const trail = useSignal<(string | undefined)[]>([undefined]);
  const next = useSignal<string | null>(null);
  const problem = useSignal<Problem | undefined>(undefined);
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
  });
  const page = trail.value.length;
  const f = formats.value;
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
        <div class="table-wrap">
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
                {entries.value.some((entry) => entry.revenue) && <th scope="col">Revenue</th>}
                {entries.value.some((entry) => entry.cost) && <th scope="col">Cost</th>}
              </tr>
            </thead>
            <tbody>
              {entries.value.map((entry) => (
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
                  {entries.value.some((e) => e.revenue) && <td class="num">{amounts(entry.revenue, entry.billable && entry.revenueRate === null)}</td>}
                  {entries.value.some((e) => e.cost) && <td class="num">{amounts(entry.cost, entry.costRate === null)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav class="row-actions" aria-label="Entry pages">
        <button type="button" disabled={page === 1} onClick={() => void goBack()}>
          Previous entries
        </button>
        <span class="muted">Page {page}</span>
        <button type="button" disabled={!next.value} onClick={() => void goOn()}>
          Next entries
        </button>
      </nav>
    </section>
  );

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
