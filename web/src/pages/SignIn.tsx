import { signal, useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { api, fieldErrors, problemMessage, type Problem, type SignInProviders } from '../api/client.js';
import { describedBy, Field } from '../components/Field.js';
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

/** Where signing in lands without a page to return to: the app sends it on to the role's first page (docs/web-app.md, "Dashboard"). */
export const LANDING = '/home';

export function nextPath(): string {
  const next = new URLSearchParams(location.search).get('next') ?? localStorage.getItem(NEXT_KEY);
  localStorage.removeItem(NEXT_KEY);
  return samePath(next) ? next : LANDING;
}

/** What the sign-in page shows beyond its forms (GET /auth/providers): the workspace's name, single sign-on. */
const providers = signal<SignInProviders | null>(null);

function loadProviders(): void {
  void api.GET('/auth/providers').then((answer) => {
    if (answer.data) providers.value = answer.data;
  });
}

/**
 * A mailed link (`/auth/one-time?token=…`): opening it signs nobody in; the button does, so a link
 * fetched by a mail scanner is not used up. A password-reset link then asks for the new password.
 */
function RedeemLink() {
  useEffect(loadProviders, []);
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const problem = useSignal<string | null>(null);
  const busy = useSignal(false);
  const resetting = useSignal(false);
  const inviting = useSignal<string | null>(null);
  const challenge = useSignal<{ code: string; purpose: string } | null>(null);
  const redeem = async () => {
    busy.value = true;
    const answer = await api.POST('/auth/one-time', { body: { token } });
    busy.value = false;
    if (answer.error) {
      problem.value = answer.error.status === 401 ? 'This link has been used or has expired. Ask for a new one.' : problemMessage(answer.error);
      return;
    }
    // The address no longer needs the token: it leaves the history.
    history.replaceState(null, '', '/auth/one-time');
    if (answer.data.twoFactorRequired && answer.data.challenge) challenge.value = { code: answer.data.challenge, purpose: answer.data.purpose };
    else if (answer.data.purpose === 'password-reset') resetting.value = true;
    else if (answer.data.purpose === 'invitation' && !passwordPromptDone(answer.data.email)) inviting.value = answer.data.email;
    else location.replace(nextPath());
  };
  if (resetting.value) return <NewPassword />;
  if (inviting.value) return <NewPassword invitedEmail={inviting.value} />;
  if (challenge.value) {
    const { code, purpose } = challenge.value;
    const then = () => {
      if (purpose !== 'password-reset') return location.replace(nextPath());
      challenge.value = null;
      resetting.value = true;
    };
    return <SecondFactor challenge={code} then={then} />;
  }
  return (
    <section class="card narrow" aria-labelledby="redeem-heading">
      <h1 id="redeem-heading">Sign in to {providers.value?.workspace.name ?? 'timetrack'}</h1>
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

/**
 * The second step of a sign-in of an account with two-factor codes on: the sign-in answered a
 * challenge instead of a session; a code (or a recovery code) turns it into the session. It takes
 * the sign-in form's place, its field focused.
 */
function SecondFactor({ challenge, then }: { challenge: string; then: () => void }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const recovery = useSignal(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), [recovery.value]);
  const errors = fieldErrors(problem.value);
  const submit = async (event: Event) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget as HTMLFormElement).get('code') ?? '').trim();
    const body = recovery.value ? { challenge, recoveryCode: value } : { challenge, code: value };
    const answer = await api.POST('/auth/two-factor/verify', { body });
    problem.value = answer.error;
    if (!answer.error) then();
  };
  const error = errors.code || errors.recoveryCode ? (recovery.value ? 'A recovery code looks like xxxxx-xxxxx.' : 'Type the six digits your authenticator app shows.') : undefined;
  // A challenge lives five minutes and five wrong codes: past that, only signing in again helps.
  const expired = problem.value?.status === 401 && problem.value.detail?.includes('challenge');
  const message = expired ? 'This sign-in has expired.' : problem.value?.status === 401 ? 'That code is wrong or already used.' : problem.value && !problem.value.errors ? problemMessage(problem.value) : null;
  return (
    <form class="card narrow" onSubmit={submit} aria-labelledby="code-heading">
      <h1 id="code-heading">Two-factor code</h1>
      <Field id="second-factor" label={recovery.value ? 'Recovery code' : 'Code from your authenticator app'} error={error}>
        <input ref={field} id="second-factor" name="code" autocomplete="one-time-code" inputMode={recovery.value ? 'text' : 'numeric'} required maxLength={32} {...describedBy('second-factor', error)} />
      </Field>
      <button type="submit" class="primary">
        Verify
      </button>
      <button type="button" class="link" onClick={() => (recovery.value = !recovery.value)}>
        {recovery.value ? 'Use a code from the app' : 'Use a recovery code'}
      </button>
      {message && (
        <p class="error" role="alert">
          {message} {expired && <a href={location.pathname === '/auth/one-time' ? '/sign-in' : location.pathname + location.search}>Sign in again</a>}
        </p>
      )}
    </form>
  );
}

