import { useSignal, useSignalEffect } from '@preact/signals';
import { fieldErrors, fieldOrConflict, problemMessage, type Problem } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { ListToolbar } from '../../components/ListToolbar.js';
import { changes } from '../../data/changes.js';
import { clients, createClient, loadClients } from '../../data/clients.js';
import { loadProjects, projects } from '../../data/projects.js';
import '../manage/manage.css';
import { ClientRow } from './ClientRow.js';

function CreateClient() {
  const problem = useSignal<Problem | undefined>(undefined);
  const created = useSignal<string | null>(null);
  const errors = fieldErrors(problem.value);
  const nameError = fieldOrConflict(problem.value, 'name');
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const notes = String(data.get('notes') ?? '').trim();
    const answer = await createClient({ name: String(data.get('name') ?? '').trim(), notes: notes || null });
    problem.value = answer.error;
    created.value = answer.data ? `${answer.data.name} is added.` : null;
    if (answer.data) form.reset();
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-client-heading">
      <h2 id="new-client-heading">New client</h2>
      <Field id="new-client-name" label="Name" error={nameError}>
        <input id="new-client-name" name="name" required maxLength={200} {...describedBy('new-client-name', nameError)} />
      </Field>
      <Field id="new-client-notes" label="Notes (optional)" error={errors.notes}>
        <textarea id="new-client-notes" name="notes" rows={2} {...describedBy('new-client-notes', errors.notes)} />
      </Field>
      <button type="submit" class="primary">
        Create client
      </button>
      {created.value && <p role="status">{created.value}</p>}
      {problem.value && !problem.value.errors && problem.value.status !== 409 && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
    </form>
  );
}

/**
 * Clients (administrators): who the projects are for. Created, renamed, archived (an archived client
 * is given to no new project) and deleted once no project has them (docs/rules.md §6 Clients).
 */
export function ClientsPage() {
  const search = useSignal('');
  const showArchived = useSignal(false);
  useSignalEffect(() => {
    void changes.value;
    void loadClients();
    void loadProjects();
  });
  const needle = search.value.trim().toLowerCase();
  const list = Object.values(clients.value)
    .filter((client) => (showArchived.value || !client.archived) && (!needle || client.name.toLowerCase().includes(needle)))
    .sort((a, b) => a.name.localeCompare(b.name));
  const allProjects = Object.values(projects.value);
  return (
    <>
      <h1>Clients</h1>
      <ListToolbar searchId="client-search" searchLabel="Search clients" search={search} archivedId="clients-archived" showArchived={showArchived} />
      <section class="card" aria-labelledby="clients-heading">
        <h2 id="clients-heading">
          {list.length} {list.length === 1 ? 'client' : 'clients'}
        </h2>
        {list.length === 0 ? (
          <p class="muted">{needle ? 'No client matches.' : 'No clients yet.'}</p>
        ) : (
          <ul class="requests" aria-label="Clients">
            {list.map((client) => (
              <ClientRow
                key={client.id}
                client={client}
                projects={allProjects.filter((project) => project.clientId === client.id).sort((a, b) => a.name.localeCompare(b.name))}
              />
            ))}
          </ul>
        )}
      </section>
      <CreateClient />
    </>
  );
}
