import { useSignal } from '@preact/signals';
import { fieldOrConflict, problemMessage, type Problem } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { deleteWorkspace, renameWorkspace } from '../../data/organization.js';
import { workspaceDomain } from '../../data/session.js';
import { Confirm } from '../manage/Confirm.js';

/** This workspace's address with another first label: `acme.example.com` → `new.example.com`. */
const addressWith = (domain: string) => `${location.protocol}//${domain}.${location.host.split('.').slice(1).join('.')}`;

/** Renaming moves the workspace at once: the old address stops answering. */
function Rename() {
  const domain = workspaceDomain.value;
  const problem = useSignal<Problem | undefined>(undefined);
  const domainError = fieldOrConflict(problem.value, 'domain');
  const submit = async (event: Event) => {
    event.preventDefault();
    const next = String(new FormData(event.currentTarget as HTMLFormElement).get('domain') ?? '').trim().toLowerCase();
    const answer = await renameWorkspace(next);
    problem.value = answer.error;
    if (answer.data) location.assign(`${addressWith(answer.data.domain)}/settings`);
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="rename-heading">
      <h2 id="rename-heading">Address</h2>
      <p>
        This workspace is at <strong>{domain ? addressWith(domain) : '…'}</strong>.
      </p>
      <p class="muted">
        Renaming moves it at once: the new address answers and the old one stops answering (links, bookmarks and integrations that use it break), though the old name stays reserved to this
        workspace. Everyone signs in again at the new address; API keys keep working there.
      </p>
      <Field id="rename-domain" label="New address (3–63 of a–z, 0–9 and -)" error={domainError}>
        <input id="rename-domain" name="domain" required minLength={3} maxLength={63} pattern="[a-z0-9\-]+" autocomplete="off" {...describedBy('rename-domain', domainError)} />
      </Field>
      <button type="submit" class="primary">
        Rename workspace
      </button>
      {problem.value && !problem.value.errors && problem.value.status !== 409 && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
    </form>
  );
}

/** Deleting the workspace, confirmed by typing its address. */
function DeleteWorkspace() {
  const domain = workspaceDomain.value;
  const asking = useSignal(false);
  const typed = useSignal('');
  const problem = useSignal<Problem | undefined>(undefined);
  const remove = async () => {
    const answer = await deleteWorkspace();
    problem.value = answer.error;
    if (answer.data) location.assign(answer.data.redirectUrl ?? '/');
  };
  return (
    <section class="card" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete the workspace</h2>
      <p class="muted">Everything in it is removed for good: time, projects, people's places in it, reports and requests. Accounts stay, with their other workspaces.</p>
      {!asking.value ? (
        <button type="button" class="danger" onClick={() => (asking.value = true)}>
          Delete workspace…
        </button>
      ) : (
        <Confirm label="Delete the workspace" confirmLabel="Delete workspace for good" disabled={typed.value !== domain} onConfirm={() => void remove()} onCancel={() => ((asking.value = false), (typed.value = ''))}>
          <Field id="delete-confirm" label={`Type ${domain ?? 'the address'} to confirm`}>
            <input id="delete-confirm" autocomplete="off" value={typed.value} onInput={(e) => (typed.value = e.currentTarget.value.trim())} />
          </Field>
        </Confirm>
      )}
      {problem.value && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
    </section>
  );
}

export function Address() {
  return (
    <>
      <Rename />
      <DeleteWorkspace />
    </>
  );
}
