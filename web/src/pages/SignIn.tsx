import { useSignal } from '@preact/signals';
import { api, problemMessage } from '../api/client.js';
import { currentPath } from '../lib/router.js';

/** Where to go once signed in: the page the person was on (same origin only), else Track. */
export function nextPath(): string {
  const next = new URLSearchParams(location.search).get('next') ?? '/';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
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
