import { useSignal } from '@preact/signals';
import { projects } from '../data/projects.js';

interface Props {
  id: string;
  label: string;
  projectId: string | null;
  onChange(projectId: string | null): void;
  disabled?: boolean;
  error?: string;
  /** Shown only to screen readers when the label would repeat what is on screen. */
  hiddenLabel?: boolean;
}

const NO_PROJECT = 'No project';

/**
 * A searchable project picker: a text field with the workspace's projects as suggestions (the
 * browser filters them as the person types). Only a listed name, or nothing, is taken. What is being
 * typed is kept until it is taken or refused: the page drawing again meanwhile does not erase it.
 */
export function ProjectPicker({ id, label, projectId, onChange, disabled, error, hiddenLabel }: Props) {
  const list = Object.values(projects.value).filter((project) => !project.archived || project.id === projectId);
  const current = projectId ? (projects.value[projectId]?.name ?? '') : '';
  const typed = useSignal<string | null>(null);
  const pick = (event: Event) => {
    const name = (event.currentTarget as HTMLInputElement).value.trim();
    typed.value = null;
    if (name === '' || name === NO_PROJECT) return onChange(null);
    const found = list.find((project) => project.name === name) ?? list.find((project) => project.name.toLowerCase() === name.toLowerCase());
    if (found) onChange(found.id);
  };
  return (
    <span class="field">
      <label for={id} class={hiddenLabel ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <input
        id={id}
        list={`${id}-options`}
        value={typed.value ?? current}
        placeholder={NO_PROJECT}
        autocomplete="off"
        disabled={disabled}
        onInput={(e) => (typed.value = e.currentTarget.value)}
        onChange={pick}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <datalist id={`${id}-options`}>
        <option value={NO_PROJECT} />
        {list.map((project) => (
          <option key={project.id} value={project.name} />
        ))}
      </datalist>
      {error && (
        <span class="error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </span>
  );
}
