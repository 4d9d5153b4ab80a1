import type { ComponentChildren } from 'preact';

/** An inline confirmation of a destructive action: what will happen, then Confirm or Cancel. */
export function Confirm(props: { label: string; confirmLabel: string; onConfirm(): void; onCancel(): void; children: ComponentChildren; disabled?: boolean }) {
  return (
    <div class="confirm" role="group" aria-label={props.label}>
      {props.children}
      <div class="row-actions">
        <button type="button" class="danger" onClick={props.onConfirm} disabled={props.disabled}>
          {props.confirmLabel}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
