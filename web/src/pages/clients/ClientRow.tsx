import { useSignal } from '@preact/signals';
import { fieldErrors, fieldOrConflict, problemMessage, type Client, type Problem, type Project } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { showToast } from '../../components/Toast.js';
import { deleteClient, updateClient } from '../../data/clients.js';
import { loadProjects } from '../../data/projects.js';
import { Confirm } from '../manage/Confirm.js';

const namesOf = (projects: Project[]) => projects.map((project) => project.name).join(', ');

/** Why a client with projects stays (the API's 409, docs/rules.md §6 Clients), and the two ways on. */
function StillHasProjects({ client, projects, refused, onArchive, onCancel }: { client: Client; projects: Project[]; refused?: Problem; onArchive(): void; onCancel(): void }) {
  return (
    <div class="confirm" role="group" aria-label={`Delete ${client.name}`}>
      {refused && (
        <p role="alert">
          <strong>{client.name} was not deleted.</strong> {problemMessage(refused)}
        </p>
      )}
      <p>
        {client.name} still has {projects.length === 1 ? 'a project' : `${projects.length} projects`}: {namesOf(projects)}. A client with projects, archived ones included, cannot be
        deleted.
      </p>
      <p>Archive it instead (its projects keep it, and no other project can be given it), or give its projects another client, or none, on the Projects page first.</p>
      <div class="row-actions">
        {!client.archived && (
          <button type="button" class="primary" onClick={onArchive}>
            Archive {client.name} instead
          </button>
        )}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function EditClient({ client, done }: { client: Client; done(): void }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const errors = fieldErrors(problem.value);
  const id = `client-${client.id}`;
  const nameError = fieldOrConflict(problem.value, 'name');
  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const notes = String(data.get('notes') ?? '').trim();
    const answer = await updateClient(client.id, { name: String(data.get('name') ?? '').trim(), notes: notes || null });
    problem.value = answer.error;
    if (answer.data) done();
  };
  return (
    <form class="inline" onSubmit={submit} aria-label={`${client.name}'s details`}>
      <Field id={`${id}-name`} label="Name" error={nameError}>
        <input id={`${id}-name`} name="name" required maxLength={200} defaultValue={client.name} {...describedBy(`${id}-name`, nameError)} />
      </Field>
      <Field id={`${id}-notes`} label="Notes" error={errors.notes}>
        <input id={`${id}-notes`} name="notes" defaultValue={client.notes ?? ''} {...describedBy(`${id}-notes`, errors.notes)} />
      </Field>
      <span class="row-actions">
        <button type="submit" class="primary">
          Save
        </button>
        <button type="button" onClick={done}>
          Cancel
        </button>
      </span>
      {problem.value && !problem.value.errors && problem.value.status !== 409 && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
    </form>
  );
}

/** One client: its projects, and editing, archiving and deleting it. */
export function ClientRow({ client, projects }: { client: Client; projects: Project[] }) {
  const editing = useSignal(false);
  const deleting = useSignal(false);
  const refused = useSignal<Problem | undefined>(undefined);
  const problem = useSignal<Problem | undefined>(undefined);
  const archive = async (archived: boolean) => {
    const answer = await updateClient(client.id, { archived });
    problem.value = answer.error;
    if (answer.data) {
      deleting.value = false;
      showToast({ text: archived ? `${client.name} is archived: its projects keep it, no other project can be given it.` : `${client.name} is active again.` });
    }
  };
  const remove = async () => {
    const answer = await deleteClient(client.id);
    if (!answer.error) {
      showToast({ text: `${client.name} is deleted.` });
      return;
    }
    if (answer.error.status === 409) {
      // Another tab or person gave it a project since this page loaded: show which.
      refused.value = answer.error;
      await loadProjects();
    } else {
      problem.value = answer.error;
      deleting.value = false;
    }
  };
  const cancel = () => ((deleting.value = false), (refused.value = undefined));
  return (
    <li>
      <span>
        <strong>{client.name}</strong> {client.archived && <span class="badge">archived</span>}
        <br />
        <span class="muted">{projects.length === 0 ? 'No projects' : `${projects.length === 1 ? '1 project' : `${projects.length} projects`}: ${namesOf(projects)}`}</span>
        {client.notes && (
          <>
            <br />
            {client.notes}
          </>
        )}
      </span>
      <span class="row-actions">
        <button type="button" aria-expanded={editing.value} onClick={() => (editing.value = !editing.value)} aria-label={`Edit ${client.name}`}>
          Edit
        </button>
        <button type="button" onClick={() => void archive(!client.archived)} aria-label={`${client.archived ? 'Unarchive' : 'Archive'} ${client.name}`}>
          {client.archived ? 'Unarchive' : 'Archive'}
        </button>
        <button type="button" class="danger" onClick={() => (deleting.value = true)} aria-label={`Delete ${client.name}…`}>
          Delete…
        </button>
      </span>
      {editing.value && <EditClient client={client} done={() => (editing.value = false)} />}
      {problem.value && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
      {deleting.value &&
        (projects.length > 0 ? (
          <StillHasProjects client={client} projects={projects} refused={refused.value} onArchive={() => void archive(true)} onCancel={cancel} />
        ) : (
          <Confirm label={`Delete ${client.name}`} confirmLabel="Delete client" onConfirm={() => void remove()} onCancel={cancel}>
            <p>
              <strong>Delete {client.name} for good?</strong> No project has it; its notes go with it.
            </p>
          </Confirm>
        ))}
    </li>
  );
}
