import { signal, useSignal, useSignalEffect } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { fieldErrors, problemMessage, type Activity, type Problem, type Schemas } from '../api/client.js';
import { describedBy, DraftInput, Field } from '../components/Field.js';
import { ProjectPicker } from '../components/ProjectPicker.js';
import { TagField } from '../components/TagField.js';
import { TaskPicker } from '../components/TaskPicker.js';
import { DateField, TimeField } from '../components/TimeField.js';
import { WorkFields } from '../components/WorkFields.js';
import { showToast } from '../components/Toast.js';
import {
  changeActivity,
  defaultBillable,
  deleteActivity,
  loadPastWeekEntries,
  loadThisWeekEntries,
  lockedWeekOf,
  pastWeekEntries,
  recordActivity,
  runningTimer,
  sameWorkAs,
  startTimer,
  stopTimer,
  thisWeekEntries,
  thisWeekEntriesLoaded,
  weekOf,
  type Week,
} from '../data/activities.js';
import { changes } from '../data/changes.js';
import { loadClients } from '../data/clients.js';
import { formats } from '../data/preferences.js';
import { loadRequests, requestUnlock } from '../data/requests.js';
import { loadTags, tags } from '../data/tags.js';
import { ensureTasks } from '../data/tasks.js';
import { weekKey, weekLocked, weekRequests } from '../data/weeks.js';
import { workOf } from '../data/work.js';
import { currentSearch, followLink, navigate } from '../lib/router.js';
import { addDays, dateInputValue, dayKey, dayOf, isoWeek, mondayOf, mondayOfWeek, parseDateInput, parseTimeInput, timeInputValue, zonedInstant } from '../lib/time.js';
import { AddTime } from './AddTime.js';

type ChangeBody = Schemas['UpdateActivityBody'];

/** Ticks every second while a timer runs. */
const now = signal(Date.now());

/** An activity's tags, read only. */
function TagList({ tagIds, label }: { tagIds: readonly string[]; label: string }) {
  const shown = tagIds.map((tagId) => tags.value[tagId]).filter((tag) => tag !== undefined);
  if (shown.length === 0) return null;
  return (
    <ul class="chips" aria-label={label}>
      {shown.map((tag) => (
        <li key={tag.id} class="chip">
          {tag.name}
        </li>
      ))}
    </ul>
  );
}

function TimerBar() {
  const running = runningTimer.value;
  const name = useSignal('');
  const projectId = useSignal<string | null>(null);
  const taskId = useSignal<string | null>(null);
  const tagIds = useSignal<string[]>([]);
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
    const stop = async () => {
      busy.value = true;
      problem.value = await stopTimer(running);
      busy.value = false;
    };
    return (
      <section class="timer running" aria-label="Running timer">
        <div>
          <p class="timer-name">{running.name}</p>
          <p class="muted">
            {workOf(running)} · started {formats.value.time(running.startedAt)}
          </p>
          <TagList tagIds={running.tagIds} label="Tags of the running timer" />
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
    problem.value = await startTimer({ name: name.value.trim(), projectId: projectId.value, taskId: taskId.value, tagIds: tagIds.value, billable: billable.value });
    busy.value = false;
    if (!problem.value) {
      name.value = '';
      tagIds.value = [];
    }
  };
  return (
    <form class="timer" onSubmit={start} aria-label="Start a timer">
      <Field id="timer-name" label="What are you working on?" error={errors.name}>
        <input id="timer-name" required maxLength={255} value={name.value} onInput={(e) => (name.value = e.currentTarget.value)} {...describedBy('timer-name', errors.name)} />
      </Field>
      <WorkFields prefix="timer" work={{ projectId, taskId, tagIds, billable }} errors={errors} />
      <button type="submit" class="primary" disabled={busy.value}>
        Start
      </button>
      {problem.value && !problem.value.errors && <p class="error" role="alert">{problemMessage(problem.value)}</p>}
    </form>
  );
}

/** An entry's times as its date and time fields hold them. */
interface EntryTimes {
  day: string;
  start: string;
  end: string;
}

