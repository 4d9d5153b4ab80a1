import { signal, useSignal, useSignalEffect } from '@preact/signals';
import { problemMessage } from '../api/client.js';
import { DraftInput } from '../components/Field.js';
import { ProjectPicker } from '../components/ProjectPicker.js';
import { TaskPicker } from '../components/TaskPicker.js';
import { changes } from '../data/changes.js';
import { clients, loadClients } from '../data/clients.js';
import { formats } from '../data/preferences.js';
import { projects } from '../data/projects.js';
import { loadRequests, requestApproval, requestUnlock } from '../data/requests.js';
import { ensureTasks, taskOf } from '../data/tasks.js';
import { lengthOf, loadTimesheetWeek, rowKey, rowOf, rowOfKey, setCell, timesheetWeek, type SheetRow } from '../data/timesheet.js';
import { weekKey, weekLocked, weekRequests } from '../data/weeks.js';
import { addDays, dayKey, dayOf, isoWeek, mondayOf, parseDuration, weekDays } from '../lib/time.js';

/** The week shown (this week until the person moves): kept while they visit other pages. */
const shown = signal<Date | null>(null);
/** Rows added by the person that hold no time yet, by key (rowKey). */
const addedRows = signal<string[]>([]);
/** The project of the rows being added: its row is added, then a task picker offers its tasks' rows. */
const addingProject = signal<string | null>(null);

/** What names a row: its project ("No project" for the time without one) and its task, if any. */
function rowParts(row: SheetRow): { project: string; task?: string } {
  if (!row.projectId) return { project: 'No project' };
  const project = projects.value[row.projectId]?.name ?? 'Unknown project';
  if (!row.taskId) return { project };
  const task = taskOf(row.projectId, row.taskId);
  return { project, task: task ? task.name + (task.archived ? ' (archived)' : '') : 'Unknown task' };
}

/** A row's name: "Project · Task". */
function rowName(row: SheetRow): string {
  const { project, task } = rowParts(row);
  return task === undefined ? project : `${project} · ${task}`;
}

/** A row's head: the project, its task beneath (" · " for screen readers), the client beneath both. */
function RowHead({ row }: { row: SheetRow }) {
  const project = row.projectId ? projects.value[row.projectId] : undefined;
  const client = project?.clientId ? clients.value[project.clientId] : undefined;
  const { project: projectPart, task } = rowParts(row);
  return (
    <th scope="row">
      {projectPart}
      {task !== undefined && (
        <span class="row-task">
          <span class="visually-hidden"> · </span>
          {task}
        </span>
      )}
      {client && (
        <span class="row-client muted">
          <span class="visually-hidden">, client </span>
          {client.name}
        </span>
      )}
    </th>
  );
}

