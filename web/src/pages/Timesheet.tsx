import { signal, useSignal, useSignalEffect } from '@preact/signals';
import { problemMessage } from '../api/client.js';
import { DraftInput } from '../components/Field.js';
import { ProjectPicker } from '../components/ProjectPicker.js';
import { changes } from '../data/changes.js';
import { formats } from '../data/preferences.js';
import { projects } from '../data/projects.js';
import { loadRequests, requestApproval, requestUnlock } from '../data/requests.js';
import { lengthOf, loadTimesheetWeek, NO_PROJECT, setCell, timesheetWeek } from '../data/timesheet.js';
import { weekKey, weekLocked, weekRequests } from '../data/weeks.js';
import { addDays, dayKey, dayOf, isoWeek, mondayOf, parseDuration, weekDays } from '../lib/time.js';

/** The week shown (this week until the person moves): kept while they visit other pages. */
const shown = signal<Date | null>(null);
/** Rows added by the person that hold no time yet. */
const addedRows = signal<string[]>([]);

function Cell({ projectId, projectName, day, ms, locked }: { projectId: string; projectName: string; day: Date; ms: number; locked: boolean }) {
  const error = useSignal<string | null>(null);
  const id = `cell-${projectId || 'none'}-${dayKey(day)}`;
  const text = ms ? formats.value.duration(ms) : '';
  const commit = async (input: HTMLInputElement) => {
    const minutes = parseDuration(input.value);
    if (minutes === null) {
      error.value = 'Type a time like 1:30 or 1.5';
      return;
    }
    error.value = await setCell(projectId, day, minutes);
  };
  return (
    <td>
      <DraftInput
        id={id}
        class="cell"
        inputMode="decimal"
        value={text}
        readOnly={locked}
        aria-label={`${projectName}, ${formats.value.day(day)}`}
        aria-invalid={error.value ? true : undefined}
        aria-describedby={error.value ? `${id}-error` : undefined}
        onChange={(e) => void commit(e.currentTarget)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') e.currentTarget.blur();
        }}
      />
      {error.value && (
        <span class="error" id={`${id}-error`} role="alert">
          {error.value}
        </span>
      )}
    </td>
  );
}

function WeekState({ year, week, locked }: { year: number; week: number; locked: boolean }) {
  const message = useSignal<string | null>(null);
  const requests = weekRequests.value[weekKey(year, week)] ?? {};
  const state = (status: string | undefined) => (status === 'PENDING' ? 'waiting for an administrator' : status === 'RESOLVED' ? 'granted' : status === 'REJECTED' ? 'rejected' : null);
  const unlock = state(requests.unlock?.status);
  const approval = state(requests.approval?.status);
  const run = async (ask: (y: number, w: number) => Promise<string | null>, done: string) => {
    message.value = (await ask(year, week)) ?? done;
  };
  return (
    <div class="week-state">
      <p>
        <strong>{locked ? 'Locked' : 'Open'}</strong>
        {unlock && <> · unlock request {unlock}</>}
        {approval && <> · approval {approval === 'granted' ? 'approved' : approval}</>}
      </p>
      {locked && requests.unlock?.status !== 'PENDING' && (
        <button type="button" onClick={() => void run(requestUnlock, 'Unlock requested.')}>
          Request unlock
        </button>
      )}
      {requests.approval?.status !== 'PENDING' && (
        <button type="button" onClick={() => void run(requestApproval, 'Submitted for approval.')}>
          Submit for approval
        </button>
      )}
      {message.value && <p role="status">{message.value}</p>}
    </div>
  );
}

export function TimesheetPage() {
  const tz = formats.value.timeZone;
  const monday = shown.value ?? mondayOf(dayOf(Date.now(), tz));
  useSignalEffect(() => {
    void changes.value;
    void loadTimesheetWeek(shown.value ?? mondayOf(dayOf(Date.now(), formats.value.timeZone)));
    void loadRequests();
  });
  const days = weekDays(monday);
  const { year, week } = isoWeek(monday);
  const locked = weekLocked(year, week);
  const problem = useSignal<string | null>(null);

  const cells = new Map<string, number>();
  const rows = new Set<string>(addedRows.value);
  for (const a of timesheetWeek.value) {
    const row = a.projectId ?? NO_PROJECT;
    rows.add(row);
    const key = `${row}|${dayKey(dayOf(Date.parse(a.startedAt), tz))}`;
    cells.set(key, (cells.get(key) ?? 0) + lengthOf(a));
  }
  const name = (row: string) => (row === NO_PROJECT ? 'No project' : (projects.value[row]?.name ?? 'Unknown project'));
  const ordered = [...rows].sort((a, b) => name(a).localeCompare(name(b), formats.value.locale));
  const dayTotal = (day: Date) => ordered.reduce((sum, row) => sum + (cells.get(`${row}|${dayKey(day)}`) ?? 0), 0);
  const rowTotal = (row: string) => days.reduce((sum, day) => sum + (cells.get(`${row}|${dayKey(day)}`) ?? 0), 0);
  const total = ordered.reduce((sum, row) => sum + rowTotal(row), 0);
  const go = (weeks: number) => {
    shown.value = addDays(monday, weeks * 7);
    addedRows.value = [];
  };

  return (
    <>
      <h1>Timesheet</h1>
      <nav class="week-nav" aria-label="Week">
        <button type="button" onClick={() => go(-1)} aria-label="Previous week">
          ← Previous
        </button>
        <h2 aria-live="polite">
          {formats.value.dayRange(days[0], days[6])} <span class="muted">(week {week})</span>
        </h2>
        <button type="button" onClick={() => go(1)} aria-label="Next week">
          Next →
        </button>
      </nav>
      <WeekState year={year} week={week} locked={locked} />
      <div class="grid-wrap">
        <table class="grid">
          <caption class="visually-hidden">Time per project and day; type 1:30 or 1.5 in a cell</caption>
          <thead>
            <tr>
              <th scope="col">Project</th>
              {days.map((day) => (
                <th scope="col" key={dayKey(day)}>
                  {formats.value.shortDay(day)}
                </th>
              ))}
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {ordered.map((row) => (
              <tr key={row}>
                <th scope="row">{name(row)}</th>
                {days.map((day) => (
                  <Cell key={dayKey(day)} projectId={row} projectName={name(row)} day={day} ms={cells.get(`${row}|${dayKey(day)}`) ?? 0} locked={locked} />
                ))}
                <td class="total">{formats.value.duration(rowTotal(row))}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              {days.map((day) => (
                <td key={dayKey(day)} class="total">
                  {formats.value.duration(dayTotal(day))}
                </td>
              ))}
              <td class="total" data-testid="week-total">
                {formats.value.duration(total)}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
      {!locked && (
        <div class="add-row">
          <ProjectPicker
            id="add-project"
            label="Add a project row"
            projectId={null}
            onChange={(id) => {
              if (id && !rows.has(id)) addedRows.value = [...addedRows.value, id];
            }}
          />
        </div>
      )}
      {problem.value && <p class="error">{problemMessage(undefined, problem.value)}</p>}
    </>
  );
}