/**
 * The locked week each entry's last change was refused for (a date moved into it, say), by activity id.
 * Kept outside the row: a date moved out of the week takes the row off the page until the refusal
 * brings it back, and the refusal must still show then.
 */
const refusedWeeks = signal<Record<string, Week>>({});

function EntryRow({ activity }: { activity: Activity }) {
  const problem = useSignal<Problem | undefined>(undefined);
  /** Times typed that end before they start, shown until the person says whether the entry ends the next day. */
  const askNextDay = useSignal<EntryTimes | null>(null);
  const refusedIn = refusedWeeks.value[activity.id];
  const tz = formats.value.timeZone;
  const { year, week } = weekOf(activity);
  const locked = weekLocked(year, week);
  const errors = fieldErrors(problem.value);
  const id = `entry-${activity.id}`;

  const change = async (body: ChangeBody) => {
    const refused = await changeActivity(activity, body);
    const { [activity.id]: _, ...others } = refusedWeeks.value;
    const lockedWeek = lockedWeekOf(refused, activity, body);
    refusedWeeks.value = lockedWeek ? { ...others, [activity.id]: lockedWeek } : others;
    problem.value = refused;
  };
  const remove = async () => {
    problem.value = await deleteActivity(activity);
    if (problem.value) return;
    showToast({
      text: `Deleted “${activity.name}”.`,
      action: {
        label: 'Undo',
        run: async () => {
          await recordActivity({ ...sameWorkAs(activity), startedAt: activity.startedAt, endedAt: activity.endedAt });
        },
      },
    });
  };
  const continueIt = () => void startTimer(sameWorkAs(activity));

  const stored: EntryTimes = {
    day: dateInputValue(dayOf(Date.parse(activity.startedAt), tz)),
    start: timeInputValue(Date.parse(activity.startedAt), tz),
    end: timeInputValue(Date.parse(activity.endedAt!), tz),
  };
  const shown = askNextDay.value ?? stored;
  // An entry that already ends on a later day than it starts (it ran past midnight) goes on ending the next day.
  const overnight = dayKey(dayOf(Date.parse(activity.endedAt!), tz)) !== dayKey(dayOf(Date.parse(activity.startedAt), tz));
  const changeTimes = (times: EntryTimes, nextDay = false) => {
    const day = parseDateInput(times.day);
    const start = parseTimeInput(times.start);
    const end = parseTimeInput(times.end);
    if (!day || !start || !end) return;
    const startedAt = zonedInstant(day, start.hour, start.minute, tz);
    let endedAt = zonedInstant(day, end.hour, end.minute, tz);
    if (endedAt < startedAt) {
      // An end before the start is asked about, never taken for the next day unsaid: nothing is saved meanwhile.
      if (!nextDay && !overnight) {
        askNextDay.value = times;
        return;
      }
      endedAt = zonedInstant(addDays(day, 1), end.hour, end.minute, tz);
    }
    askNextDay.value = null;
    void change({ startedAt: startedAt.toISOString(), endedAt: endedAt.toISOString() });
  };
  const answer = (nextDay: boolean) => {
    if (nextDay && askNextDay.value) changeTimes(askNextDay.value, true);
    else askNextDay.value = null;
    document.getElementById(`${id}-end`)?.focus();
  };
  const questionId = `${id}-end-question`;
  const endDescription = askNextDay.value ? { 'aria-invalid': true as const, 'aria-describedby': questionId } : describedBy(`${id}-end`, errors.endedAt);
  return (
    <li class="entry" data-testid="entry">
      <div class="entry-what">
        <Field id={`${id}-name`} label="Description" hiddenLabel error={errors.name}>
          <DraftInput id={`${id}-name`} value={activity.name} maxLength={255} readOnly={locked} required onChange={(e) => void change({ name: e.currentTarget.value })} {...describedBy(`${id}-name`, errors.name)} />
        </Field>
        {/* Another project takes none of the old one's tasks: the task is cleared with it (the API refuses it). The entry takes the billable of what is picked, as a new one would. */}
        <ProjectPicker
          id={`${id}-project`}
          label="Project"
          hiddenLabel
          projectId={activity.projectId}
          disabled={locked}
          error={errors.projectId}
          onChange={(projectId) => void change({ projectId, taskId: null, billable: defaultBillable(projectId, null) })}
        />
        {activity.projectId ? (
          <TaskPicker
            id={`${id}-task`}
            label="Task"
            hiddenLabel
            projectId={activity.projectId}
            taskId={activity.taskId}
            disabled={locked}
            error={errors.taskId}
            onChange={(taskId) => void change({ taskId, billable: defaultBillable(activity.projectId, taskId) })}
          />
        ) : (
          <span class="no-task" aria-hidden="true" />
        )}
        <TagField id={`${id}-tags`} label="Tags" hiddenLabel tagIds={activity.tagIds} disabled={locked} error={errors.tagIds} onChange={(tagIds) => void change({ tagIds })} />
      </div>
      <div class="entry-when">
        <span class="times">
          <DateField id={`${id}-day`} label="Date" hiddenLabel value={shown.day} readOnly={locked} onChange={(day) => changeTimes({ ...shown, day })} />
          <TimeField id={`${id}-start`} label="Start" hiddenLabel value={shown.start} readOnly={locked} error={errors.startedAt} onChange={(start) => changeTimes({ ...shown, start })} />
          <TimeField id={`${id}-end`} label="End" hiddenLabel value={shown.end} readOnly={locked} error={errors.endedAt} description={endDescription} onChange={(end) => changeTimes({ ...shown, end })} />
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
      </div>
      {askNextDay.value && (
        <div class="next-day">
          <p class="error" id={questionId} role="alert">
            The end is before the start: does the entry end the next day?
          </p>
          <button type="button" class="primary" onClick={() => answer(true)}>
            Yes, the next day
          </button>
          <button type="button" onClick={() => answer(false)}>
            No, put the times back
          </button>
        </div>
      )}
      {refusedIn ? (
        // Refused for the entry's own week: the week's notice offers the unlock.
        <UnlockOffer {...refusedIn} refusal offer={refusedIn.year !== year || refusedIn.week !== week} />
      ) : (
        problem.value && !problem.value.errors && <p class="error" role="alert">{problemMessage(problem.value)}</p>
      )}
    </li>
  );
}

