import { useSignal, useSignalEffect } from '@preact/signals';
import { fieldErrors, fieldOrConflict, problemMessage, type Problem, type Project } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { ListToolbar } from '../../components/ListToolbar.js';
import { changes } from '../../data/changes.js';
import { clients, loadClients } from '../../data/clients.js';
import { createProject, loadProjects, projects } from '../../data/projects.js';
import { me } from '../../data/session.js';
import { loadDirectory } from '../../data/users.js';
import '../manage/manage.css';
import { Swatch } from '../manage/Swatch.js';
import { ClientSelect } from './ClientSelect.js';
import { ProjectDetail } from './ProjectDetail.js';

function CreateProject({ onCreated }: { onCreated(project: Project): void }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const errors = fieldErrors(problem.value);
  const nameError = fieldOrConflict(problem.value, 'name');
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const answer = await createProject({
      name: String(data.get('name') ?? '').trim(),
      billable: data.get('billable') === 'on',
      notes: String(data.get('notes') ?? ''),
      clientId: String(data.get('clientId') ?? '') || null,
    });
    problem.value = answer.error;
    if (answer.data) {
      form.reset();
      onCreated(answer.data);
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-project-heading">
      <h2 id="new-project-heading">New project</h2>
      <Field id="new-project-name" label="Name" error={nameError}>
        <input id="new-project-name" name="name" required maxLength={255} {...describedBy('new-project-name', nameError)} />
      </Field>
      <ClientSelect id="new-project-client" current={null} error={errors.clientId} />
      <Field id="new-project-notes" label="Notes" error={errors.notes}>
        <textarea id="new-project-notes" name="notes" rows={2} {...describedBy('new-project-notes', errors.notes)} />
      </Field>
      <span class="check">
        <input type="checkbox" id="new-project-billable" name="billable" />
        <label for="new-project-billable">Billable by default</label>
      </span>
      <button type="submit" class="primary">
        Create project
      </button>
      {problem.value && !problem.value.errors && problem.value.status !== 409 && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
    </form>
  );
}

/**
 * Projects: the ones the person may see (all for administrators), searchable, archived ones on
 * request; administrators create them; opening one shows its settings, members and their rates.
 */
export function ProjectsPage() {
  const search = useSignal('');
  const showArchived = useSignal(false);
  const openId = useSignal<string | null>(null);
  useSignalEffect(() => {
    void changes.value;
    void loadProjects();
    void loadClients();
    void loadDirectory();
  });
  const admin = me.value?.role === 'Administrator';
  const needle = search.value.trim().toLowerCase();
  const clientOf = (project: Project) => (project.clientId ? clients.value[project.clientId] : undefined);
  const matches = (project: Project) => !needle || project.name.toLowerCase().includes(needle) || !!clientOf(project)?.name.toLowerCase().includes(needle);
  const list = Object.values(projects.value)
    .filter((project) => (showArchived.value || !project.archived) && matches(project))
    .sort((a, b) => a.name.localeCompare(b.name));
  const open = openId.value ? projects.value[openId.value] : undefined;
  return (
    <>
      <h1>Projects</h1>
      <ListToolbar searchId="project-search" searchLabel="Search projects or clients" search={search} archivedId="show-archived" showArchived={showArchived} />
      <section class="card" aria-labelledby="projects-heading">
        <h2 id="projects-heading">
          {list.length} {list.length === 1 ? 'project' : 'projects'}
        </h2>
        {list.length === 0 ? (
          <p class="muted">{needle ? 'No project matches.' : 'No projects yet.'}</p>
        ) : (
          <div class="table-wrap">
            <table class="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Client</th>
                  <th scope="col">Billable</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((project) => (
                  <tr key={project.id}>
                    <th scope="row">
                      <Swatch color={project.color} /> {project.name}
                    </th>
                    <td>{clientOf(project)?.name ?? <span class="muted">No client</span>}</td>
                    <td>{project.billable ? 'Yes' : 'No'}</td>
                    <td>{project.archived ? 'Archived' : 'Active'}</td>
                    <td>
                      <button type="button" onClick={() => (openId.value = openId.value === project.id ? null : project.id)} aria-expanded={openId.value === project.id} aria-label={`Open ${project.name}`}>
                        {openId.value === project.id ? 'Close' : 'Open'}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {open && (
        <ProjectDetail
          key={open.id}
          project={open}
          onDeleted={() => (openId.value = null)}
        />
      )}
      {admin && (
        <CreateProject
          onCreated={(project) => (openId.value = project.id)}
        />
      )}
    </>
  );
}
