import { useSignal } from '@preact/signals';
import type { JSX } from 'preact';
import { formats, preferences } from '../data/preferences.js';
import { dateHint, dateText, parseDateText, parseTimeText, timeHint, timeText, uses24HourClock } from '../lib/fields.js';
import { Field } from './Field.js';

/*
 * Time and date fields as text in the person's locale and clock (docs/web-app.md, "Date and time
 * fields"): a native time or date input would follow the browser's instead. What is typed is read on
 * Enter or on leaving the field; text that cannot be read is refused inline and nothing is saved.
 */

interface WhenFieldProps {
  id: string;
  label: string;
  hiddenLabel?: boolean;
  /** `HH:MM` for a time, `YYYY-MM-DD` for a day. */
  value: string;
  readOnly?: boolean;
  /** The API's error for the field. */
  error?: string;
  /** Attributes that describe the control otherwise (a question about it). */
  description?: Pick<JSX.HTMLAttributes<HTMLInputElement>, 'aria-invalid' | 'aria-describedby'>;
  onChange(value: string): void;
}

export function TimeField(props: WhenFieldProps) {
  const { locale } = formats.value;
  const clock24 = uses24HourClock(locale, preferences.value?.dateTimeFormat?.clock24Hour);
  const hint = timeHint(clock24);
  return <WhenField {...props} shown={timeText(props.value, locale, clock24)} hint={hint} read={parseTimeText} refusal={(text) => `“${text}” is not a time: type it as ${timeText('13:05', locale, clock24)}.`} />;
}

export function DateField(props: WhenFieldProps) {
  const { locale } = formats.value;
  return (
    <WhenField
      {...props}
      shown={dateText(props.value, locale)}
      hint={dateHint(locale)}
      read={(text) => parseDateText(text, locale)}
      refusal={(text) => `“${text}” is not a date: type it as ${dateText('2026-12-07', locale)}.`}
    />
  );
}

function WhenField(props: WhenFieldProps & { shown: string; hint: string; read(text: string): string | null; refusal(text: string): string }) {
  const draft = useSignal<string | null>(null);
  const refused = useSignal<string | null>(null);
  const commit = (text: string) => {
    if (draft.value === null) return;
    const value = props.read(text);
    if (value === null) {
      refused.value = props.refusal(text.trim());
      return;
    }
    draft.value = null;
    refused.value = null;
    if (value !== props.value) props.onChange(value);
  };
  const error = refused.value ?? props.error;
  const description = refused.value ? { 'aria-invalid': true as const, 'aria-describedby': `${props.id}-error` } : (props.description ?? (error ? { 'aria-invalid': true as const, 'aria-describedby': `${props.id}-error` } : {}));
  return (
    <Field id={props.id} label={props.label} hiddenLabel={props.hiddenLabel} error={error}>
      <input
        id={props.id}
        type="text"
        inputMode="text"
        autoComplete="off"
        size={props.hint.length}
        placeholder={props.hint}
        value={draft.value ?? props.shown}
        readOnly={props.readOnly}
        onInput={(e) => (draft.value = e.currentTarget.value)}
        onChange={(e) => commit(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(e.currentTarget.value);
        }}
        {...description}
      />
    </Field>
  );
}
