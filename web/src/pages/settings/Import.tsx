import { useSignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { problemMessage, type Problem } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import {
  clearFinishedImport,
  currentImport,
  hasEnded,
  loadActiveImport,
  startImport,
  stopFollowing,
  type Import as ImportRecord,
  type ImportProblem,
  type ImportQuery,
  type ImportSource,
} from '../../data/imports.js';
import { organization } from '../../data/organization.js';
import { formats } from '../../data/preferences.js';
import { followLink } from '../../lib/router.js';
import { reportsAddress } from '../reports/address.js';
import { saveFile } from '../reports/download.js';
import { timeZones } from './General.js';
import './import.css';

/** The tools an export comes from, and where each one's file is found (two lines each): a CSV, or timetrack's own ZIP. */
const SOURCES: { value: ImportSource; label: string; how: [string, string] }[] = [
  { value: 'toggl', label: 'Toggl Track', how: ['In Toggl Track, open Reports → Detailed and choose the period.', 'Then Export → CSV, and choose or drop that file below.'] },
  { value: 'clockify', label: 'Clockify', how: ['In Clockify, open Reports → Detailed and choose the period.', 'Then Export → CSV (the older and the 2024 layouts are both read).'] },
  { value: 'harvest', label: 'Harvest', how: ['In Harvest, open Reports → Detailed time and choose the period.', 'Then Export → CSV. People are matched by full name: add them here first.'] },
  { value: 'kimai', label: 'Kimai', how: ['In Kimai, open Times and filter the period you want.', 'Then Export → CSV (the default CSV export).'] },
  {
    value: 'timetrack',
    label: 'timetrack (another timetrack workspace)',
    how: ['Settings → Export → Download everything in the other workspace,', 'then drop the ZIP here.'],
  },
];

/** A source whose file is timetrack's own export (a ZIP of every record): no time zone, date format or mode applies to it. */
const isArchive = (source: ImportSource): boolean => source === 'timetrack';

type DateFormat = NonNullable<ImportQuery['dateFormat']>;
const DATE_FORMATS: [DateFormat | '', string][] = [
  ['', 'Let the file decide'],
  ['MDY', 'Month/day/year (MDY)'],
  ['DMY', 'Day/month/year (DMY)'],
  ['YMD', 'Year/month/day (YMD)'],
];

/** What an import creates, in the order the result lists it. */
const COUNTS: [keyof ImportRecord['created'], string][] = [
  ['activities', 'Time entries'],
  ['clients', 'Clients'],
  ['projects', 'Projects'],
  ['tasks', 'Tasks'],
  ['tags', 'Tags'],
  ['users', 'People'],
  ['members', 'Project memberships'],
  ['revenueRates', 'Revenue rates'],
  ['costRates', 'Cost rates'],
];

/** Errors and warnings shown on the page; the download has every one the API kept. */
const SHOWN = 10;

/** A spreadsheet would run a cell beginning with one of these as a formula (CSV injection): it gets an apostrophe, as the report exports do. */
const FORMULA_START = /^[=+\-@\t\r]/;
const csvField = (text: string): string => {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The problems as a CSV file (row,column,code,message), as the report exports write one: a BOM, CRLF after each record. */
export function problemsCsv(problems: readonly ImportProblem[]): string {
  const lines = problems.map((problem) => [String(problem.row), csvField(problem.column ?? ''), csvField(problem.code), csvField(problem.message)].join(','));
  return `\uFEFF${['row,column,code,message', ...lines].join('\r\n')}\r\n`;
}

const count = (value: number) => new Intl.NumberFormat(formats.value.locale).format(value);
const plural = (value: number, one: string, many: string) => `${count(value)} ${value === 1 ? one : many}`;

/**
 * Settings → Import (administrators): another tool's CSV export, checked first (a dry run: what it
 * would create, the errors by row and column), then imported; a running import's progress is shown
 * and followed, also after a reload (docs/rules.md §6 Imports).
 */
export function Import() {
  const org = organization.value!;
  const source = useSignal<ImportSource>('toggl');
  const timeZone = useSignal('');
  const dateFormat = useSignal<DateFormat | ''>('');
  const mode = useSignal<'all' | 'valid'>('all');
  const invite = useSignal(false);
  const file = useSignal<File | null>(null);
  const fileError = useSignal<string | undefined>(undefined);
  const dragging = useSignal(false);
  const problem = useSignal<Problem | undefined>(undefined);
  const sending = useSignal(false);

  useEffect(() => {
    void loadActiveImport().then((refused) => {
      problem.value = refused;
      // A reloaded page follows the import it finds: the choices it was started with are shown.
      const active = currentImport.value;
      if (active) {
        source.value = active.source;
        mode.value = active.mode;
      }
    });
    return stopFollowing;
  }, []);

  const current = currentImport.value;
  const busy = sending.value || (current !== null && !hasEnded(current));
  const zone = org.timeZone ?? 'UTC';
  const zones = timeZones();
  const archive = isArchive(source.value);

  /** Any change of the file or a choice: a finished check no longer says what an import would do. */
  const changed = () => {
    clearFinishedImport();
    problem.value = undefined;
  };
  const choose = (chosen: File | null | undefined) => {
    file.value = chosen ?? null;
    fileError.value = undefined;
    changed();
  };

  const run = async (dryRun: boolean) => {
    if (!file.value) {
      fileError.value = 'Choose the export file first.';
      return;
    }
    // An archive takes none of the CSV choices (they stay as chosen, for a CSV source picked again).
    const query: ImportQuery = archive
      ? { source: source.value, ...(dryRun ? { dryRun: 'true' as const } : {}) }
      : {
          source: source.value,
          mode: mode.value,
          ...(timeZone.value ? { timeZone: timeZone.value } : {}),
          ...(dateFormat.value ? { dateFormat: dateFormat.value } : {}),
          ...(dryRun ? { dryRun: 'true' as const } : {}),
          ...(invite.value ? { invite: 'true' as const } : {}),
        };
    sending.value = true;
    problem.value = undefined;
    try {
      problem.value = await startImport(query, file.value);
    } finally {
      sending.value = false;
    }
  };
  const check = (event: Event) => {
    event.preventDefault();
    void run(true);
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    dragging.value = false;
    if (busy) return;
    const dropped = event.dataTransfer?.files?.[0];
    if (dropped) choose(dropped);
  };

  return (
    <section class="card" aria-labelledby="import-heading">
      <h2 id="import-heading">Import from another tool</h2>
      <p class="muted">
        Time entries from another tool's CSV export. Clients, projects, tasks and tags are matched by name and created when missing; people are matched
        by email (Harvest: by name) and new ones join as User. A row imported before is skipped, so a later export that overlaps adds only what is new.
        Another timetrack workspace's export (a ZIP) brings every record it holds, and its settings replace this workspace's.
      </p>
      <form class="import-form" onSubmit={check} onChange={changed} aria-label="Import">
        <fieldset>
          <legend>Exported from</legend>
          <div class="import-sources">
            {SOURCES.map((option) => (
              <div class="import-source" key={option.value}>
                <span class="check">
                  <input
                    type="radio"
                    id={`import-source-${option.value}`}
                    name="source"
                    value={option.value}
                    checked={source.value === option.value}
                    disabled={busy}
                    aria-describedby={`import-source-${option.value}-how`}
                    onChange={() => (source.value = option.value)}
                  />
                  <label for={`import-source-${option.value}`}>{option.label}</label>
                </span>
                <p class="muted" id={`import-source-${option.value}-how`}>
                  {option.how[0]}
                  <br />
                  {option.how[1]}
                </p>
              </div>
            ))}
          </div>
        </fieldset>
        {/* A timetrack archive is read as it is: no zone, date format, mode or invitation applies to it. */}
        {!archive && (
          <>
            <div class="import-options">
              <Field id="import-tz" label="Time zone of the file's times">
                <select id="import-tz" value={timeZone.value} disabled={busy} onChange={(event) => (timeZone.value = event.currentTarget.value)}>
                  <option value="">The organization's ({zone})</option>
                  {zones.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </Field>
              <Field id="import-date-format" label="Dates such as 03/04/2024">
                <select
                  id="import-date-format"
                  value={dateFormat.value}
                  disabled={busy}
                  onChange={(event) => (dateFormat.value = event.currentTarget.value as DateFormat | '')}
                >
                  {DATE_FORMATS.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </Field>
            </div>
            <fieldset class="stacked">
              <legend>Rows with errors</legend>
              <span class="check">
                <input type="radio" id="import-mode-all" name="mode" value="all" checked={mode.value === 'all'} disabled={busy} onChange={() => (mode.value = 'all')} />
                <label for="import-mode-all">All rows: one bad row and nothing is imported</label>
              </span>
              <span class="check">
                <input type="radio" id="import-mode-valid" name="mode" value="valid" checked={mode.value === 'valid'} disabled={busy} onChange={() => (mode.value = 'valid')} />
                <label for="import-mode-valid">Only the valid rows: the bad ones are left out</label>
              </span>
            </fieldset>
            <span class="check">
              <input type="checkbox" id="import-invite" checked={invite.value} disabled={busy} onChange={(event) => (invite.value = event.currentTarget.checked)} />
              <label for="import-invite">Email the people the import adds an invitation</label>
            </span>
          </>
        )}
        <div
          class={dragging.value ? 'drop-zone dragging' : 'drop-zone'}
          data-testid="import-drop"
          onDragOver={(event) => {
            event.preventDefault();
            if (!busy) dragging.value = true;
          }}
          onDragLeave={() => (dragging.value = false)}
          onDrop={drop}
        >
          <Field id="import-file" label={archive ? 'The export file (ZIP)' : 'The export file (CSV)'} error={fileError.value}>
            <input
              id="import-file"
              type="file"
              accept={archive ? '.zip,application/zip' : '.csv,text/csv'}
              disabled={busy}
              onChange={(event) => {
                // The form's own change handler runs too; the file is what this one keeps.
                choose(event.currentTarget.files?.[0]);
              }}
              {...describedBy('import-file', fileError.value)}
            />
          </Field>
          <p class="muted">Choose it, or drop it here.</p>
          {file.value && (
            <p data-testid="import-file-name">
              <strong>{file.value.name}</strong> ({count(Math.max(1, Math.round(file.value.size / 1024)))} kB)
            </p>
          )}
        </div>
        <button type="submit" class="primary" disabled={busy}>
          Check the file
        </button>
      </form>
      {problem.value && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
      {current && !hasEnded(current) && <Progress found={current} />}
      {current && hasEnded(current) && (
        <Result found={current}>
          {current.dryRun && current.status === 'succeeded' && (
            <div class="import-next">
              {file.value ? (
                <>
                  <p>Nothing has been written yet. Import the file with these choices:</p>
                  <button type="button" class="primary" disabled={busy} onClick={() => void run(false)}>
                    Import
                  </button>
                </>
              ) : (
                <p>Choose the file again to import it.</p>
              )}
            </div>
          )}
        </Result>
      )}
    </section>
  );
}

/** A queued or running import: rowsDone of rows (while the file is read its rows are not known yet). */
function Progress({ found }: { found: ImportRecord }) {
  const what = found.dryRun ? 'Checking the file' : 'Importing';
  const known = found.rows > 0;
  return (
    <div class="import-progress">
      <p id="import-progress-label" role="status">
        {found.status === 'queued' ? `${what}: waiting to start…` : `${what}…`}
      </p>
      <progress aria-labelledby="import-progress-label" max={known ? found.rows : undefined} value={known ? found.rowsDone : undefined} />
      <p class="muted" data-testid="import-rows-done">
        {known ? `${count(found.rowsDone)} of ${plural(found.rows, 'row', 'rows')}` : `${plural(found.rowsDone, 'row', 'rows')} read`}
      </p>
    </div>
  );
}

/** A finished import or dry run: what it created (or would), the rows skipped, its errors and warnings. */
function Result({ found, children }: { found: ImportRecord; children?: ComponentChildren }) {
  const succeeded = found.status === 'succeeded';
  const heading = found.dryRun
    ? succeeded
      ? 'The check: what the import would create'
      : 'The check: nothing would be imported'
    : succeeded
      ? 'Imported'
      : 'The import failed: nothing was imported';
  const summary = succeeded
    ? `${found.dryRun ? 'Checked' : 'Read'} ${plural(found.rows, 'row', 'rows')}: ${plural(found.created.activities, 'entry', 'entries')} ${found.dryRun ? 'to import' : 'imported'}, ${plural(found.skipped, 'row', 'rows')} imported before, ${plural(found.errorCount, 'error', 'errors')}.`
    : `${plural(found.errorCount, 'error', 'errors')}${found.rows > 0 ? ` in ${plural(found.rows, 'row', 'rows')}` : ''}.`;
  const rowErrors = found.errors.some((error) => error.row > 0);
  const download = () => {
    const day = (found.finishedAt ?? found.createdAt).slice(0, 10);
    saveFile(new Blob([problemsCsv(found.errors)], { type: 'text/csv;charset=utf-8' }), `${found.source}-import-errors-${day}.csv`);
  };
  return (
    <div class="import-result" aria-labelledby="import-result-heading" role="group">
      <h3 id="import-result-heading">{heading}</h3>
      <p role="status" data-testid="import-summary">
        {summary}
      </p>
      {succeeded && found.period && (
        <p data-testid="import-period">
          {found.dryRun ? 'The entries to import run' : 'The imported entries run'} from {formats.value.dateTime(found.period.start)} to{' '}
          {formats.value.dateTime(found.period.end)}.
        </p>
      )}
      {succeeded && (
        <dl class="import-counts">
          {COUNTS.map(([key, label]) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd data-testid={`import-created-${key}`}>{count(found.created[key])}</dd>
            </div>
          ))}
        </dl>
      )}
      {!succeeded && found.mode === 'all' && rowErrors && (
        <p>Fix the rows in the file, or choose “Only the valid rows” to leave them out, and check the file again.</p>
      )}
      {found.errors.length > 0 && (
        <>
          <Problems caption="Errors" list={found.errors} total={found.errorCount} />
          <button type="button" onClick={download}>
            Download the errors (CSV)
          </button>
        </>
      )}
      {found.warnings.length > 0 && <Problems caption="Warnings" list={found.warnings} total={found.warnings.length} />}
      {children}
      {!found.dryRun && succeeded && found.period && (
        <p>
          {/* Reports opens on exactly the imported period: from the first entry's start to the last one's end. */}
          <a href={reportsAddress(found.period)} onClick={followLink}>
            See the imported time in Reports
          </a>
        </p>
      )}
    </div>
  );
}

/** The first errors or warnings by row and column. */
function Problems({ caption, list, total }: { caption: string; list: readonly ImportProblem[]; total: number }) {
  const shown = list.slice(0, SHOWN);
  return (
    <div class="table-wrap">
      <table class="table import-problems">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col">Column</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((item, index) => (
            <tr key={index}>
              <td class="num">{item.row === 0 ? 'File' : count(item.row)}</td>
              <td>{item.column ?? '—'}</td>
              <td>{item.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {total > shown.length && (
        <p class="muted">
          The first {count(shown.length)} of {count(total)}
          {caption === 'Errors' ? `: the download has ${list.length < total ? `the first ${count(list.length)}` : 'them all'}.` : '.'}
        </p>
      )}
    </div>
  );
}
