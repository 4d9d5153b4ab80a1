import { useSignal } from '@preact/signals';
import { fieldErrors, fieldOrConflict, problemMessage, type Problem, type Project } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { addMember, removeMember, updateMember, type Member } from '../../data/members.js';
import { organization } from '../../data/organization.js';
import { revenueRatesOf } from '../../data/rates.js';
import { directory, userLabel } from '../../data/users.js';
import { RateList } from '../manage/RateList.js';

type Role = Member['role'];

const ROLES: [Role, string][] = [
  ['User', 'Member'],
  ['Administrator', 'Project admin'],
];

const tagsOf = (text: string): string[] =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

function ProblemLine({ problem }: { problem?: Problem }) {
  if (!problem || problem.errors) return null;
  return (
    <p class="error" role="alert">
      {problemMessage(problem)}
    </p>
  );
}

function MemberRow({ project, member, manages }: { project: Project; member: Member; manages: boolean }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const showRates = useSignal(false);
  const name = userLabel(member.userId);
  const id = `member-${member.id}`;
  const errors = fieldErrors(problem.value);
  const save = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const answer = await updateMember(project.id, member.id, {
      role: String(data.get('role')) as Role,
      title: String(data.get('title') ?? '').trim(),
      tags: tagsOf(String(data.get('tags') ?? '')),
      archived: data.get('archived') === 'on',
    });
    problem.value = answer.error;
  };
  const remove = async () => {
    problem.value = (await removeMember(project.id, member.id)).error;
  };
  if (!manages) {
    return (
      <li>
        <strong>{name}</strong> · {member.role === 'Administrator' ? 'Project admin' : 'Member'}
        {member.title && ` · ${member.title}`}
        {member.tags?.length ? ` · ${member.tags.join(', ')}` : ''}
        {member.archived && <span class="badge">archived</span>}
      </li>
    );
  }
  return (
    <li>
      <form class="inline" onSubmit={save} aria-label={`${name}'s membership`}>
        <strong>{name}</strong>
        <Field id={`${id}-role`} label="Role" error={errors.role}>
          <select id={`${id}-role`} name="role" {...describedBy(`${id}-role`, errors.role)}>
            {ROLES.map(([value, label]) => (
              <option key={value} value={value} selected={member.role === value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${id}-title`} label="Title" error={errors.title}>
          <input id={`${id}-title`} name="title" defaultValue={member.title ?? ''} {...describedBy(`${id}-title`, errors.title)} />
        </Field>
        <Field id={`${id}-tags`} label="Tags (comma-separated)" error={errors.tags}>
          <input id={`${id}-tags`} name="tags" defaultValue={(member.tags ?? []).join(', ')} {...describedBy(`${id}-tags`, errors.tags)} />
        </Field>
        <span class="check">
          <input type="checkbox" id={`${id}-archived`} name="archived" defaultChecked={member.archived} />
          <label for={`${id}-archived`}>Archived</label>
        </span>
        <span class="row-actions">
          <button type="submit">Save</button>
          <button type="button" aria-expanded={showRates.value} onClick={() => (showRates.value = !showRates.value)}>
            Revenue rates
          </button>
          <button type="button" class="danger" onClick={() => void remove()} aria-label={`Remove ${name} from ${project.name}`}>
            Remove
          </button>
        </span>
      </form>
      <ProblemLine problem={problem.value} />
      {showRates.value && (
        <RateList
          id={`${id}-rates`}
          title={`${name}'s revenue rates on ${project.name}`}
          canWrite
          defaultCurrency={organization.value?.currency ?? 'EUR'}
          timeline={revenueRatesOf(project.id, member.id)}
        />
      )}
    </li>
  );
}

function AddMember({ project, members }: { project: Project; members: Member[] }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const taken = new Set(members.map((member) => member.userId));
  const candidates = Object.values(directory.value)
    .filter((user) => !user.archived && !taken.has(user.id))
    .sort((a, b) => (a.name || a.email).localeCompare(b.name || b.email));
  const errors = fieldErrors(problem.value);
  const userError = fieldOrConflict(problem.value, 'userId');
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const answer = await addMember(project.id, {
      userId: String(data.get('userId') ?? ''),
      role: String(data.get('role')) as Role,
      title: String(data.get('title') ?? '').trim() || undefined,
      tags: tagsOf(String(data.get('tags') ?? '')),
    });
    problem.value = answer.error;
    if (!answer.error) form.reset();
  };
  if (candidates.length === 0) return <p class="muted">Everyone in the workspace is a member.</p>;
  return (
    <form class="inline" onSubmit={submit} aria-labelledby="add-member-heading">
      <h3 id="add-member-heading" class="visually-hidden">
        Add a member
      </h3>
      <Field id="add-member-user" label="Person to add" error={userError}>
        <select id="add-member-user" name="userId" required {...describedBy('add-member-user', userError)}>
          {candidates.map((user) => (
            <option key={user.id} value={user.id}>
              {user.name ? `${user.name} (${user.email})` : user.email}
            </option>
          ))}
        </select>
      </Field>
      <Field id="add-member-role" label="Role">
        <select id="add-member-role" name="role">
          {ROLES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <Field id="add-member-title" label="Title" error={errors.title}>
        <input id="add-member-title" name="title" {...describedBy('add-member-title', errors.title)} />
      </Field>
      <Field id="add-member-tags" label="Tags (comma-separated)" error={errors.tags}>
        <input id="add-member-tags" name="tags" {...describedBy('add-member-tags', errors.tags)} />
      </Field>
      <button type="submit" class="primary">
        Add member
      </button>
      {problem.value && !problem.value.errors && problem.value.status !== 409 && <ProblemLine problem={problem.value} />}
    </form>
  );
}

/** A project's members with their roles, titles and tags; project admins and administrators manage them and their revenue rates. */
export function Members({ project, members, manages }: { project: Project; members: Member[]; manages: boolean }) {
  const sorted = [...members].sort((a, b) => userLabel(a.userId).localeCompare(userLabel(b.userId)));
  return (
    <section class="sub" aria-labelledby="members-heading">
      <h3 id="members-heading">Members</h3>
      {sorted.length === 0 ? (
        <p class="muted">No members.</p>
      ) : (
        <ul class="requests">
          {sorted.map((member) => (
            <MemberRow key={member.id} project={project} member={member} manages={manages} />
          ))}
        </ul>
      )}
      {manages && <AddMember project={project} members={members} />}
    </section>
  );
}
