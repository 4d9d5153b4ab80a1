import { useSignal, useSignalEffect } from '@preact/signals';
import { fieldErrors, problemMessage, type Problem, type Project } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { changes } from '../../data/changes.js';
import { createProject, loadProjects, projects } from '../../data/projects.js';
import { me } from '../../data/session.js';
import { loadDirectory } from '../../data/users.js';
import '../manage/manage.css';
import { ProjectDetail } from './ProjectDetail.js';

function CreateProject({ onCreated }: { onCreated(project: Project): void }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const errors = fieldErrors(problem.value);
  const nameError = errors.name ?? (problem.value?.status === 409 ? problem.value.detail : undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const answer = await createProject({ name: String(data.get('name') ?? '').trim(), billable: data.get('billable') === 'on', notes: String(data.get('notes') ?? '') });
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
    void loadDirectory();
  });
  const admin = me.value?.role === 'Administrator';
  const needle = search.value.trim().toLowerCase();
  const list = Object.values(projects.value)
    .filter((project) => (showArchived.value || !project.archived) && (!needle || project.name.toLowerCase().includes(needle)))
    .sort((a, b) => a.name.localeCompare(b.name));
  const open = openId.value ? projects.value[openId.value] : undefined;
  return (
    <>
      <h1>Projects</h1>
      <div class="toolbar">
        <Field id="project-search" label="Search projects">
          <input id="project-search" type="search" value={search.value} onInput={(e) => (search.value = e.currentTarget.value)} />
        </Field>
        <span class="check">
          <input type="checkbox" id="show-archived" checked={showArchived.value} onChange={(e) => (showArchived.value = e.currentTarget.checked)} />
          <label for="show-archived">Show archived</label>
        </span>
      </div>
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
                    <th scope="row">{project.name}</th>
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
