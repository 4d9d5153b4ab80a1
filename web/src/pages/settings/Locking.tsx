import { useSignal } from '@preact/signals';
import { fieldErrors, problemMessage, type Problem } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { organization, runAutoLock, saveOrganization, sendTimesheetReminders } from '../../data/organization.js';
import { formats } from '../../data/preferences.js';
import { addDays, mondayOfWeek } from '../../lib/time.js';
import { Outcome } from './Outcome.js';

const REASON = 'Run by an administrator from the settings page';

/** Timesheet locking: on or off, how long an unlock lasts, the last locked week, and the two runs an external scheduler normally makes. */
export function Locking() {
  const lock = organization.value!.lockingTimesheets;
  const problem = useSignal<Problem | undefined>(undefined);
  const saved = useSignal(false);
  const ran = useSignal<string | null>(null);
  const errors = fieldErrors(problem.value);
  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    problem.value = await saveOrganization({ lockingTimesheets: { enabled: data.get('enabled') === 'on', unlockDuration: Number(data.get('unlockDuration')) } });
    saved.value = !problem.value;
  };
  const lastWeek = (year: number | null, week: number | null) => {
    if (year === null || week === null) return 'none yet';
    const monday = mondayOfWeek(year, week);
    return `week ${week} of ${year} (${formats.value.dayRange(monday, addDays(monday, 6))})`;
  };
  const autoLock = async () => {
    const before = lastWeek(lock.year, lock.week);
    const answer = await runAutoLock(REASON);
    if (answer.data) {
      const after = lastWeek(answer.data.lockingTimesheets.year, answer.data.lockingTimesheets.week);
      ran.value = !answer.data.lockingTimesheets.enabled
        ? 'Automatic locking is off: nothing was locked.'
        : after === before
          ? `Nothing new to lock: the last locked week is still ${after}.`
          : `Locked up to ${after}.`;
    } else ran.value = problemMessage(answer.error);
  };
  const remind = async () => {
    const answer = await sendTimesheetReminders(REASON);
    ran.value = answer.error ? problemMessage(answer.error) : 'Reminders are on their way to everyone who has not turned them off.';
  };
  return (
    <section class="card" aria-labelledby="locking-heading">
      <h2 id="locking-heading">Timesheet locking</h2>
      <form class="inline" onSubmit={submit} aria-label="Locking settings">
        <span class="check">
          <input type="checkbox" id="lock-enabled" name="enabled" defaultChecked={lock.enabled} />
          <label for="lock-enabled">Lock past weeks automatically</label>
        </span>
        <Field id="lock-unlock" label="An unlock lasts (hours)" error={errors.unlockDuration}>
          <input id="lock-unlock" name="unlockDuration" type="number" min="1" step="1" defaultValue={lock.unlockDuration} {...describedBy('lock-unlock', errors.unlockDuration)} />
        </Field>
        <button type="submit" class="primary">
          Save locking
        </button>
      </form>
      <Outcome problem={problem.value} saved={saved.value} />
      <p>
        Last locked week: <strong data-testid="last-locked-week">{lastWeek(lock.year, lock.week)}</strong>
      </p>
      <p class="muted">A scheduler normally runs these; you can run them now.</p>
      <div class="row-actions">
        <button type="button" onClick={() => void autoLock()}>
          Run auto-lock now
        </button>
        <button type="button" onClick={() => void remind()}>
          Send reminders now
        </button>
      </div>
      {ran.value && <p role="status">{ran.value}</p>}
    </section>
  );
}
