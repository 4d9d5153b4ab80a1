import { useEffect } from 'preact/hooks';
import { ensureTasks, tasksByProject } from '../data/tasks.js';
import { holds, sameName } from '../lib/search.js';
import { Combobox, type Choice } from './Combobox.js';

interface Props {
  id: string;
  label: string;
  /** The project whose tasks are offered. */
  projectId: string;
  taskId: string | null;
  /** Called with another task than the one held (null: no task). */
  onChange(taskId: string | null): void;
  disabled?: boolean;
  error?: string;
  hiddenLabel?: boolean;
}

const NO_TASK = 'No task';

/**
 * A searchable picker of one project's unarchived tasks, in the project's order (docs/web-app.md
 * "Pickers"). A task archived since it was chosen still shows as the field's text, and is offered no
 * more. A project without unarchived tasks leaves the field disabled, saying so.
 */
export function TaskPicker({ id, label, projectId, taskId, onChange, disabled, error, hiddenLabel }: Props) {
  useEffect(() => ensureTasks([projectId]), [projectId]);
  const loaded = tasksByProject.value[projectId];
  const tasks = loaded ?? {};
  const offered = Object.values(tasks).filter((task) => !task.archived);
  // Disabled only once the project is known to offer no task: a field appearing with its project stays on the keyboard's way.
  const none = loaded !== undefined && offered.length === 0 && !taskId;
  const current = taskId ? tasks[taskId] : undefined;
  const take = (next: string | null) => {
    if (next !== taskId) onChange(next);
  };
  const choicesFor = (query: string): Choice[] => {
    const matching = offered.filter((task) => holds(task.name, query)).map((task) => ({ value: task.id, label: task.name }));
    return query.trim() === '' ? [{ value: '', label: NO_TASK }, ...matching] : matching;
  };
  return (
    <Combobox
      id={id}
      label={label}
      hiddenLabel={hiddenLabel}
      text={current ? current.name + (current.archived ? ' (archived)' : '') : ''}
      value={taskId ?? ''}
      placeholder={none ? 'No tasks' : NO_TASK}
      disabled={disabled || none}
      error={error}
      listLabel="Tasks"
      choicesFor={choicesFor}
      preferred={(query, choices) => Math.max(0, choices.findIndex((choice) => sameName(choice.label, query)))}
      nothingFor={(query) => (loaded ? `No task matches “${query.trim()}”.` : 'Loading the tasks…')}
      onPick={(choice) => take(choice.value || null)}
      onLeave={(typed) => {
        if (typed.trim() === '' || sameName(typed, NO_TASK)) return take(null);
        const found = offered.find((task) => task.name === typed.trim()) ?? offered.find((task) => sameName(task.name, typed));
        if (found) take(found.id);
      }}
    />
  );
}