/** Right after a reset link: the new password (no current one needed for a few minutes). */
/*
 * A person arriving by an invitation is asked once to set a password (docs/web-app.md): set or
 * skipped, the answer is kept in localStorage for the email, so a later invitation does not ask again.
 */
const PROMPTED_KEY = 'timetrack.password-prompted';
const passwordPromptDone = (email: string): boolean => (localStorage.getItem(PROMPTED_KEY) ?? '').split(' ').includes(email);
function passwordPromptAnswered(email: string | undefined): void {
  if (email && !passwordPromptDone(email)) localStorage.setItem(PROMPTED_KEY, `${localStorage.getItem(PROMPTED_KEY) ?? ''} ${email}`.trim());
}

/** The new password after a reset link, or the prompt for one (with "Later") after an invitation link. */
function NewPassword({ invitedEmail }: { invitedEmail?: string }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const errors = fieldErrors(problem.value);
  const invited = invitedEmail !== undefined;
  const submit = async (event: Event) => {
    event.preventDefault();
    const newPassword = String(new FormData(event.currentTarget as HTMLFormElement).get('newPassword') ?? '');
    const answer = await api.PUT('/auth/password', { body: { newPassword } });
    problem.value = answer.error;
    if (answer.error) return;
    passwordPromptAnswered(invitedEmail);
    location.replace(nextPath());
  };
  const later = () => {
    passwordPromptAnswered(invitedEmail);
    location.replace(nextPath());
  };
  return (
    <form class="card narrow" onSubmit={submit} aria-labelledby="reset-heading">
      <h1 id="reset-heading">{invited ? 'Set a password' : 'Choose a new password'}</h1>
      {invited && <p>Welcome! With a password you can sign in without waiting for a mailed link. You can also set one later in Profile → Security.</p>}
      <Field id="reset-password" label="New password (12 characters or more)" error={errors.newPassword}>
        <input id="reset-password" name="newPassword" type="password" autocomplete="new-password" required minLength={12} maxLength={256} {...describedBy('reset-password', errors.newPassword)} />
      </Field>
      <button type="submit" class="primary">
        Save and continue
      </button>
      {invited && (
        <button type="button" onClick={later}>
          Later
        </button>
      )}
      {problem.value && !problem.value.errors && <p class="error" role="alert">{problemMessage(problem.value)}</p>}
    </form>
  );
}

const emailOf = (event: Event) => String(new FormData(event.currentTarget as HTMLFormElement).get('email') ?? '').trim();

