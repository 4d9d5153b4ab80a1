import { useSignal, useSignalEffect } from '@preact/signals';
import { fieldErrors, problemMessage, type Problem } from '../api/client.js';
import { describedBy, Field } from '../components/Field.js';
import { accountSessions, changePassword, endAccountSessions, loadAccountSessions, type AccountSession } from '../data/account.js';
import { formats } from '../data/preferences.js';
import { TwoFactorSettings } from './TwoFactor.js';

const METHOD: Record<AccountSession['method'], string> = {
  support: 'support link',
  link: 'email link',
  invitation: 'invitation',
  'password-reset': 'password reset',
  password: 'password',
  oidc: 'single sign-on',
};

/** Where the account is signed in; ending one signs that browser out at once. */
function Sessions() {
  const problem = useSignal<Problem | undefined>(undefined);
  useSignalEffect(() => {
    void loadAccountSessions().then((refused) => (problem.value = refused));
  });
  const end = async (ids: string[]) => {
    problem.value = await endAccountSessions(ids);
  };
  const others = accountSessions.value.filter((session) => !session.current);
  return (
    <section class="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      {problem.value && <p class="error" role="alert">{problemMessage(problem.value)}</p>}
      <ul class="keys">
        {accountSessions.value.map((session) => (
          <li key={session.id}>
            <span>
              <strong>{session.current ? 'This browser' : (session.userAgent ?? 'Unknown browser')}</strong>{' '}
              <span class="muted">
                by {METHOD[session.method]}, since {formats.value.dateTime(session.createdAt)}, last used {formats.value.dateTime(session.lastUsedAt)}
              </span>
            </span>
            {!session.current && (
              <button type="button" class="danger" onClick={() => void end([session.id])}>
                Sign out
              </button>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <button type="button" onClick={() => void end(others.map((session) => session.id))}>
          Sign out everywhere else
        </button>
      )}
    </section>
  );
}

function PasswordChange() {
  const problem = useSignal<Problem | undefined>(undefined);
  const saved = useSignal(false);
  const errors = fieldErrors(problem.value);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const currentPassword = String(data.get('currentPassword') ?? '');
    const answer = await changePassword({ newPassword: String(data.get('newPassword') ?? ''), ...(currentPassword ? { currentPassword } : {}) });
    problem.value = answer.error;
    saved.value = !answer.error;
    if (!answer.error) form.reset();
  };
  return (
    <form class="card" onSubmit={(event) => void submit(event)} aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <p class="muted">Changing it signs you out everywhere else.</p>
      <Field id="current-password" label="Current password (leave empty if you have none)" error={errors.currentPassword}>
        <input id="current-password" name="currentPassword" type="password" autocomplete="current-password" maxLength={256} {...describedBy('current-password', errors.currentPassword)} />
      </Field>
      <Field id="new-password" label="New password (12 characters or more)" error={errors.newPassword}>
        <input id="new-password" name="newPassword" type="password" autocomplete="new-password" required minLength={12} maxLength={256} {...describedBy('new-password', errors.newPassword)} />
      </Field>
      <button type="submit" class="primary">
        Change password
      </button>
      {problem.value && !problem.value.errors && <p class="error" role="alert">{problemMessage(problem.value)}</p>}
      {saved.value && <p role="status">Password changed.</p>}
    </form>
  );
}

/** Password, two-factor codes and sessions. */
export function AccountSecurity() {
  return (
    <>
      <PasswordChange />
      <TwoFactorSettings />
      <Sessions />
    </>
  );
}
