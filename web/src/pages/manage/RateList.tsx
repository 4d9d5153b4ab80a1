import { useSignal, useSignalEffect } from '@preact/signals';
import { fieldErrors, fieldOrConflict, problemMessage, type Problem } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { formats } from '../../data/preferences.js';
import type { Rate, RateBody, RateTimeline } from '../../data/rates.js';
import { addDays, dateInputValue, dayOf, parseDateInput, zonedInstant } from '../../lib/time.js';

interface Props {
  /** Unique on the page: the form's ids start with it. */
  id: string;
  title: string;
  canWrite: boolean;
  defaultCurrency: string;
  /** Whose rates: a user's cost rates or a project member's revenue rates. */
  timeline: RateTimeline;
}

/** An amount per hour in its currency, by the person's locale. */
export function money(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat(formats.value.locale, { style: 'currency', currency }).format(value);
  } catch {
    return `${value} ${currency}`;
  }
}

/**
 * Rates over time (revenue per project member, cost per user) as a timeline, oldest first, with a
 * form to add or change one. A period runs from its first day to its last day inclusive, in the
 * person's time zone (sent as `from` and an exclusive `to`); an overlap is refused by the API (409)
 * and its message is shown at the period's first day.
 */
export function RateList(props: Props) {
  const rates = useSignal<Rate[]>([]);
  const editing = useSignal<Rate | null>(null);
  const problem = useSignal<Problem | undefined>(undefined);
  const tz = formats.value.timeZone;
  const reload = async () => {
    rates.value = (await props.timeline.load()).sort((a, b) => Date.parse(a.from) - Date.parse(b.from));
  };
  useSignalEffect(() => {
    void reload();
  });
  const errors = fieldErrors(problem.value);
  // A clash of periods names no field: it is about the period, so it is shown at its first day.
  const periodError = fieldOrConflict(problem.value, 'from');
  const other = problem.value && !problem.value.errors && problem.value.status !== 409 ? problemMessage(problem.value) : undefined;
  const dateFormat = new Intl.DateTimeFormat(formats.value.locale, { timeZone: 'UTC', dateStyle: 'medium' });
  const firstDay = (rate: Rate) => dayOf(Date.parse(rate.from), tz);
  const lastDay = (rate: Rate) => (rate.to ? dayOf(Date.parse(rate.to) - 1, tz) : null);
  const period = (rate: Rate) => {
    const last = lastDay(rate);
    return last ? dateFormat.formatRange(firstDay(rate), last) : `from ${dateFormat.format(firstDay(rate))}, open-ended`;
  };
  const now = Date.now();
  const inForce = (rate: Rate) => Date.parse(rate.from) <= now && (!rate.to || Date.parse(rate.to) > now);
  const p = props.id;

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const text = (key: string) => String(data.get(key) ?? '').trim();
    const first = parseDateInput(text('from'));
    const last = parseDateInput(text('to'));
    if (!first) {
      problem.value = { type: '', title: '', status: 422, detail: '', code: 'validation', errors: [{ pointer: '/body/from', message: 'Choose the first day' }] };
      return;
    }
    const body: RateBody = {
      currency: text('currency').toUpperCase(),
      from: zonedInstant(first, 0, 0, tz).toISOString(),
      to: last ? zonedInstant(addDays(last, 1), 0, 0, tz).toISOString() : null,
      taxRate: Number(text('taxRate') || '0'),
      value: Number(text('value')),
    };
    const answer = editing.value ? await props.timeline.update(editing.value.id, body) : await props.timeline.create(body);
    problem.value = answer.error;
    if (!answer.error) {
      editing.value = null;
      form.reset();
      await reload();
    }
  };
  const remove = async (rate: Rate) => {
    const answer = await props.timeline.remove(rate.id);
    problem.value = answer.error;
    if (editing.value?.id === rate.id) editing.value = null;
    await reload();
  };
  const current = editing.value;
  return (
    <section class="sub" aria-labelledby={`${p}-heading`}>
      <h3 id={`${p}-heading`}>{props.title}</h3>
      {rates.value.length === 0 ? (
        <p class="muted">No rates yet.</p>
      ) : (
        <ol class="timeline" aria-label={props.title}>
          {rates.value.map((rate) => (
            <li key={rate.id}>
              <span class="period">{period(rate)}</span>
              <span>
                <strong>{money(rate.value, rate.currency)}</strong> per hour{rate.taxRate ? `, tax ${rate.taxRate} %` : ''}{' '}
                {inForce(rate) && <span class="badge">in force</span>}
              </span>
              {props.canWrite && (
                <span class="row-actions">
                  <button type="button" onClick={() => ((editing.value = rate), (problem.value = undefined))} aria-label={`Change the rate ${period(rate)}`}>
                    Change
                  </button>
                  <button type="button" class="danger" onClick={() => void remove(rate)} aria-label={`Delete the rate ${period(rate)}`}>
                    Delete
                  </button>
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
      {props.canWrite && (
        <form class="inline" onSubmit={submit} key={current?.id ?? 'new'} aria-label={current ? 'Change the rate' : 'Add a rate'}>
          <Field id={`${p}-from`} label="First day" error={periodError}>
            <input id={`${p}-from`} name="from" type="date" required defaultValue={current ? dateInputValue(firstDay(current)) : ''} {...describedBy(`${p}-from`, periodError)} />
          </Field>
          <Field id={`${p}-to`} label="Last day (empty: open-ended)" error={errors.to}>
            <input id={`${p}-to`} name="to" type="date" defaultValue={current && lastDay(current) ? dateInputValue(lastDay(current)!) : ''} {...describedBy(`${p}-to`, errors.to)} />
          </Field>
          <Field id={`${p}-value`} label="Per hour" error={errors.value}>
            <input id={`${p}-value`} name="value" type="number" min="0" step="0.01" required defaultValue={current?.value ?? ''} {...describedBy(`${p}-value`, errors.value)} />
          </Field>
          <Field id={`${p}-currency`} label="Currency" error={errors.currency}>
            <input id={`${p}-currency`} name="currency" required maxLength={3} size={4} defaultValue={current?.currency ?? props.defaultCurrency} {...describedBy(`${p}-currency`, errors.currency)} />
          </Field>
          <Field id={`${p}-tax`} label="Tax %" error={errors.taxRate}>
            <input id={`${p}-tax`} name="taxRate" type="number" min="0" max="100" step="0.01" defaultValue={current?.taxRate ?? 0} {...describedBy(`${p}-tax`, errors.taxRate)} />
          </Field>
          <button type="submit" class="primary">
            {current ? 'Save rate' : 'Add rate'}
          </button>
          {current && (
            <button type="button" onClick={() => (editing.value = null)}>
              Cancel
            </button>
          )}
        </form>
      )}
      {other && (
        <p class="error" role="alert">
          {other}
        </p>
      )}
    </section>
  );
}
