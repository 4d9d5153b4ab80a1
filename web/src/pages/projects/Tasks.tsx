import { useSignal, useSignalEffect } from '@preact/signals';
import { fieldErrors, fieldOrConflict, problemMessage, type Problem, type Project, type Task } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { showToast } from '../../components/Toast.js';
import { changes } from '../../data/changes.js';
import { formats } from '../../data/preferences.js';
import { createTask, deleteTask, loadTasks, tasksByProject, updateTask } from '../../data/tasks.js';
import { trackedBy, type Tracked } from '../../data/tracked.js';
import { Confirm } from '../manage/Confirm.js';

type Billable = Task['billable'];

/** The select's value of a task's billable: the project's (null), yes or no. */
const billableValue = (billable: Billable) => (billable === null ? '' : String(billable));
const billableOf = (value: FormDataEntryValue | null): Billable => (value === 'true' ? true : value === 'false' ? false : null);

/** What billable means for the task's time, in words: its own, or the project's (docs/rules.md §6 Tasks). */
export function billableLabel(billable: Billable, project: Project): string {
  if (billable === null) return `As the project (${project.billable ? 'billable' : 'not billable'})`;
  return billable ? 'Billable' : 'Not billable';
}

function BillableSelect({ id, project, current, error }: { id: string; project: Project; current: Billable; error?: string }) {
  return (
    <Field id={id} label="Billable" error={error}>
      <select id={id} name="billable" {...describedBy(id, error)}>
        {([null, true, false] as Billable[]).map((value) => (
          <option key={billableValue(value)} value={billableValue(value)} selected={value === current}>
            {billableLabel(value, project)}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A problem that names no field and is no name clash, as a line under the form. */
function Other({ problem }: { problem?: Problem }) {
  if (!problem || problem.errors || problem.status === 409) return null;
  return (
    <p class="error" role="alert">
      {problemMessage(problem)}
    </p>
  );
}

function TaskRow({ project, task }: { project: Project; task: Task }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const confirming = useSignal<Tracked | null>(null);
  const id = `task-${task.id}`;
  const errors = fieldErrors(problem.value);
  const nameError = fieldOrConflict(problem.value, 'name');
  const save = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    problem.value = (await updateTask(project.id, task.id, { name: String(data.get('name') ?? '').trim(), billable: billableOf(data.get('billable')) })).error;
  };
  const archive = async () => {
    const answer = await updateTask(project.id, task.id, { archived: !task.archived });
    problem.value = answer.error;
    if (answer.data) showToast({ text: answer.data.archived ? `${task.name} is archived: its entries keep it, no new time takes it.` : `${task.name} is active again.` });
  };
  const remove = async () => {
    const answer = await deleteTask(project.id, task.id);
    confirming.value = null;
    if (answer.error) problem.value = answer.error;
    else showToast({ text: `${task.name} is deleted; its entries keep their time, without a task.` });
  };
  const tracked = confirming.value;
  return (
    <li>
      <form class="inline" onSubmit={save} aria-label={`Task ${task.name}`}>
        <Field id={`${id}-name`} label="Task name" error={nameError}>
          <input id={`${id}-name`} name="name" required maxLength={200} defaultValue={task.name} {...describedBy(`${id}-name`, nameError)} />
        </Field>
        <BillableSelect id={`${id}-billable`} project={project} current={task.billable} error={errors.billable} />
        {task.archived && <span class="badge">archived</span>}
        <span class="row-actions">
          <button type="submit">Save</button>
          <button type="button" onClick={() => void archive()} aria-label={`${task.archived ? 'Unarchive' : 'Archive'} ${task.name}`}>
            {task.archived ? 'Unarchive' : 'Archive'}
          </button>
          {!tracked && (
            <button type="button" class="danger" onClick={() => void trackedBy({ taskId: task.id }).then((t) => (confirming.value = t))} aria-label={`Delete ${task.name}…`}>
              Delete…
            </button>
          )}
        </span>
      </form>
      <Other problem={problem.value} />
      {tracked && (
        <Confirm label={`Delete ${task.name}`} confirmLabel="Delete task" onConfirm={() => void remove()} onCancel={() => (confirming.value = null)}>
          <p>
            <strong>Delete {task.name} for good?</strong>{' '}
            {tracked.entries === 0
              ? 'No entry has it now.'
              : `${tracked.more ? 'At least ' : ''}${tracked.entries} ${tracked.entries === 1 ? 'entry has' : 'entries have'} it (${formats.value.duration(tracked.ms)}): they keep their time, without a task.`}{' '}
            Archiving keeps it on its entries instead.
          </p>
        </Confirm>
      )}
    </li>
  );
}

function AddTask({ project }: { project: Project }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const errors = fieldErrors(problem.value);
  const nameError = fieldOrConflict(problem.value, 'name');
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const answer = await createTask(project.id, { name: String(data.get('name') ?? '').trim(), billable: billableOf(data.get('billable')) });
    problem.value = answer.error;
    if (answer.data) form.reset();
  };
  return (
    <form class="inline" onSubmit={submit} aria-label="Add a task">
      <Field id="new-task-name" label="New task" error={nameError}>
        <input id="new-task-name" name="name" required maxLength={200} {...describedBy('new-task-name', nameError)} />
      </Field>
      <BillableSelect id="new-task-billable" project={project} current={null} error={errors.billable} />
      <button type="submit" class="primary">
        Add task
      </button>
      <Other problem={problem.value} />
    </form>
  );
}

/** A project's tasks, archived ones last: administrators and the project's admins write them, its members read them. */
export function Tasks({ project, manages }: { project: Project; manages: boolean }) {
  useSignalEffect(() => {
    void changes.value;
    void loadTasks(project.id);
  });
  const tasks = Object.values(tasksByProject.value[project.id] ?? {}).sort((a, b) => Number(a.archived) - Number(b.archived) || a.name.localeCompare(b.name));
  return (
    <section class="sub" aria-labelledby="tasks-heading">
      <h3 id="tasks-heading">Tasks</h3>
      {tasks.length === 0 ? (
        <p class="muted">No tasks.</p>
      ) : (
        <ul class="requests" aria-label={`${project.name}'s tasks`}>
          {tasks.map((task) =>
            manages ? (
              <TaskRow key={task.id} project={project} task={task} />
            ) : (
              <li key={task.id}>
                <span>
                  <strong>{task.name}</strong> · {billableLabel(task.billable, project)} {task.archived && <span class="badge">archived</span>}
                </span>
              </li>
            ),
          )}
        </ul>
      )}
      {manages && <AddTask project={project} />}
    </section>
  );
}
