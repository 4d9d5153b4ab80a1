import { useSignal } from '@preact/signals';
import { api, problemMessage } from '../api/client.js';
import { currentPath } from '../lib/router.js';

/*
 * Where to go once signed in: the page the person was on. A mailed link opens in a tab of its own,
 * without the sign-in page's `next`, so that page keeps it in localStorage (a path, never a token).
 */
const NEXT_KEY = 'timetrack.next';
const samePath = (path: string | null): path is string => !!path && path.startsWith('/') && !path.startsWith('//');

export function rememberNext(): void {
  const next = new URLSearchParams(location.search).get('next');
  if (samePath(next)) localStorage.setItem(NEXT_KEY, next);
}

export function nextPath(): string {
  const next = new URLSearchParams(location.search).get('next') ?? localStorage.getItem(NEXT_KEY);
  localStorage.removeItem(NEXT_KEY);
  return samePath(next) ? next : '/';
}

/**
 * A mailed link (`/auth/one-time?token=…`): opening it signs nobody in; the button does, so a link
 * fetched by a mail scanner is not used up.
 */
function RedeemLink() {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const problem = useSignal<string | null>(null);
  const busy = useSignal(false);
  const redeem = async () => {
    busy.value = true;
    const answer = await api.POST('/auth/one-time', { body: { token } });
    busy.value = false;
    if (answer.error) {
      problem.value = answer.error.status === 401 ? 'This link has been used or has expired. Ask for a new one.' : problemMessage(answer.error);
      return;
    }
    location.replace(nextPath());
  };
  return (
    <section class="card narrow" aria-labelledby="redeem-heading">
      <h1 id="redeem-heading">Sign in to timetrack</h1>
      <p>This link signs you in once.</p>
      <button type="button" class="primary" onClick={() => void redeem()} disabled={busy.value || !token}>
        Sign in
      </button>
      {problem.value && (
        <p class="error" role="alert">
          {problem.value} <a href="/sign-in">Sign in another way</a>
        </p>
      )}
    </section>
  );
}

function SignInForms() {
  rememberNext();
  return (
    <section class="card narrow" aria-labelledby="sign-in-heading">
      <h1 id="sign-in-heading">Sign in</h1>
      <p>Open the sign-in link your workspace mailed you.</p>
    </section>
  );
}

export function SignInPage() {
  return currentPath.value === '/auth/one-time' ? <RedeemLink /> : <SignInForms />;
}
