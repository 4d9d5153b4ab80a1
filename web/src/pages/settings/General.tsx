import { useSignal } from '@preact/signals';
import { fieldErrors, type Problem } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { organization, saveOrganization } from '../../data/organization.js';
import { browserTimeZone } from '../../lib/format.js';
import { Outcome } from './Outcome.js';

/** The zones the browser knows (the organization's and the import's pickers). */
export const timeZones = (): string[] => {
  const supported = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  return supported ? supported('timeZone') : [browserTimeZone()];
};

/** Name, currency, time zone, core hours and notes. */
export function General() {
  const org = organization.value!;
  const problem = useSignal<Problem | undefined>(undefined);
  const saved = useSignal(false);
  const errors = fieldErrors(problem.value);
  const zone = org.timeZone ?? 'UTC';
  const zones = timeZones();
  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const text = (key: string) => String(data.get(key) ?? '').trim();
    problem.value = await saveOrganization({
      name: text('name'),
      currency: text('currency').toUpperCase(),
      timeZone: text('timeZone'),
      coreHours: { start: text('start'), end: text('end') },
      notes: String(data.get('notes') ?? ''),
    });
    saved.value = !problem.value;
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="general-heading">
      <h2 id="general-heading">Workspace</h2>
      <Field id="org-name" label="Name" error={errors.name}>
        <input id="org-name" name="name" defaultValue={org.name} required maxLength={255} {...describedBy('org-name', errors.name)} />
      </Field>
      <Field id="org-currency" label="Currency (ISO 4217, for example EUR)" error={errors.currency}>
        <input id="org-currency" name="currency" defaultValue={org.currency} required maxLength={3} {...describedBy('org-currency', errors.currency)} />
      </Field>
      <Field id="org-tz" label="Time zone (weeks lock by its calendar)" error={errors.timeZone}>
        <select id="org-tz" name="timeZone" {...describedBy('org-tz', errors.timeZone)}>
          {(zones.includes(zone) ? zones : [zone, ...zones]).map((name) => (
            <option key={name} value={name} selected={name === zone}>
              {name}
            </option>
          ))}
        </select>
      </Field>
      <fieldset>
        <legend>Core hours</legend>
        <div class="inline">
          <Field id="org-core-start" label="From" error={errors.start}>
            <input id="org-core-start" name="start" type="time" defaultValue={org.coreHours.start} required {...describedBy('org-core-start', errors.start)} />
          </Field>
          <Field id="org-core-end" label="To" error={errors.end}>
            <input id="org-core-end" name="end" type="time" defaultValue={org.coreHours.end} required {...describedBy('org-core-end', errors.end)} />
          </Field>
        </div>
      </fieldset>
      <Field id="org-notes" label="Notes" error={errors.notes}>
        <textarea id="org-notes" name="notes" rows={3} defaultValue={org.notes ?? ''} {...describedBy('org-notes', errors.notes)} />
      </Field>
      <button type="submit" class="primary">
        Save
      </button>
      <Outcome problem={problem.value} saved={saved.value} />
    </form>
  );
}

/** How tracked time is rounded in reports. */
export function Rounding() {
  const rounding = organization.value!.rounding ?? { enabled: false, interval: 15, mode: 'NEAREST' as const };
  const problem = useSignal<Problem | undefined>(undefined);
  const saved = useSignal(false);
  const errors = fieldErrors(problem.value);
  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    problem.value = await saveOrganization({
      rounding: { enabled: data.get('enabled') === 'on', interval: Number(data.get('interval')), mode: String(data.get('mode')) as 'NEAREST' },
    });
    saved.value = !problem.value;
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="rounding-heading">
      <h2 id="rounding-heading">Rounding</h2>
      <span class="check">
        <input type="checkbox" id="rounding-enabled" name="enabled" defaultChecked={rounding.enabled} />
        <label for="rounding-enabled">Round durations</label>
      </span>
      <Field id="rounding-interval" label="To the nearest (minutes)" error={errors.interval}>
        <input id="rounding-interval" name="interval" type="number" min="1" step="1" defaultValue={rounding.interval} {...describedBy('rounding-interval', errors.interval)} />
      </Field>
      <Field id="rounding-mode" label="Direction" error={errors.mode}>
        <select id="rounding-mode" name="mode">
          {(
            [
              ['NEAREST', 'Nearest'],
              ['UP', 'Up'],
              ['DOWN', 'Down'],
            ] as const
          ).map(([value, label]) => (
            <option key={value} value={value} selected={rounding.mode === value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <button type="submit" class="primary">
        Save rounding
      </button>
      <Outcome problem={problem.value} saved={saved.value} />
    </form>
  );
}

/** Public holidays: the country and the days excluded from it, one date per line. */
export function Holidays() {
  const holidays = (organization.value!.holidays ?? {}) as { country?: string; excluded?: unknown[] };
  const problem = useSignal<Problem | undefined>(undefined);
  const saved = useSignal(false);
  const errors = fieldErrors(problem.value);
  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const excluded = String(data.get('excluded') ?? '')
      .split(/\s+/)
      .map((line) => line.trim())
      .filter(Boolean);
    problem.value = await saveOrganization({ holidays: { country: String(data.get('country') ?? '').trim().toUpperCase(), excluded } });
    saved.value = !problem.value;
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="holidays-heading">
      <h2 id="holidays-heading">Holidays</h2>
      <Field id="holidays-country" label="Country (ISO 3166 code, for example DE)" error={errors.country}>
        <input id="holidays-country" name="country" defaultValue={holidays.country ?? ''} maxLength={2} {...describedBy('holidays-country', errors.country)} />
      </Field>
      <Field id="holidays-excluded" label="Holidays not observed (one date per line, YYYY-MM-DD)" error={errors.excluded}>
        <textarea id="holidays-excluded" name="excluded" rows={3} defaultValue={(holidays.excluded ?? []).map(String).join('\n')} {...describedBy('holidays-excluded', errors.excluded)} />
      </Field>
      <button type="submit" class="primary">
        Save holidays
      </button>
      <Outcome problem={problem.value} saved={saved.value} />
    </form>
  );
}
