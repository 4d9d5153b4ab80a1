import { useSignal, useSignalEffect } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, fieldErrors, problemMessage, type Problem } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { changes } from '../../data/changes.js';
import { loadMembers } from '../../data/members.js';
import { formats } from '../../data/preferences.js';
import { loadProjects, projects } from '../../data/projects.js';
import { deleteReport, loadSavedReports, pinReport, saveReport, savedReports } from '../../data/reports.js';
import { me } from '../../data/session.js';
import { currentSearch } from '../../lib/router.js';
import { dayOf } from '../../lib/time.js';
import { directory, loadDirectory } from '../../data/users.js';
import '../manage/manage.css';
import { periodInAddress } from './address.js';
import { fileNameOf, saveFile } from './download.js';
import { ChoiceFilter } from './ChoiceFilter.js';
import { DimensionList } from './Dimensions.js';
import {
  draftOf,
  METRICS,
  newDraft,
  NONE,
  offeredMetrics,
  PERIODS,
  runBody,
  withExactPeriod,
  type Draft,
  type Report,
  type ReportResult,
} from './definition.js';
import { Entries, type Source } from './Entries.js';
import { ReportChart } from './ReportChart.js';
import { ResultTable } from './ResultTable.js';
import { WorkFilters } from './WorkFilters.js';
import './reports.css';

type Format = 'csv' | 'xlsx' | 'pdf';
const FORMATS: [Format, string][] = [
  ['csv', 'CSV'],
  ['xlsx', 'XLSX'],
  ['pdf', 'PDF'],
];

/** Whether the person administers a project (and so reads its revenue): their memberships' roles. */
async function administersAProject(userId: string): Promise<boolean> {
  const memberships = await Promise.all(
    Object.values(projects.value)
      .filter((project) => !project.archived)
      .map((project) => loadMembers(project.id)),
  );
  return memberships.some((members) => members.some((member) => member.userId === userId && member.role === 'Administrator' && !member.archived));
}

/**
 * Reports: a definition (period, dimensions in order, metrics, filters) run ad hoc or saved, its chart,
 * grouped table and detailed entries, and its exports. Metrics the person may not read are not offered.
 */
/** The report's first and last day as days of its own zone (the end is the instant after its last day). */
const periodLabel = (result: ReportResult): string =>
  formats.value.dayRange(dayOf(new Date(result.start), result.timeZone), dayOf(new Date(result.end).getTime() - 1, result.timeZone));

