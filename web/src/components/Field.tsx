import { useSignal } from '@preact/signals';
import type { ComponentChildren, JSX } from 'preact';

/** A labelled control with its error (a problem's `errors[].pointer` that names it) beneath. */
export function Field(props: { id: string; label: string; error?: string; hiddenLabel?: boolean; children: ComponentChildren }) {
  return (
    <span class="field">
      <label for={props.id} class={props.hiddenLabel ? 'visually-hidden' : undefined}>
        {props.label}
      </label>
      {props.children}
      {props.error && (
        <span class="error" id={`${props.id}-error`} role="alert">
          {props.error}
        </span>
      )}
    </span>
  );
}

/** The attributes that tie a control to its error. */
export const describedBy = (id: string, error?: string) =>
  error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};

type InputProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onFocus' | 'onBlur' | 'onInput'> & { value: string };

/**
 * An input showing `value` except while the person edits it: a reload of the page's data (another
 * tab's change, a poll) never overwrites what is being typed. Its change is reported by onChange.
 */
export function DraftInput({ value, ...props }: InputProps) {
  const draft = useSignal<string | null>(null);
  return (
    <input
      {...props}
      value={draft.value ?? value}
      onFocus={(e) => (draft.value = e.currentTarget.value)}
      onInput={(e) => (draft.value = e.currentTarget.value)}
      onBlur={() => (draft.value = null)}
    />
  );
}
