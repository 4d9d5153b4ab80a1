import { render } from 'preact';
import { useSignal } from '@preact/signals';
import './styles.css';

/** The bare domain's page: a person who does not know their workspace's address finds it by email. */
function FindWorkspace() {
  const sent = useSignal(false);
  const submit = (event: Event) => {
    event.preventDefault();
    sent.value = true;
  };
  return (
    <main id="main" class="card narrow">
      <h1>Find your workspace</h1>
      <p>Each timetrack workspace has an address of its own, such as acme.{location.hostname}.</p>
      <form onSubmit={submit} class="inline">
        <span class="field">
          <label for="find-email">Your email address</label>
          <input id="find-email" name="email" type="email" required autocomplete="email" />
        </span>
        <button type="submit" class="primary">
          Email me my workspaces
        </button>
      </form>
      {sent.value && <p role="status">If that address belongs to a workspace, a message with its address is on its way.</p>}
    </main>
  );
}

render(<FindWorkspace />, document.getElementById('app')!);
