import { useSignal } from '@preact/signals';
import { fieldErrors, problemMessage, type Activity, type Problem } from '../api/client.js';
import { describedBy, Field } from '../components/Field.js';
import { DateField, TimeField } from '../components/TimeField.js';
import { WorkFields } from '../components/WorkFields.js';
import { lockedWeekOf, recordActivity } from '../data/activities.js';
import { formats } from '../data/preferences.js';
import { dayKey, dayOf, parseDateInput, parseDuration, parseTimeInput, timeInputValue, zonedInstant } from '../lib/time.js';

/*
 * Time added after the fact on Track (docs/web-app.md, "Track"): a date, a start, and an end or a
 * duration ("1:30", "1.5", as a timesheet cell reads it), with what the timer asks besides.
 */

/** The end of the last entry of that day (`YYYY-MM-DD`), else 09:00: where time added to the day starts. */
function startAfter(day: string, entries: readonly Activity[], timeZone: string): string {
  let last: number | null = null;
  for (const entry of entries) {
    if (entry.endedAt === null || dayKey(dayOf(Date.parse(entry.startedAt), timeZone)) !== day) continue;
    last = Math.max(last ?? 0, Date.parse(entry.endedAt));
  }
  return last === null ? '09:00' : timeInputValue(last, timeZone);
}

export function AddTime({ defaultDay, entries }: { defaultDay: string; entries: readonly Activity[] }) {
  const day = useSignal<string | null>(null);
  const start = useSignal<string | null>(null);
  const end = useSignal('');
  const duration = useSignal('');
  const name = useSignal('');
  const projectId = useSignal<string | null>(null);
  const taskId = useSignal<string | null>(null);
  const tagIds = useSignal<string[]>([]);
  const billable = useSignal(false);
  const problem = useSignal<Problem | undefined>(undefined);
  /** What the form itself refuses before sending: the field it is about, and why. */
  const refused = useSignal<{ field: 'end' | 'duration'; text: string } | null>(null);
  const added = useSignal<string | null>(null);
  const busy = useSignal(false);
  /** Whether the disclosure is open: closed, it holds no fields (the timer's are the page's only ones). */
  const opened = useSignal(false);
  /** The start of the entry last sent: a 423 for it is about its week. */
  const sentStart = useSignal('');
  const tz = formats.value.timeZone;
  const shownDay = day.value ?? defaultDay;
  const shownStart = start.value ?? startAfter(shownDay, entries, tz);
  const errors = fieldErrors(problem.value);

  const save = async (event: Event) => {
    event.preventDefault();
    added.value = null;
    problem.value = undefined;
    refused.value = null;
    const date = parseDateInput(shownDay);
    const from = parseTimeInput(shownStart);
    if (!date || !from) return;
    const startedAt = zonedInstant(date, from.hour, from.minute, tz);
    let endedAt: Date;
    if (duration.value.trim() !== '') {
      const minutes = parseDuration(duration.value);
      if (!minutes) {
        refused.value = { field: 'duration', text: `“${duration.value.trim()}” is not a duration: type it as 1:30 or 1.5.` };
        return;
      }
      endedAt = new Date(startedAt.getTime() + minutes * 60_000);
    } else {
      const to = parseTimeInput(end.value);
      if (!to) {
        refused.value = { field: 'end', text: 'Give an end or a duration.' };
        return;
      }
      endedAt = zonedInstant(date, to.hour, to.minute, tz);
      if (endedAt < startedAt) {
        refused.value = { field: 'end', text: 'The end is before the start.' };
        return;
      }
    }
    busy.value = true;
    sentStart.value = startedAt.toISOString();
    const body = { name: name.value.trim(), projectId: projectId.value, taskId: taskId.value, tagIds: tagIds.value, billable: billable.value, startedAt: startedAt.toISOString(), endedAt: endedAt.toISOString() };
    problem.value = await recordActivity(body);
    busy.value = false;
    if (problem.value) return;
    added.value = `Added “${body.name}”.`;
    name.value = '';
    tagIds.value = [];
    start.value = null;
    end.value = '';
    duration.value = '';
  };

  const locked = lockedWeekOf(problem.value, { startedAt: sentStart.value });
  const endError = refused.value?.field === 'end' ? refused.value.text : errors.endedAt;
  const durationError = refused.value?.field === 'duration' ? refused.value.text : undefined;
  return (
    <details class="add-time" open={opened.value} onToggle={(e) => (opened.value = e.currentTarget.open)}>
      <summary>Add time</summary>
      {opened.value && (
      <form class="timer" onSubmit={save} aria-label="Add time">
        <Field id="add-name" label="What did you work on?" error={errors.name}>
          <input id="add-name" required maxLength={255} value={name.value} onInput={(e) => (name.value = e.currentTarget.value)} {...describedBy('add-name', errors.name)} />
        </Field>
        <DateField id="add-day" label="Date" value={shownDay} error={errors.startedAt} onChange={(value) => (day.value = value)} />
        <TimeField id="add-start" label="Start" value={shownStart} onChange={(value) => (start.value = value)} />
        <TimeField
          id="add-end"
          label="End"
          value={end.value}
          error={endError}
          onChange={(value) => {
            end.value = value;
            duration.value = '';
          }}
        />
        <Field id="add-duration" label="or duration" error={durationError}>
          <input
            id="add-duration"
            size={6}
            placeholder="1:30"
            value={duration.value}
            onInput={(e) => {
              duration.value = e.currentTarget.value;
              if (e.currentTarget.value.trim() !== '') end.value = '';
            }}
            {...describedBy('add-duration', durationError)}
          />
        </Field>
        <WorkFields prefix="add" work={{ projectId, taskId, tagIds, billable }} errors={errors} />
        <button type="submit" class="primary" disabled={busy.value}>
          Add
        </button>
        {locked ? (
          <p class="error" role="alert">
            Week {locked.week} of {locked.year} is locked: the entry was not saved.
          </p>
        ) : (
          problem.value && !problem.value.errors && <p class="error" role="alert">{problemMessage(problem.value)}</p>
        )}
        {added.value && <p role="status">{added.value}</p>}
      </form>
      )}
    </details>
  );
}
