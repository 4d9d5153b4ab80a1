import { useSignal, useSignalEffect } from '@preact/signals';
import { problemMessage, type Problem } from '../../api/client.js';
import { announceChange, changes } from '../../data/changes.js';
import { loadMembers, membersById, type Member } from '../../data/members.js';
import { formats } from '../../data/preferences.js';
import { loadProjects, projects } from '../../data/projects.js';
import { askForProjects, loadRequests, requests, resolveRequest, type WorkflowRequest } from '../../data/requests.js';
import { me } from '../../data/session.js';
import { loadDirectory } from '../../data/users.js';
import '../manage/manage.css';
import { describeRequest, KIND_LABELS, STATUS_LABELS } from './describe.js';

function Status({ request }: { request: WorkflowRequest }) {
  return (
    <span class={`badge status-${request.status}`}>
      {STATUS_LABELS[request.status]}
      {request.resolvedAt && ` ${formats.value.dateTime(request.resolvedAt)}`}
    </span>
  );
}

/** A pending request in the inbox: what it asks and one click to grant or reject it. */
function Pending({ request, members, done }: { request: WorkflowRequest; members: Record<string, Member>; done(): void }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const chosen = useSignal<string[]>([]);
  const text = describeRequest(request, members);
  const needsProjects = request.type === 'projectAssignment';
  const answer = async (status: 'RESOLVED' | 'REJECTED') => {
    const result = await resolveRequest(request, status, chosen.value);
    problem.value = result.error;
    if (!result.error) done();
  };
  const activeProjects = Object.values(projects.value).filter((project) => !project.archived);
  return (
    <li>
      <p>
        <span class="badge">{KIND_LABELS[request.type]}</span> {text} <span class="muted">{formats.value.dateTime(request.createdAt)}</span>
      </p>
      {needsProjects && (
        <fieldset>
          <legend>Projects to join</legend>
          {activeProjects.map((project) => (
            <span class="check" key={project.id}>
              <input
                type="checkbox"
                id={`assign-${request.id}-${project.id}`}
                checked={chosen.value.includes(project.id)}
                onChange={(e) => (chosen.value = e.currentTarget.checked ? [...chosen.value, project.id] : chosen.value.filter((id) => id !== project.id))}
              />
              <label for={`assign-${request.id}-${project.id}`}>{project.name}</label>
            </span>
          ))}
        </fieldset>
      )}
      <span class="row-actions">
        <button type="button" class="primary" onClick={() => void answer('RESOLVED')} disabled={needsProjects && chosen.value.length === 0} aria-label={`Grant: ${text}`}>
          Grant
        </button>
        <button type="button" class="danger" onClick={() => void answer('REJECTED')} aria-label={`Reject: ${text}`}>
          Reject
        </button>
      </span>
      {problem.value && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
    </li>
  );
}

function AskForProjects({ done }: { done(): void }) {
  const sent = useSignal<string | null>(null);
  const ask = async () => {
    const answer = await askForProjects();
    sent.value = answer.error ? problemMessage(answer.error) : 'Asked: an administrator will choose your projects.';
    done();
  };
  return (
    <p class="row-actions">
      <button type="button" onClick={() => void ask()}>
        Ask to be added to projects
      </button>
      {sent.value && <span role="status">{sent.value}</span>}
    </p>
  );
}

/**
 * Requests: an administrator's inbox of every pending request (grant or reject in one click) and
 * what was answered; a User's own requests and their state.
 */
export function RequestsPage() {
  const admin = me.value?.role === 'Administrator';
  const load = async () => {
    await loadRequests();
    // A role change names a member: their user comes from the project's members.
    const list = Object.values(requests.value ?? {});
    const projectIds = [...new Set(list.filter((r) => r.type === 'roleChange' && r.projectId).map((r) => r.projectId!))];
    await Promise.all(projectIds.map(loadMembers));
  };
  useSignalEffect(() => {
    void changes.value;
    void load();
    void loadDirectory();
    void loadProjects();
  });
  const done = () => {
    void load();
    announceChange();
  };
  const list = Object.values(requests.value ?? {});
  const members = membersById.value;
  const newestFirst = (a: WorkflowRequest, b: WorkflowRequest) => Date.parse(b.createdAt) - Date.parse(a.createdAt);
  const pending = list.filter((r) => r.status === 'PENDING').sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  const mine = list.filter((r) => r.createdBy === me.value?.id).sort(newestFirst);
  const answered = list.filter((r) => r.status !== 'PENDING').sort(newestFirst).slice(0, 50);
  return (
    <>
      <h1>Requests</h1>
      {admin && (
        <section class="card" aria-labelledby="inbox-heading">
          <h2 id="inbox-heading">Waiting for an answer ({pending.length})</h2>
          {pending.length === 0 ? (
            <p class="muted">Nothing is waiting.</p>
          ) : (
            <ul class="requests" aria-label="Pending requests">
              {pending.map((request) => (
                <Pending key={request.id} request={request} members={members} done={done} />
              ))}
            </ul>
          )}
        </section>
      )}
      <section class="card" aria-labelledby="mine-heading">
        <h2 id="mine-heading">Your requests</h2>
        {mine.length === 0 ? (
          <p class="muted">You have asked for nothing yet. Unlocks and approvals of a week are asked on the Timesheet page.</p>
        ) : (
          <ul class="requests" aria-label="Your requests">
            {mine.map((request) => (
              <li key={request.id}>
                <p>
                  <span class="badge">{KIND_LABELS[request.type]}</span> {describeRequest(request, members)}{' '}
                  <span class="muted">{formats.value.dateTime(request.createdAt)}</span>
                </p>
                <Status request={request} />
              </li>
            ))}
          </ul>
        )}
        <AskForProjects done={done} />
      </section>
      {admin && (
        <section class="card" aria-labelledby="answered-heading">
          <h2 id="answered-heading">Answered</h2>
          {answered.length === 0 ? (
            <p class="muted">No request has been answered yet.</p>
          ) : (
            <ul class="requests" aria-label="Answered requests">
              {answered.map((request) => (
                <li key={request.id}>
                  <p>
                    <span class="badge">{KIND_LABELS[request.type]}</span> {describeRequest(request, members)}
                  </p>
                  <Status request={request} />
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </>
  );
}