function Cell({ row, day, ms, locked }: { row: SheetRow; day: Date; ms: number; locked: boolean }) {
  const error = useSignal<string | null>(null);
  const id = `cell-${row.projectId ?? 'none'}-${row.taskId ?? 'none'}-${dayKey(day)}`;
  const text = ms ? formats.value.duration(ms) : '';
  const commit = async (input: HTMLInputElement) => {
    const minutes = parseDuration(input.value);
    if (minutes === null) {
      error.value = 'Type a time like 1:30 or 1.5';
      return;
    }
    error.value = await setCell(row, day, minutes);
  };
  return (
    <td>
      <DraftInput
        id={id}
        class="cell"
        inputMode="decimal"
        value={text}
        readOnly={locked}
        aria-label={`${rowName(row)}, ${formats.value.day(day)}`}
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

/** The state of the person's own week: locked or open, its unlock and approval requests, and what may be asked next. */
function WeekState({ year, week, locked }: { year: number; week: number; locked: boolean }) {
  const message = useSignal<string | null>(null);
  const requests = weekRequests.value[weekKey(year, week)] ?? {};
  const state = (status: string | undefined) => (status === 'PENDING' ? 'waiting for an administrator' : status === 'RESOLVED' ? 'granted' : status === 'REJECTED' ? 'rejected' : null);
  const unlock = state(requests.unlock?.status);
  const approvalStatus = requests.approval?.status;
  const approval = approvalStatus === 'PENDING' ? 'awaiting approval' : approvalStatus === 'RESOLVED' ? 'approved' : approvalStatus === 'REJECTED' ? 'approval rejected' : null;
  const run = async (ask: (y: number, w: number) => Promise<string | null>, done: string) => {
    message.value = (await ask(year, week)) ?? done;
  };
  return (
    <div class="week-state">
      <p>
        <strong>{locked ? 'Locked' : 'Open'}</strong>
        {approval && <> · {approval}</>}
        {unlock && <> · unlock request {unlock}</>}
      </p>
      {locked && <p>This week is locked: its time is read-only.</p>}
      {locked && requests.unlock?.status !== 'PENDING' && (
        <button type="button" onClick={() => void run(requestUnlock, 'Unlock requested.')}>
          Request unlock
        </button>
      )}
      {/* Submitted once: a pending or approved week is not offered again (docs/web-app.md, "Locked weeks"). */}
      {approvalStatus !== 'PENDING' && approvalStatus !== 'RESOLVED' && (
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
    void loadClients();
  });
  // The tasks of the week's projects, for the rows' names.
  useSignalEffect(() => ensureTasks(new Set(timesheetWeek.value.map((activity) => activity.projectId))));
  const days = weekDays(monday);
  const { year, week } = isoWeek(monday);
  const locked = weekLocked(year, week);
  const problem = useSignal<string | null>(null);

  // One row per project and task: the cells' keys are the row's key and the day's.
  const cells = new Map<string, number>();
  const rows = new Set<string>(addedRows.value);
  for (const a of timesheetWeek.value) {
    const row = rowKey(rowOf(a));
    rows.add(row);
    const key = `${row}|${dayKey(dayOf(Date.parse(a.startedAt), tz))}`;
    cells.set(key, (cells.get(key) ?? 0) + lengthOf(a));
  }
  const locale = formats.value.locale;
  const projectName = (row: SheetRow) => (row.projectId ? (projects.value[row.projectId]?.name ?? '') : '');
  const taskName = (row: SheetRow) => (row.taskId ? (taskOf(row.projectId, row.taskId)?.name ?? '') : '');
  // By project name (the time without a project first), then the project's time without a task, then its tasks by name.
  const ordered = [...rows]
    .map(rowOfKey)
    .sort((a, b) => projectName(a).localeCompare(projectName(b), locale) || (a.projectId ?? '').localeCompare(b.projectId ?? '') || taskName(a).localeCompare(taskName(b), locale));
  const cellOf = (row: SheetRow, day: Date) => cells.get(`${rowKey(row)}|${dayKey(day)}`) ?? 0;
  const dayTotal = (day: Date) => ordered.reduce((sum, row) => sum + cellOf(row, day), 0);
  const rowTotal = (row: SheetRow) => days.reduce((sum, day) => sum + cellOf(row, day), 0);
  const total = ordered.reduce((sum, row) => sum + rowTotal(row), 0);
  const addRow = (row: SheetRow) => {
    if (!rows.has(rowKey(row))) addedRows.value = [...addedRows.value, rowKey(row)];
  };
  const go = (weeks: number) => {
    shown.value = addDays(monday, weeks * 7);
    addedRows.value = [];
    addingProject.value = null;
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
          <caption class="visually-hidden">Time per project, task and day; type 1:30 or 1.5 in a cell</caption>
          <thead>
            <tr>
              <th scope="col">Project · task</th>
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
              <tr key={rowKey(row)}>
                <RowHead row={row} />
                {days.map((day) => (
                  <Cell key={dayKey(day)} row={row} day={day} ms={cellOf(row, day)} locked={locked} />
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
            projectId={addingProject.value}
            onChange={(projectId) => {
              addingProject.value = projectId;
              if (projectId) addRow({ projectId, taskId: null });
            }}
          />
          {addingProject.value && (
            <TaskPicker
              id="add-task"
              label={`Add a task row of ${projects.value[addingProject.value]?.name ?? 'the project'}`}
              projectId={addingProject.value}
              taskId={null}
              onChange={(taskId) => {
                if (taskId && addingProject.value) addRow({ projectId: addingProject.value, taskId });
              }}
            />
          )}
        </div>
      )}
      {problem.value && <p class="error">{problemMessage(undefined, problem.value)}</p>}
    </>
  );
}
