import { signal, useSignal, useSignalEffect } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { fieldErrors, problemMessage, type Activity, type Problem, type Schemas } from '../api/client.js';
import { describedBy, DraftInput, Field } from '../components/Field.js';
import { ProjectPicker } from '../components/ProjectPicker.js';
import { showToast } from '../components/Toast.js';
import { changeActivity, deleteActivity, loadThisWeekEntries, recordActivity, runningTimer, startTimer, stopTimer, thisWeekEntries, thisWeekEntriesLoaded, weekOf } from '../data/activities.js';
import { changes } from '../data/changes.js';
import { formats } from '../data/preferences.js';
import { projects } from '../data/projects.js';
import { loadRequests, requestUnlock } from '../data/requests.js';
import { weekKey, weekLocked, weekRequests } from '../data/weeks.js';
import { addDays, dateInputValue, dayKey, dayOf, isoWeek, parseDateInput, parseTimeInput, timeInputValue, zonedInstant } from '../lib/time.js';

type ChangeBody = Schemas['UpdateActivityBody'];

/** Ticks every second while a timer runs. */
const now = signal(Date.now());

function TimerBar() {
  const running = runningTimer.value;
  const name = useSignal('');
  const projectId = useSignal<string | null>(null);
  const billable = useSignal(false);
  const problem = useSignal<Problem | undefined>(undefined);
  const busy = useSignal(false);

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => (now.value = Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running?.id]);
  useSignalEffect(() => {
    const active = runningTimer.value;
    document.title = active ? `${formats.value.duration(now.value - Date.parse(active.startedAt), true)} · ${active.name} · timetrack` : 'Track · timetrack';
  });

  const errors = fieldErrors(problem.value);
  if (running) {
    const project = running.projectId ? projects.value[running.projectId]?.name : null;
    const stop = async () => {
      busy.value = true;
      problem.value = await stopTimer(running);
      busy.value = false;
    };
    return (
      <section class="timer running" aria-label="Running timer">
        <div>
          <p class="timer-name">{running.name}</p>
          <p class="muted">{project ?? 'No project'} · started {formats.value.time(running.startedAt)}</p>
        </div>
        <p class="elapsed" aria-live="off" data-testid="elapsed">
          {formats.value.duration(now.value - Date.parse(running.startedAt), true)}
        </p>
        <button type="button" class="primary" onClick={stop} disabled={busy.value}>
          Stop
        </button>
        {problem.value && <p class="error" role="alert">{problemMessage(problem.value)}</p>}
      </section>
    );
  }

  const start = async (event: Event) => {
    event.preventDefault();
    busy.value = true;
    problem.value = await startTimer({ name: name.value.trim(), projectId: projectId.value, billable: billable.value });
    busy.value = false;
    if (!problem.value) name.value = '';
  };
  return (
    <form class="timer" onSubmit={start} aria-label="Start a timer">
      <Field id="timer-name" label="What are you working on?" error={errors.name}>
        <input id="timer-name" required maxLength={255} value={name.value} onInput={(e) => (name.value = e.currentTarget.value)} {...describedBy('timer-name', errors.name)} />
      </Field>
      <ProjectPicker
        id="timer-project"
        label="Project"
        projectId={projectId.value}
        error={errors.projectId}
        onChange={(id) => {
          projectId.value = id;
          billable.value = id ? (projects.value[id]?.billable ?? false) : false;
        }}
      />
      <span class="check">
        <input id="timer-billable" type="checkbox" checked={billable.value} onChange={(e) => (billable.value = e.currentTarget.checked)} />
        <label for="timer-billable">Billable</label>
      </span>
      <button type="submit" class="primary" disabled={busy.value}>
        Start
      </button>
      {problem.value && !problem.value.errors && <p class="error" role="alert">{problemMessage(problem.value)}</p>}
    </form>
  );
}