function EmailLink() {
  const sent = useSignal<string | null>(null);
  const problem = useSignal<Problem | undefined>(undefined);
  const errors = fieldErrors(problem.value);
  const submit = async (event: Event) => {
    event.preventDefault();
    const email = emailOf(event);
    const answer = await api.POST('/auth/email-link', { body: { email } });
    problem.value = answer.error;
    if (!answer.error) sent.value = email;
  };
  return (
    <form onSubmit={submit} aria-labelledby="link-heading" class="stack">
      <h2 id="link-heading">Email me a sign-in link</h2>
      <Field id="link-email" label="Email" error={errors.email}>
        <input id="link-email" name="email" type="email" autocomplete="email" required maxLength={254} {...describedBy('link-email', errors.email)} />
      </Field>
      <button type="submit" class="primary">
        Email me a link
      </button>
      {sent.value && <p role="status">If {sent.value} belongs to this workspace, a sign-in link is on its way. It works once, for 15 minutes.</p>}
      {problem.value && !problem.value.errors && <p class="error" role="alert">{problemMessage(problem.value)}</p>}
    </form>
  );
}

/** A password sign-in; an account with two-factor codes on answers a challenge, handed to `onChallenge`. */
function Password({ onChallenge }: { onChallenge: (challenge: string) => void }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const resetSent = useSignal(false);
  const busy = useSignal(false);
  const errors = fieldErrors(problem.value);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    busy.value = true;
    const answer = await api.POST('/auth/sign-in', { body: { email: String(form.get('email') ?? '').trim(), password: String(form.get('password') ?? '') } });
    busy.value = false;
    problem.value = answer.error;
    if (answer.data?.twoFactorRequired && answer.data.challenge) onChallenge(answer.data.challenge);
    else if (!answer.error) location.replace(nextPath());
  };
  const reset = async () => {
    const email = (document.getElementById('password-email') as HTMLInputElement).value.trim();
    if (!email) {
      problem.value = { type: '', title: '', status: 422, code: 'validation', detail: '', errors: [{ pointer: '/body/email', message: 'Type your email address first.' }] };
      return;
    }
    const answer = await api.POST('/auth/password-reset', { body: { email } });
    problem.value = answer.error;
    resetSent.value = !answer.error;
  };
  const message = problem.value?.status === 401 ? 'The email or the password is wrong.' : problem.value && !problem.value.errors ? problemMessage(problem.value) : null;
  return (
    <form onSubmit={submit} aria-labelledby="password-heading" class="stack">
      <h2 id="password-heading">Sign in with a password</h2>
      <Field id="password-email" label="Email" error={errors.email}>
        <input id="password-email" name="email" type="email" autocomplete="username" required maxLength={254} {...describedBy('password-email', errors.email)} />
      </Field>
      <Field id="password-password" label="Password" error={errors.password}>
        <input id="password-password" name="password" type="password" autocomplete="current-password" required maxLength={256} {...describedBy('password-password', errors.password)} />
      </Field>
      <button type="submit" class="primary" disabled={busy.value}>
        Sign in
      </button>
      <button type="button" class="link" onClick={() => void reset()}>
        Forgot your password?
      </button>
      {resetSent.value && <p role="status">If that address belongs to this workspace, a link to choose a new password is on its way.</p>}
      {message && (
        <p class="error" role="alert">
          {message}
        </p>
      )}
    </form>
  );
}

/** "Sign in with <provider>" when the deployment has single sign-on configured. */
function SingleSignOn() {
  const oidc = providers.value?.oidc;
  const name = oidc?.configured ? (oidc.name ?? 'single sign-on') : null;
  if (!name) return null;
  return (
    <p>
      <a class="button primary" href="/api/auth/oidc/start">
        Sign in with {name}
      </a>
    </p>
  );
}

function SignInForms() {
  rememberNext();
  useEffect(loadProviders, []);
  const challenge = useSignal<string | null>(null);
  // The code step replaces the sign-in forms: nothing of them is left to type into or tab through.
  if (challenge.value) return <SecondFactor challenge={challenge.value} then={() => location.replace(nextPath())} />;
  return (
    <section class="card narrow" aria-labelledby="sign-in-heading">
      <h1 id="sign-in-heading">Sign in to {providers.value?.workspace.name ?? 'timetrack'}</h1>
      <SingleSignOn />
      <EmailLink />
      <Password onChallenge={(code) => (challenge.value = code)} />
    </section>
  );
}

export function SignInPage() {
  return currentPath.value === '/auth/one-time' ? <RedeemLink /> : <SignInForms />;
}