/**
 * A locked week and the offer to ask an administrator to unlock it: the notice of the week shown, or
 * (`refusal`) the answer to a change refused because it would touch that week.
 */
function UnlockOffer({ year, week, refusal = false, offer = true, current = true }: Week & { refusal?: boolean; offer?: boolean; current?: boolean }) {
  const message = useSignal<string | null>(null);
  const request = weekRequests.value[weekKey(year, week)]?.unlock;
  const ask = async () => {
    message.value = (await requestUnlock(year, week)) ?? `Unlock of week ${week} of ${year} requested: an administrator will answer.`;
  };
  const waiting = !offer ? '' : request?.status === 'PENDING' ? ' Your unlock request is waiting for an administrator.' : request?.status === 'REJECTED' ? ' Your unlock request was rejected.' : '';
  return (
    <div class={refusal ? 'error' : 'notice'} role={refusal ? 'alert' : 'note'}>
      <p>{refusal ? `Week ${week} of ${year} is locked: the change was not saved.${waiting}` : `${current ? 'This week' : `Week ${week} of ${year}`} is locked: its entries are read-only.${waiting}`}</p>
      {offer && request?.status !== 'PENDING' && (
        <button type="button" onClick={ask}>
          {refusal ? `Request unlock of week ${week}` : 'Request unlock'}
        </button>
      )}
      {message.value && <p role="status">{message.value}</p>}
    </div>
  );
}

/** The Monday of the week the address names (`?week=2026-W49`), else null: this week. */
function weekInAddress(search: string): Date | null {
  const match = /^(\d{4})-W(\d{2})$/.exec(new URLSearchParams(search).get('week') ?? '');
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 53) return null;
  const monday = mondayOfWeek(Number(match[1]), Number(match[2]));
  // Week 53 of a year that has none is no week.
  return isoWeek(monday).week === Number(match[2]) ? monday : null;
}