function EntryRow({ activity }: { activity: Activity }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const tz = formats.value.timeZone;
  const { year, week } = weekOf(activity);
  const locked = weekLocked(year, week);
  const errors = fieldErrors(problem.value);
  const id = `entry-${activity.id}`;

  const change = async (body: ChangeBody) => {
    problem.value = await changeActivity(activity, body);
  };
  const changeTimes = (startDay: string, startTime: string, endTime: string) => {
    const day = parseDateInput(startDay);
    const start = parseTimeInput(startTime);
    const end = parseTimeInput(endTime);
    if (!day || !start || !end) return;
    const startedAt = zonedInstant(day, start.hour, start.minute, tz);
    let endedAt = zonedInstant(day, end.hour, end.minute, tz);
    if (endedAt < startedAt) endedAt = zonedInstant(addDays(day, 1), end.hour, end.minute, tz);
    void change({ startedAt: startedAt.toISOString(), endedAt: endedAt.toISOString() });
  };
  const remove = async () => {
    problem.value = await deleteActivity(activity);
    if (problem.value) return;
    showToast({
      text: `Deleted “${activity.name}”.`,
      action: {
        label: 'Undo',
        run: async () => {
          const { name, startedAt, endedAt, billable, projectId } = activity;
          await recordActivity({ name, startedAt, endedAt, billable, projectId });
        },
      },
    });
  };
  const continueIt = () => void startTimer({ name: activity.name, projectId: activity.projectId, billable: activity.billable });

  const startDay = dateInputValue(dayOf(Date.parse(activity.startedAt), tz));
  const startTime = timeInputValue(Date.parse(activity.startedAt), tz);
  const endTime = timeInputValue(Date.parse(activity.endedAt!), tz);
  return (
    <li class="entry" data-testid="entry">
      <Field id={`${id}-name`} label="Description" hiddenLabel error={errors.name}>
        <DraftInput id={`${id}-name`} value={activity.name} maxLength={255} readOnly={locked} required onChange={(e) => void change({ name: e.currentTarget.value })} {...describedBy(`${id}-name`, errors.name)} />
      </Field>
      <ProjectPicker id={`${id}-project`} label="Project" hiddenLabel projectId={activity.projectId} disabled={locked} error={errors.projectId} onChange={(projectId) => void change({ projectId })} />
      <span class="times">
        <Field id={`${id}-day`} label="Date" hiddenLabel>
          <input id={`${id}-day`} type="date" value={startDay} readOnly={locked} onChange={(e) => changeTimes(e.currentTarget.value, startTime, endTime)} />
        </Field>
        <Field id={`${id}-start`} label="Start" hiddenLabel error={errors.startedAt}>
          <input id={`${id}-start`} type="time" value={startTime} readOnly={locked} onChange={(e) => changeTimes(startDay, e.currentTarget.value, endTime)} {...describedBy(`${id}-start`, errors.startedAt)} />
        </Field>
        <Field id={`${id}-end`} label="End" hiddenLabel error={errors.endedAt}>
          <input id={`${id}-end`} type="time" value={endTime} readOnly={locked} onChange={(e) => changeTimes(startDay, startTime, e.currentTarget.value)} {...describedBy(`${id}-end`, errors.endedAt)} />
        </Field>
      </span>
      <span class="duration">{formats.value.duration(Date.parse(activity.endedAt!) - Date.parse(activity.startedAt))}</span>
      <span class="check">
        <input id={`${id}-billable`} type="checkbox" checked={activity.billable} disabled={locked} onChange={(e) => void change({ billable: e.currentTarget.checked })} />
        <label for={`${id}-billable`}>Billable</label>
      </span>
      <span class="actions">
        <button type="button" onClick={continueIt} aria-label={`Continue “${activity.name}”`}>
          Continue
        </button>
        {!locked && (
          <button type="button" class="danger" onClick={remove} aria-label={`Delete “${activity.name}”`}>
            Delete
          </button>
        )}
      </span>
      {problem.value && !problem.value.errors && <p class="error" role="alert">{problemMessage(problem.value)}</p>}
    </li>
  );
}

function LockNotice({ year, week }: { year: number; week: number }) {
  const message = useSignal<string | null>(null);
  const request = weekRequests.value[weekKey(year, week)]?.unlock;
  const ask = async () => {
    message.value = (await requestUnlock(year, week)) ?? 'Unlock requested: an administrator will answer.';
  };
  return (
    <div class="notice" role="note">
      <p>
        This week is locked: its entries are read-only.{' '}
        {request?.status === 'PENDING' ? 'Your unlock request is waiting for an administrator.' : request?.status === 'REJECTED' ? 'Your unlock request was rejected.' : null}
      </p>
      {request?.status !== 'PENDING' && (
        <button type="button" onClick={ask}>
          Request unlock
        </button>
      )}
      {message.value && <p role="status">{message.value}</p>}
    </div>
  );
}

export function TrackPage() {
  useSignalEffect(() => {
    void changes.value;
    void loadThisWeekEntries();
    void loadRequests();
  });
  const tz = formats.value.timeZone;
  const finished = thisWeekEntries.value.filter((activity) => activity.endedAt !== null).sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt));
  const days = new Map<string, { day: Date; items: Activity[]; total: number }>();
  for (const activity of finished) {
    const day = dayOf(Date.parse(activity.startedAt), tz);
    const group = days.get(dayKey(day)) ?? { day, items: [], total: 0 };
    group.items.push(activity);
    group.total += Date.parse(activity.endedAt!) - Date.parse(activity.startedAt);
    days.set(dayKey(day), group);
  }
  const thisWeek = isoWeek(dayOf(Date.now(), tz));
  const weekTotal = [...days.values()].reduce((sum, group) => sum + group.total, 0);
  return (
    <>
      <h1>Track</h1>
      <TimerBar />
      {weekLocked(thisWeek.year, thisWeek.week) && <LockNotice {...thisWeek} />}
      <h2 class="week-total">
        This week <span>{formats.value.duration(weekTotal)}</span>
      </h2>
      {thisWeekEntriesLoaded.value && days.size === 0 && <p class="muted">No time recorded this week yet.</p>}
      {[...days.values()].map((group) => (
        <section key={dayKey(group.day)} class="day" aria-labelledby={`day-${dayKey(group.day)}`}>
          <h3 id={`day-${dayKey(group.day)}`}>
            {formats.value.day(group.day)} <span class="total">{formats.value.duration(group.total)}</span>
          </h3>
          <ul class="entries">
            {group.items.map((activity) => (
              <EntryRow key={activity.id} activity={activity} />
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