export function ReportsPage() {
  const timeZone = formats.value.timeZone;
  const admin = me.value?.role === 'Administrator';
  const projectAdmin = useSignal(false);
  // A period in the address (`?start=…&end=…`, address.ts) opens the page on it; without one, this month so far.
  const fromAddress = periodInAddress(currentSearch.value);
  const addressKey = fromAddress ? `${fromAddress.start}/${fromAddress.end}` : '';
  const draft = useSignal<Draft>(fromAddress ? withExactPeriod(newDraft(timeZone), fromAddress, timeZone) : newDraft(timeZone));
  const result = useSignal<ReportResult | null>(null);
  const source = useSignal<Source | null>(null);
  const runs = useSignal(0);
  const running = useSignal(false);
  const problem = useSignal<Problem | undefined>(undefined);
  const saveProblem = useSignal<Problem | undefined>(undefined);
  const listProblem = useSignal<Problem | undefined>(undefined);
  const status = useSignal('');
  const name = useSignal('');

  useSignalEffect(() => {
    void changes.value;
    void loadSavedReports();
    void loadDirectory();
    void loadProjects().then(async () => {
      if (!admin && me.value) projectAdmin.value = await administersAProject(me.value.id);
    });
  });

  const offered = offeredMetrics(admin, projectAdmin.value);
  const d = draft.value;
  const change = (patch: Partial<Draft>) => (draft.value = { ...draft.value, ...patch });
  const errors = fieldErrors(problem.value);

  const show = async (next: Source) => {
    running.value = true;
    const query = { timeZone: next.timeZone };
    const answer = next.saved
      ? await api.GET('/reports/{reportId}/run', { params: { path: { reportId: next.saved }, query } })
      : await api.POST('/reports/run', { params: { query }, body: next.body });
    running.value = false;
    problem.value = answer.error;
    if (answer.data) {
      // JSON was asked for (no format): the other content types are the downloads.
      result.value = answer.data as ReportResult;
      source.value = next;
      runs.value++;
    }
  };

  /** The result again, after an entry was changed: the entries keep the page they show. */
  const refresh = async () => {
    const from = source.value;
    if (!from) return;
    const query = { timeZone: from.timeZone };
    const answer = from.saved
      ? await api.GET('/reports/{reportId}/run', { params: { path: { reportId: from.saved }, query } })
      : await api.POST('/reports/run', { params: { query }, body: from.body });
    problem.value = answer.error;
    if (answer.data) result.value = answer.data as ReportResult;
  };

  const run = (event: Event) => {
    event.preventDefault();
    void show({ body: runBody(draft.value, timeZone), timeZone });
  };

  // The address's period is run at once: a link to it (an import's result) shows that report.
  useEffect(() => {
    if (!fromAddress) return;
    draft.value = withExactPeriod(draft.value, fromAddress, timeZone);
    void show({ body: runBody(draft.value, timeZone), timeZone });
  }, [addressKey]);

  const runSaved = async (report: Report) => {
    draft.value = draftOf(report, timeZone);
    name.value = report.name;
    await show({ saved: report.id, body: runBody(draft.value, timeZone, report.name), timeZone });
  };

  const save = async (event: Event) => {
    event.preventDefault();
    const answer = await saveReport({ ...runBody(draft.value, timeZone), name: name.value.trim() });
    saveProblem.value = answer.error;
    if (answer.data) {
      status.value = `Saved "${answer.data.name}".`;
      if (source.value && !source.value.saved) source.value = { ...source.value, saved: answer.data.id, body: { ...source.value.body, name: answer.data.name } };
    }
  };

  const pin = async (report: Report) => {
    const answer = await pinReport(report, !report.pinned);
    listProblem.value = answer.error;
    if (answer.data) status.value = answer.data.pinned ? `Pinned "${report.name}".` : `Unpinned "${report.name}".`;
  };

  const remove = async (report: Report) => {
    const answer = await deleteReport(report);
    listProblem.value = answer.error;
    if (!answer.error) status.value = `Deleted "${report.name}".`;
    if (source.value?.saved === report.id) source.value = { ...source.value, saved: undefined };
  };

  const exportAs = async (format: Format) => {
    const from = source.value;
    if (!from) return;
    const query = { timeZone: from.timeZone, format };
    const answer = from.saved
      ? await api.GET('/reports/{reportId}/run', { params: { path: { reportId: from.saved }, query }, parseAs: 'blob' })
      : await api.POST('/reports/run', { params: { query }, body: from.body, parseAs: 'blob' });
    problem.value = answer.error;
    if (answer.data) saveFile(answer.data as Blob, fileNameOf(answer.response.headers.get('content-disposition'), `report.${format}`));
  };

  const projectList = Object.values(projects.value)
    .filter((project) => d.showArchivedProjects || !project.archived || d.projectIds.includes(project.id))
    .sort((a, b) => a.name.localeCompare(b.name));
  const people = Object.values(directory.value).sort((a, b) => (a.name || a.email).localeCompare(b.name || b.email));

  return (
    <>
      <h1>Reports</h1>
      <section class="card" aria-labelledby="saved-heading">
        <h2 id="saved-heading">Saved reports</h2>
        {savedReports.value.length === 0 ? (
          <p class="muted">No saved reports yet. Run one below and save it.</p>
        ) : (
          <ul class="saved-reports" aria-labelledby="saved-heading">
            {savedReports.value.map((report) => (
              <li key={report.id}>
                <span>
                  <strong>{report.name}</strong> {report.pinned && <span class="badge">Pinned</span>}
                </span>
                <span class="row-actions">
                  <button type="button" onClick={() => void runSaved(report)} aria-label={`Run ${report.name}`}>
                    Run
                  </button>
                  <button type="button" onClick={() => void pin(report)} aria-label={`${report.pinned ? 'Unpin' : 'Pin'} ${report.name}`}>
                    {report.pinned ? 'Unpin' : 'Pin'}
                  </button>
                  <button type="button" class="danger" onClick={() => void remove(report)} aria-label={`Delete ${report.name}`}>
                    Delete
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
        {listProblem.value && (
          <p class="error" role="alert">
            {problemMessage(listProblem.value)}
          </p>
        )}
      </section>

      <form class="card" onSubmit={run} aria-labelledby="definition-heading">
        <h2 id="definition-heading">Report</h2>
        <div class="inline">
          <Field id="report-period" label="Period" error={errors.period}>
            <select id="report-period" value={d.period} onChange={(e) => change({ period: e.currentTarget.value as Draft['period'], exact: undefined })}>
              {PERIODS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          {d.period === 'custom' && (
            <>
              <Field id="report-first" label="First day" error={errors.start}>
                <input id="report-first" type="date" required value={d.first} onInput={(e) => change({ first: e.currentTarget.value, exact: undefined })} {...describedBy('report-first', errors.start)} />
              </Field>
              <Field id="report-last" label="Last day" error={errors.end}>
                <input id="report-last" type="date" required value={d.last} onInput={(e) => change({ last: e.currentTarget.value, exact: undefined })} {...describedBy('report-last', errors.end)} />
              </Field>
            </>
          )}
        </div>
        {d.period === 'custom' && d.exact && (
          <p class="muted" data-testid="report-exact-period">
            Exactly {formats.value.dateTime(d.exact.start)} to {formats.value.dateTime(d.exact.end)}, as the page's address gives it; changing a day
            reports whole days.
          </p>
        )}
        <DimensionList value={d.dimensions} onChange={(dimensions) => change({ dimensions })} />
        <fieldset>
          <legend>Show</legend>
          {offered.map((metric) => (
            <span class="check" key={metric}>
              <input
                type="checkbox"
                id={`metric-${metric}`}
                checked={d.metrics.includes(metric)}
                onChange={(e) => change({ metrics: e.currentTarget.checked ? offered.filter((m) => m === metric || d.metrics.includes(m)) : d.metrics.filter((m) => m !== metric) })}
              />
              <label for={`metric-${metric}`}>{METRICS[metric]}</label>
            </span>
          ))}
          {errors.metrics && (
            <span class="error" role="alert">
              {errors.metrics}
            </span>
          )}
        </fieldset>
        <fieldset>
          <legend>Only</legend>
          <div class="inline">
            <Field id="report-billable" label="Billable">
              <select id="report-billable" value={d.billable} onChange={(e) => change({ billable: e.currentTarget.value as Draft['billable'] })}>
                <option value="">Billable or not</option>
                <option value="true">Billable only</option>
                <option value="false">Not billable only</option>
              </select>
            </Field>
            <Field id="report-name-contains" label="Description contains">
              <input id="report-name-contains" value={d.nameContains} maxLength={200} onInput={(e) => change({ nameContains: e.currentTarget.value })} />
            </Field>
          </div>
          <ChoiceFilter
            title="Projects"
            idPrefix="project"
            choices={[...projectList.map((project) => ({ id: project.id, label: project.name })), { id: NONE, label: 'No project' }]}
            chosen={d.projectIds}
            onChange={(projectIds) => change({ projectIds })}
          />
          <ChoiceFilter title="People" idPrefix="user" choices={people.map((user) => ({ id: user.id, label: user.name || user.email }))} chosen={d.userIds} onChange={(userIds) => change({ userIds })} />
          <WorkFilters draft={d} projects={projectList} change={change} />
          <span class="check">
            <input type="checkbox" id="report-archived" checked={d.showArchivedProjects} onChange={(e) => change({ showArchivedProjects: e.currentTarget.checked })} />
            <label for="report-archived">Include archived projects</label>
          </span>
          <span class="check">
            <input type="checkbox" id="report-empty" checked={!d.hideEmptyRows} onChange={(e) => change({ hideEmptyRows: !e.currentTarget.checked })} />
            <label for="report-empty">Show empty rows</label>
          </span>
        </fieldset>
        <button type="submit" class="primary" disabled={running.value}>
          Run report
        </button>
        {problem.value && !problem.value.errors && (
          <p class="error" role="alert">
            {problemMessage(problem.value)}
          </p>
        )}
      </form>

      <form class="card" onSubmit={save} aria-labelledby="save-heading">
        <h2 id="save-heading">Save this report</h2>
        <Field id="report-save-name" label="Report name" error={fieldErrors(saveProblem.value).name}>
          <input id="report-save-name" required maxLength={255} value={name.value} onInput={(e) => (name.value = e.currentTarget.value)} {...describedBy('report-save-name', fieldErrors(saveProblem.value).name)} />
        </Field>
        <button type="submit">Save report</button>
        {saveProblem.value && !saveProblem.value.errors && (
          <p class="error" role="alert">
            {problemMessage(saveProblem.value)}
          </p>
        )}
      </form>
      <p role="status" class="muted">
        {status.value}
      </p>

      {result.value && source.value && (
        <section class="card report-result" aria-labelledby="result-heading">
          <h2 id="result-heading">Result</h2>
          <p class="muted">
            {periodLabel(result.value)} · {result.value.timeZone}
            {result.value.rounding.enabled && ` · rounded ${result.value.rounding.mode.toLowerCase()} to ${result.value.rounding.interval} minutes`}
          </p>
          <ReportChart result={result.value} />
          <ResultTable result={result.value} />
          <div class="row-actions" role="group" aria-label="Export">
            {FORMATS.map(([format, label]) => (
              <button type="button" key={format} onClick={() => void exportAs(format)}>
                Export {label}
              </button>
            ))}
          </div>
        </section>
      )}
      {source.value && <Entries key={runs.value} source={source.value} onChanged={() => void refresh()} />}
    </>
  );
}
