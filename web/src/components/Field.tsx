import type { ComponentChildren } from 'preact';

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
