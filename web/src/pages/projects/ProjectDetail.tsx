import { useSignal, useSignalEffect } from '@preact/signals';
import { fieldErrors, fieldOrConflict, problemMessage, type Problem, type Project, type Schemas } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { showToast } from '../../components/Toast.js';
import { clients } from '../../data/clients.js';
import { loadMembers, membersByProject } from '../../data/members.js';
import { formats } from '../../data/preferences.js';
import { deleteProject, trackedOn, updateProject } from '../../data/projects.js';
import { me } from '../../data/session.js';
import { Confirm } from '../manage/Confirm.js';
import { Swatch } from '../manage/Swatch.js';
import { ClientSelect } from './ClientSelect.js';
import { Members } from './Members.js';
import { Tasks } from './Tasks.js';

export function ProjectDetail({ project, onDeleted }: { project: Project; onDeleted(): void }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const saved = useSignal(false);
  const confirming = useSignal<{ entries: number; ms: number; more: boolean } | null>(null);
  const admin = me.value?.role === 'Administrator';
  useSignalEffect(() => {
    void loadMembers(project.id);
  });
  const members = membersByProject.value[project.id] ?? [];
  const mine = members.find((member) => member.userId === me.value?.id && !member.archived);
  // docs/rules.md §5: administrators and the project's admins manage it; plain members only read.
  const manages = admin || mine?.role === 'Administrator';
  const errors = fieldErrors(problem.value);
  const nameError = fieldOrConflict(problem.value, 'name');
  const other = problem.value && !problem.value.errors && problem.value.status !== 409 ? problemMessage(problem.value) : undefined;

  const update = async (body: Schemas['UpdateProjectBody']) => {
    const answer = await updateProject(project.id, body);
    problem.value = answer.error;
    saved.value = !answer.error;
    return !answer.error;
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    await update({
      name: String(data.get('name') ?? '').trim(),
      notes: String(data.get('notes') ?? ''),
      billable: data.get('billable') === 'on',
      clientId: String(data.get('clientId') ?? '') || null,
      color: String(data.get('color') ?? project.color),
    });
  };
  const archive = async () => {
    if (await update({ archived: !project.archived })) showToast({ text: project.archived ? `${project.name} is active again.` : `${project.name} is archived: it takes no new time.` });
  };
  const remove = async () => {
    const answer = await deleteProject(project.id);
    if (answer.error) {
      problem.value = answer.error;
      confirming.value = null;
      return;
    }
    showToast({ text: `${project.name} is deleted; its time is kept, without a project.` });
    onDeleted();
  };
  const tracked = confirming.value;
  const client = project.clientId ? clients.value[project.clientId] : undefined;
  return (
    <section class="card" aria-labelledby="project-heading">
      <h2 id="project-heading">
        <Swatch color={project.color} /> {project.name} {project.archived && <span class="badge">archived</span>}
      </h2>
      <p class="project-client">
        Client: {client ? client.name : <span class="muted">none</span>} {client?.archived && <span class="badge">archived client</span>}
      </p>
      {manages ? (
        <form class="inline" onSubmit={submit} aria-label={`${project.name}'s settings`}>
          <Field id="project-name" label="Name" error={nameError}>
            <input id="project-name" name="name" defaultValue={project.name} required maxLength={255} {...describedBy('project-name', nameError)} />
          </Field>
          <Field id="project-notes" label="Notes" error={errors.notes}>
            <input id="project-notes" name="notes" defaultValue={project.notes ?? ''} {...describedBy('project-notes', errors.notes)} />
          </Field>
          <ClientSelect id="project-client" current={project.clientId} error={errors.clientId} />
          <Field id="project-color" label="Color" error={errors.color}>
            <input id="project-color" name="color" type="color" defaultValue={project.color} {...describedBy('project-color', errors.color)} />
          </Field>
          <span class="check">
            <input type="checkbox" id="project-billable" name="billable" defaultChecked={project.billable} />
            <label for="project-billable">Billable by default</label>
          </span>
          <button type="submit" class="primary">
            Save
          </button>
        </form>
      ) : (
        <p>{project.notes || <span class="muted">No notes.</span>}</p>
      )}
      {saved.value && <p role="status">Saved.</p>}
      {other && (
        <p class="error" role="alert">
          {other}
        </p>
      )}
      {manages && (
        <div class="row-actions">
          <button type="button" onClick={() => void archive()}>
            {project.archived ? 'Unarchive' : 'Archive'}
          </button>
          {admin && !tracked && (
            <button type="button" class="danger" onClick={() => void trackedOn(project.id).then((t) => (confirming.value = t))}>
              Delete project…
            </button>
          )}
        </div>
      )}
      {tracked && (
        <Confirm label={`Delete ${project.name}`} confirmLabel="Delete project" onConfirm={() => void remove()} onCancel={() => (confirming.value = null)}>
          <p>
            <strong>Delete {project.name} for good?</strong>
          </p>
          <p>
            Its tracked time is kept, without a project:{' '}
            {tracked.entries === 0
              ? 'no entries are on it now.'
              : `${tracked.more ? 'at least ' : ''}${tracked.entries} ${tracked.entries === 1 ? 'entry' : 'entries'} (${formats.value.duration(tracked.ms)}) stay, with no project.`}{' '}
            Its members and their revenue rates are removed; its geofences stay, without the project. Archiving keeps everything instead.
          </p>
        </Confirm>
      )}
      <Tasks project={project} manages={manages} />
      <Members project={project} members={members} manages={manages} />
    </section>
  );
}
