import { useSignal, useSignalEffect } from '@preact/signals';
import { fieldErrors, problemMessage, type Problem } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { changes } from '../../data/changes.js';
import { loadLocksOf, lockWeekOf, unlockLock, type TimesheetLock } from '../../data/locks.js';
import { formats } from '../../data/preferences.js';
import { addDays, mondayOfWeek } from '../../lib/time.js';

/** `2026-W27` (what a week field holds) as a year and a week, or null. */
function parseWeekInput(value: string): { year: number; week: number } | null {
  const match = /^(\d{4})-W(\d{1,2})$/.exec(value.trim());
  return match ? { year: Number(match[1]), week: Number(match[2]) } : null;
}

/** "Week 27 of 2026 (29 Jun – 5 Jul 2026)". */
function weekName(year: number, week: number): string {
  const monday = mondayOfWeek(year, week);
  return `Week ${week} of ${year} (${formats.value.dayRange(monday, addDays(monday, 6))})`;
}

/**
 * One person's timesheet locks (administrators, docs/web-app-management.md "Team"): their locked
 * weeks, each unlocked in one click, and a week to lock. An approved week is among them.
 */
export function WeekLocks({ id, userId, name }: { id: string; userId: string; name: string }) {
  const locks = useSignal<TimesheetLock[]>([]);
  const problem = useSignal<Problem | undefined>(undefined);
  const done = useSignal<string | null>(null);
  const reload = async () => {
    locks.value = await loadLocksOf(userId);
  };
  useSignalEffect(() => {
    void changes.value;
    void reload();
  });
  const errors = fieldErrors(problem.value);
  const weekError = errors.week ?? errors.year;
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const week = parseWeekInput(String(new FormData(form).get('week') ?? ''));
    if (!week) {
      problem.value = { type: '', title: '', status: 422, detail: '', code: 'validation', errors: [{ pointer: '/body/week', message: 'Choose a week, like 2026-W27' }] };
      return;
    }
    const answer = await lockWeekOf(userId, week.year, week.week);
    problem.value = answer.error;
    done.value = answer.error ? null : `${weekName(week.year, week.week)} is locked for ${name}.`;
    if (!answer.error) form.reset();
    await reload();
  };
  const unlock = async (lock: TimesheetLock) => {
    const answer = await unlockLock(lock.id);
    problem.value = answer.error;
    done.value = answer.error ? null : `${weekName(lock.year, lock.week)} is unlocked for ${name}.`;
    await reload();
  };
  const open = (lock: TimesheetLock) => lock.unlockedTo !== null && Date.parse(lock.unlockedTo) > Date.now();
  return (
    <section class="card" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{name}'s timesheet locks</h3>
      {locks.value.length === 0 ? (
        <p class="muted">No week is locked for {name} by a lock of their own.</p>
      ) : (
        <ul class="requests" aria-label={`${name}'s locked weeks`}>
          {locks.value.map((lock) => (
            <li key={lock.id}>
              <span>
                {weekName(lock.year, lock.week)} · {open(lock) ? `open until ${formats.value.dateTime(lock.unlockedTo!)}` : 'locked'}
              </span>
              <span class="row-actions">
                <button type="button" onClick={() => void unlock(lock)} aria-label={`Unlock week ${lock.week} of ${lock.year} for ${name}`}>
                  Unlock
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} aria-label={`Lock a week for ${name}`}>
        <Field id={`${id}-week`} label="Week to lock" error={weekError}>
          <input id={`${id}-week`} name="week" type="week" required placeholder="2026-W27" {...describedBy(`${id}-week`, weekError)} />
        </Field>
        <button type="submit">Lock week</button>
      </form>
      {done.value && <p role="status">{done.value}</p>}
      {problem.value && !problem.value.errors && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
    </section>
  );
}
