import { useSignal, useSignalEffect } from '@preact/signals';
import { problemMessage, type Problem } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { loadSignInPolicy, saveSignInPolicy, signInPolicy } from '../../data/sign-in-policy.js';

/** The message of a problem at the invitation domains (`/body/invitationDomains/<i>`), naming the line. */
function domainError(problem: Problem | undefined, sent: string[]): string | undefined {
  const error = problem?.errors?.find((e) => e.pointer.startsWith('/body/invitationDomains'));
  if (!error) return undefined;
  const index = Number(error.pointer.split('/')[3]);
  return Number.isInteger(index) && sent[index] !== undefined ? `${sent[index]}: ${error.message}` : error.message;
}

/**
 * The sign-in policy (administrators): two-factor codes required of everyone signing in, and the
 * email domains whose people may join through single sign-on (GET/PUT /auth/settings).
 */
export function SignInPolicy() {
  const problem = useSignal<Problem | undefined>(undefined);
  const sent = useSignal<string[]>([]);
  const saved = useSignal(false);
  useSignalEffect(() => {
    void loadSignInPolicy().then((refused) => {
      if (refused) problem.value = refused;
    });
  });
  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const domains = String(data.get('domains') ?? '')
      .split(/[\n,]+/)
      .map((line) => line.trim())
      .filter(Boolean);
    sent.value = domains;
    const answer = await saveSignInPolicy({ twoFactorRequired: data.get('twoFactorRequired') === 'on', invitationDomains: domains });
    problem.value = answer.error;
    saved.value = !answer.error;
  };
  const current = signInPolicy.value;
  const domainsError = domainError(problem.value, sent.value);
  return (
    <form class="card" onSubmit={submit} aria-labelledby="sign-in-policy-heading">
      <h2 id="sign-in-policy-heading">Sign-in policy</h2>
      {current && (
        <>
          <span class="check">
            <input type="checkbox" id="policy-two-factor" name="twoFactorRequired" defaultChecked={current.twoFactorRequired} aria-describedby="policy-two-factor-hint" />
            <label for="policy-two-factor">Two-factor codes required</label>
          </span>
          <p id="policy-two-factor-hint" class="muted">
            Everyone signing in must then have two-factor codes on; someone without them (you too) can only set them up until they do. API keys keep working.
          </p>
          <Field id="policy-domains" label="Email domains that may join through single sign-on (one per line)" error={domainsError}>
            <textarea id="policy-domains" name="domains" rows={3} defaultValue={current.invitationDomains.join('\n')} {...describedBy('policy-domains', domainsError)} />
          </Field>
          <button type="submit" class="primary">
            Save sign-in policy
          </button>
        </>
      )}
      {problem.value && !problem.value.errors && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
      {saved.value && <p role="status">Saved.</p>}
    </form>
  );
}
