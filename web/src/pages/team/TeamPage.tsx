import { useSignal, useSignalEffect } from '@preact/signals';
import { fieldErrors, problemMessage, type Problem, type User } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { showToast } from '../../components/Toast.js';
import { changes } from '../../data/changes.js';
import { organization } from '../../data/organization.js';
import { costRatesOf } from '../../data/rates.js';
import { me } from '../../data/session.js';
import { deleteUser, directory, inviteUser, loadDirectory, updateUser } from '../../data/users.js';
import { Confirm } from '../manage/Confirm.js';
import '../manage/manage.css';
import { RateList } from '../manage/RateList.js';
import { WeekLocks } from './WeekLocks.js';

type Role = User['role'];

function Invite() {
  const problem = useSignal<Problem | undefined>(undefined);
  const invited = useSignal<string | null>(null);
  const errors = fieldErrors(problem.value);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const text = (key: string) => String(data.get(key) ?? '').trim();
    const answer = await inviteUser({ email: text('email'), name: text('name') || undefined, role: text('role') as Role, title: text('title') || null });
    problem.value = answer.error;
    invited.value = answer.data ? answer.data.email : null;
    if (answer.data) form.reset();
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite someone</h2>
      <p class="muted">They get an invitation mail with a link to this workspace. Inviting someone already here sends the mail again and changes nothing else.</p>
      <Field id="invite-email" label="Email" error={errors.email}>
        <input id="invite-email" name="email" type="email" required autocomplete="off" {...describedBy('invite-email', errors.email)} />
      </Field>
      <Field id="invite-name" label="Name (optional)" error={errors.name}>
        <input id="invite-name" name="name" maxLength={255} {...describedBy('invite-name', errors.name)} />
      </Field>
      <Field id="invite-title" label="Title (optional)" error={errors.title}>
        <input id="invite-title" name="title" {...describedBy('invite-title', errors.title)} />
      </Field>
      <Field id="invite-role" label="Role">
        <select id="invite-role" name="role">
          <option value="User">User</option>
          <option value="Administrator">Administrator</option>
        </select>
      </Field>
      <button type="submit" class="primary">
        Send invitation
      </button>
      {invited.value && <p role="status">Invitation sent to {invited.value}.</p>}
      {problem.value && !problem.value.errors && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
    </form>
  );
}

function Person({ user }: { user: User }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const deleting = useSignal(false);
  const showRates = useSignal(false);
  const showLocks = useSignal(false);
  const name = user.name || user.email;
  const id = `user-${user.id}`;
  const update = async (body: { role?: Role; archived?: boolean }) => {
    problem.value = (await updateUser(user.id, body)).error;
  };
  // Inviting the same email again mails a new link and changes nothing else (docs/rules.md §6 Users).
  const resend = async () => {
    const answer = await inviteUser({ email: user.email });
    problem.value = answer.error;
    if (!answer.error) showToast({ text: `Invitation sent again to ${user.email}.` });
  };
  const remove = async () => {
    const answer = await deleteUser(user.id);
    problem.value = answer.error;
    deleting.value = false;
    if (!answer.error) showToast({ text: `${name} is deleted.` });
  };
  return (
    <li>
      <span>
        <strong>{name}</strong> {user.name && <span class="muted">{user.email}</span>} {user.id === me.value?.id && <span class="badge">you</span>}{' '}
        {user.archived && <span class="badge">archived</span>}
        {user.joinedAt === null && <span class="badge">Invited</span>}
      </span>
      <span class="row-actions">
        <label for={`${id}-role`} class="visually-hidden">
          {name}'s role
        </label>
        <select id={`${id}-role`} value={user.role} onChange={(e) => void update({ role: e.currentTarget.value as Role })} aria-describedby={problem.value ? `${id}-problem` : undefined}>
          <option value="User">User</option>
          <option value="Administrator">Administrator</option>
        </select>
        <button type="button" onClick={() => void update({ archived: !user.archived })} aria-label={`${user.archived ? 'Unarchive' : 'Archive'} ${name}`}>
          {user.archived ? 'Unarchive' : 'Archive'}
        </button>
        {user.joinedAt === null && !user.archived && (
          <button type="button" onClick={() => void resend()} aria-label={`Resend invitation to ${name}`}>
            Resend invitation
          </button>
        )}
        <button type="button" aria-expanded={showRates.value} onClick={() => (showRates.value = !showRates.value)} aria-label={`${name}'s cost rates`}>
          Cost rates
        </button>
        <button type="button" aria-expanded={showLocks.value} onClick={() => (showLocks.value = !showLocks.value)} aria-label={`${name}'s timesheet locks`}>
          Timesheet locks
        </button>
        <button type="button" class="danger" onClick={() => (deleting.value = true)} aria-label={`Delete ${name}…`}>
          Delete…
        </button>
      </span>
      {problem.value && (
        <p class="error" role="alert" id={`${id}-problem`}>
          {problemMessage(problem.value)}
        </p>
      )}
      {deleting.value && (
        <Confirm label={`Delete ${name}`} confirmLabel={`Delete ${name}`} onConfirm={() => void remove()} onCancel={() => (deleting.value = false)}>
          <p>
            <strong>Delete {name} from this workspace for good?</strong>
          </p>
          <p>
            Their time entries, project memberships (with revenue rates), cost rates, reports, preferences, API keys, timesheet locks and requests are removed. Their account stays, with any other
            workspaces. Archiving keeps all of it and only ends their access.
          </p>
        </Confirm>
      )}
      {showRates.value && (
        <RateList
          id={`${id}-rates`}
          title={`${name}'s cost rates`}
          canWrite
          defaultCurrency={organization.value?.currency ?? 'EUR'}
          timeline={costRatesOf(user.id)}
        />
      )}
      {showLocks.value && <WeekLocks id={`${id}-locks`} userId={user.id} name={name} />}
    </li>
  );
}

/** The team (administrators): everyone with their role and state, invitations, role changes, archiving, deletion and cost rates. */
export function TeamPage() {
  const showArchived = useSignal(true);
  useSignalEffect(() => {
    void changes.value;
    void loadDirectory();
  });
  const users = Object.values(directory.value)
    .filter((user) => showArchived.value || !user.archived)
    .sort((a, b) => (a.name || a.email).localeCompare(b.name || b.email));
  return (
    <>
      <h1>Team</h1>
      <section class="card" aria-labelledby="team-heading">
        <h2 id="team-heading">People</h2>
        <span class="check">
          <input type="checkbox" id="team-archived" checked={showArchived.value} onChange={(e) => (showArchived.value = e.currentTarget.checked)} />
          <label for="team-archived">Show archived people</label>
        </span>
        <ul class="requests" aria-label="People">
          {users.map((user) => (
            <Person key={user.id} user={user} />
          ))}
        </ul>
      </section>
      <Invite />
    </>
  );
}
