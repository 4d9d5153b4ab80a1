import { useSignal, useSignalEffect } from '@preact/signals';
import { api, problemMessage, type Problem, type Schemas } from '../api/client.js';
import { formats } from '../lib/session.js';

type Session = Schemas['Session'];

const METHOD: Record<Session['method'], string> = {
  support: 'support link',
  link: 'email link',
  invitation: 'invitation',
  'password-reset': 'password reset',
  password: 'password',
};

/** Where the account is signed in; ending one signs that browser out at once. */
function Sessions() {
  const sessions = useSignal<Session[]>([]);
  const problem = useSignal<Problem | undefined>(undefined);
  const load = async () => {
    const answer = await api.GET('/auth/sessions');
    problem.value = answer.error;
    if (answer.data) sessions.value = Object.values(answer.data);
  };
  useSignalEffect(() => {
    void load();
  });
  const end = async (ids: string[]) => {
    for (const sessionId of ids) {
      const answer = await api.DELETE('/auth/sessions/{sessionId}', { params: { path: { sessionId } } });
      problem.value = answer.error;
    }
    await load();
  };
  const others = sessions.value.filter((session) => !session.current);
  return (
    <section class="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      {problem.value && <p class="error" role="alert">{problemMessage(problem.value)}</p>}
      <ul class="keys">
        {sessions.value.map((session) => (
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

/** Password, two-factor codes and sessions. */
export function AccountSecurity() {
  return <Sessions />;
}