/** Previous and next week, and back to this one; the week shown is in the address (docs/web-app.md, "Track"). */
function WeekNav({ monday, thisMonday }: { monday: Date; thisMonday: Date }) {
  const { year, week } = isoWeek(monday);
  const go = (weeks: number) => {
    const to = addDays(monday, weeks * 7);
    const shown = isoWeek(to);
    navigate(dayKey(to) === dayKey(thisMonday) ? '/' : `/?week=${weekKey(shown.year, shown.week)}`);
  };
  const current = dayKey(monday) === dayKey(thisMonday);
  return (
    <nav class="week-nav" aria-label="Week">
      <button type="button" onClick={() => go(-1)} aria-label="Previous week">
        ← Previous
      </button>
      <p aria-live="polite">
        {formats.value.dayRange(monday, addDays(monday, 6))}{' '}
        <span class="muted">
          (week {week} of {year})
        </span>
      </p>
      {!current && (
        <>
          {monday < thisMonday && (
            <button type="button" onClick={() => go(1)} aria-label="Next week">
              Next →
            </button>
          )}
          <a href="/" onClick={followLink}>
            This week
          </a>
        </>
      )}
    </nav>
  );
}

export function TrackPage() {
  const tz = formats.value.timeZone;
  const thisMonday = mondayOf(dayOf(Date.now(), tz));
  const monday = weekInAddress(currentSearch.value) ?? thisMonday;
  const current = dayKey(monday) === dayKey(thisMonday);
  useSignalEffect(() => {
    void changes.value;
    const past = weekInAddress(currentSearch.value);
    const shownPast = past && dayKey(past) !== dayKey(mondayOf(dayOf(Date.now(), formats.value.timeZone))) ? past : null;
    // One listing at a time: the API runs at most two of a token at once (docs/rules.md §6 Listing activities).
    void (async () => {
      if (shownPast) await loadPastWeekEntries(shownPast);
      await loadThisWeekEntries();
    })();
    void loadRequests();
    void loadClients();
    void loadTags();
  });
  const past = pastWeekEntries.value;
  const shownEntries = current ? thisWeekEntries.value : past?.monday === dayKey(monday) ? past.entries : [];
  const loaded = current ? thisWeekEntriesLoaded.value : past?.monday === dayKey(monday);
  // The tasks of the projects the week's entries are on, for their names and pickers.
  useSignalEffect(() => ensureTasks(new Set([...thisWeekEntries.value, ...(pastWeekEntries.value?.entries ?? [])].map((activity) => activity.projectId))));
  const finished = shownEntries.filter((activity) => activity.endedAt !== null).sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt));
  const days = new Map<string, { day: Date; items: Activity[]; total: number }>();
  for (const activity of finished) {
    const day = dayOf(Date.parse(activity.startedAt), tz);
    const group = days.get(dayKey(day)) ?? { day, items: [], total: 0 };
    group.items.push(activity);
    group.total += Date.parse(activity.endedAt!) - Date.parse(activity.startedAt);
    days.set(dayKey(day), group);
  }
  const shownWeek = isoWeek(monday);
  const weekTotal = [...days.values()].reduce((sum, group) => sum + group.total, 0);
  return (
    <>
      <h1>Track</h1>
      <TimerBar />
      <WeekNav monday={monday} thisMonday={thisMonday} />
      {weekLocked(shownWeek.year, shownWeek.week) && <UnlockOffer {...shownWeek} current={current} />}
      <AddTime key={dayKey(monday)} defaultDay={current ? dayKey(dayOf(Date.now(), tz)) : dayKey(monday)} entries={shownEntries} />
      <h2 class="week-total">
        {current ? 'This week' : `Week ${shownWeek.week} of ${shownWeek.year}`} <span>{formats.value.duration(weekTotal)}</span>
      </h2>
      {loaded && days.size === 0 && <p class="muted">{current ? 'No time recorded this week yet.' : `No time recorded in week ${shownWeek.week}.`}</p>}
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
