import { useSignal, useSignalEffect } from '@preact/signals';
import { fieldErrors, problemMessage, type Problem } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { changes } from '../../data/changes.js';
import { deleteGeofence, geofences, loadGeofences, saveGeofence, type Geofence } from '../../data/geofences.js';
import { formats } from '../../data/preferences.js';
import { loadProjects, projects } from '../../data/projects.js';
import { me } from '../../data/session.js';
import '../manage/manage.css';

function GeofenceForm({ editing, done }: { editing: Geofence | null; done(): void }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const errors = fieldErrors(problem.value);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const text = (key: string) => String(data.get(key) ?? '').trim();
    const body = {
      name: text('name') || (editing ? null : undefined),
      latitude: Number(text('latitude')),
      longitude: Number(text('longitude')),
      radius: Number(text('radius')),
      projectId: text('projectId') || null,
    };
    const answer = await saveGeofence(editing, body);
    problem.value = answer.error;
    if (!answer.error) {
      form.reset();
      done();
    }
  };
  const list = Object.values(projects.value).filter((project) => !project.archived || project.id === editing?.projectId);
  return (
    <form class="card" onSubmit={submit} key={editing?.id ?? 'new'} aria-labelledby="geofence-form-heading">
      <h2 id="geofence-form-heading">{editing ? `Change ${editing.name ?? 'the geofence'}` : 'New geofence'}</h2>
      <Field id="geofence-name" label="Name" error={errors.name}>
        <input id="geofence-name" name="name" maxLength={200} defaultValue={editing?.name ?? ''} {...describedBy('geofence-name', errors.name)} />
      </Field>
      <div class="inline">
        <Field id="geofence-lat" label="Latitude (−90 to 90)" error={errors.latitude}>
          <input id="geofence-lat" name="latitude" type="number" step="any" min="-90" max="90" required defaultValue={editing?.latitude ?? ''} {...describedBy('geofence-lat', errors.latitude)} />
        </Field>
        <Field id="geofence-lon" label="Longitude (−180 to 180)" error={errors.longitude}>
          <input id="geofence-lon" name="longitude" type="number" step="any" min="-180" max="180" required defaultValue={editing?.longitude ?? ''} {...describedBy('geofence-lon', errors.longitude)} />
        </Field>
        <Field id="geofence-radius" label="Radius (metres)" error={errors.radius}>
          <input id="geofence-radius" name="radius" type="number" step="any" min="1" max="100000" required defaultValue={editing?.radius ?? ''} {...describedBy('geofence-radius', errors.radius)} />
        </Field>
      </div>
      <Field id="geofence-project" label="Project" error={errors.projectId}>
        <select id="geofence-project" name="projectId" {...describedBy('geofence-project', errors.projectId)}>
          <option value="">No project</option>
          {list.map((project) => (
            <option key={project.id} value={project.id} selected={project.id === editing?.projectId}>
              {project.name}
            </option>
          ))}
        </select>
      </Field>
      <div class="row-actions">
        <button type="submit" class="primary">
          {editing ? 'Save geofence' : 'Add geofence'}
        </button>
        {editing && (
          <button type="button" onClick={done}>
            Cancel
          </button>
        )}
      </div>
      {problem.value && !problem.value.errors && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
    </form>
  );
}

/** Geofences: places (a centre and a radius) that clients may start or stop timers at; listed with their project, no map tiles. */
export function GeofencesPage() {
  const editing = useSignal<Geofence | null>(null);
  const problem = useSignal<Problem | undefined>(undefined);
  const admin = me.value?.role === 'Administrator';
  useSignalEffect(() => {
    void changes.value;
    void loadGeofences();
    void loadProjects();
  });
  const remove = async (geofence: Geofence) => {
    const answer = await deleteGeofence(geofence.id);
    problem.value = answer.error;
    if (editing.value?.id === geofence.id) editing.value = null;
  };
  const number = new Intl.NumberFormat(formats.value.locale, { maximumFractionDigits: 6 });
  const metres = new Intl.NumberFormat(formats.value.locale, { style: 'unit', unit: 'meter', maximumFractionDigits: 1 });
  return (
    <>
      <h1>Geofences</h1>
      <section class="card" aria-labelledby="geofences-heading">
        <h2 id="geofences-heading">Places</h2>
        {geofences.value.length === 0 ? (
          <p class="muted">No geofences yet.</p>
        ) : (
          <div class="table-wrap">
            <table class="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Latitude</th>
                  <th scope="col">Longitude</th>
                  <th scope="col">Radius</th>
                  <th scope="col">Project</th>
                  {admin && (
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {geofences.value.map((geofence) => {
                  const label = geofence.name ?? 'Unnamed';
                  return (
                    <tr key={geofence.id}>
                      <th scope="row">{label}</th>
                      <td class="num">{number.format(geofence.latitude)}</td>
                      <td class="num">{number.format(geofence.longitude)}</td>
                      <td class="num">{metres.format(geofence.radius)}</td>
                      <td>{geofence.projectId ? (projects.value[geofence.projectId]?.name ?? '—') : <span class="muted">None</span>}</td>
                      {admin && (
                        <td>
                          <span class="row-actions">
                            <button type="button" onClick={() => (editing.value = geofence)} aria-label={`Change ${label}`}>
                              Change
                            </button>
                            <button type="button" class="danger" onClick={() => void remove(geofence)} aria-label={`Delete ${label}`}>
                              Delete
                            </button>
                          </span>
                        </td>
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {problem.value && (
          <p class="error" role="alert">
            {problemMessage(problem.value)}
          </p>
        )}
      </section>
      {admin ? (
        <GeofenceForm
          editing={editing.value}
          done={() => (editing.value = null)}
        />
      ) : (
        <p class="muted">Only administrators add or change geofences.</p>
      )}
    </>
  );
}
