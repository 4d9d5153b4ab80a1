import { render } from 'preact';
import { useSignal } from '@preact/signals';
import { api, fieldErrors, problemMessage, type Problem } from './api/client.js';
import './styles.css';

/** The bare domain's page: a person who does not know their workspace's address finds it by email. */
function FindWorkspace() {
  const sent = useSignal(false);
  const problem = useSignal<Problem | undefined>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget as HTMLFormElement).get('email') ?? '').trim();
    const answer = await api.POST('/auth/find-workspaces', { body: { email } });
    problem.value = answer.error;
    sent.value = !answer.error;
  };
  const error = fieldErrors(problem.value).email;
  return (
    <main id="main" class="card narrow">
      <h1>Find your workspace</h1>
      <p>Each timetrack workspace has an address of its own, such as acme.{location.hostname}.</p>
      <form onSubmit={(event) => void submit(event)} class="inline">
        <span class="field">
          <label for="find-email">Your email address</label>
          <input id="find-email" name="email" type="email" required autocomplete="email" maxLength={254} aria-invalid={error ? true : undefined} aria-describedby={error ? 'find-email-error' : undefined} />
          {error && (
            <span class="error" id="find-email-error">
              {error}
            </span>
          )}
        </span>
        <button type="submit" class="primary">
          Email me my workspaces
        </button>
      </form>
      {problem.value && !problem.value.errors && <p class="error" role="alert">{problemMessage(problem.value)}</p>}
      {sent.value && <p role="status">If that address belongs to a workspace, a message with its address is on its way.</p>}
    </main>
  );
}

render(<FindWorkspace />, document.getElementById('app')!);
