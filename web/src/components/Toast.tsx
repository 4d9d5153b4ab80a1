import { signal } from '@preact/signals';

interface Toast {
  text: string;
  action?: { label: string; run(): void };
}

export const toast = signal<Toast | null>(null);
let timer: number | undefined;

/** A message in the live region, with an optional action (Undo), gone after a few seconds. */
export function showToast(value: Toast, ms = 8000): void {
  toast.value = value;
  clearTimeout(timer);
  timer = window.setTimeout(() => (toast.value = null), ms);
}

export function ToastRegion() {
  const current = toast.value;
  return (
    <div class="toast" role="status" aria-live="polite">
      {current && (
        <p>
          {current.text}{' '}
          {current.action && (
            <button
              type="button"
              onClick={() => {
                const action = current.action!;
                toast.value = null;
                action.run();
              }}
            >
              {current.action.label}
            </button>
          )}
        </p>
      )}
    </div>
  );
}
