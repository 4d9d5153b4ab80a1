import { useSignal, useSignalEffect } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { fieldErrors, problemMessage, type Problem } from '../api/client.js';
import { describedBy, Field } from '../components/Field.js';
import { signOut } from '../data/session.js';
import { confirmEnrolment, loadTwoFactor, proofOf, renewRecoveryCodes, startEnrolment, turnOffTwoFactor, twoFactor } from '../data/two-factor.js';

/*
 * Two-factor codes (docs/web-app.md, "Two-factor codes"): enrolment (QR code, the secret as text,
 * a confirming code, the ten recovery codes shown once), new recovery codes, turning them off.
 */

const SIX_DIGITS = /^\d{6}$/;
const WRONG_CODE = 'That code is wrong or already used.';

/** The secret in groups of four, as authenticator apps show a key typed by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** What a refused code is told: the field's message in words, or the problem's. */
function codeRefusal(problem: Problem | undefined): { field?: string; message?: string } {
  if (!problem) return {};
  const errors = fieldErrors(problem);
  if (errors.code || errors.recoveryCode) return { field: WRONG_CODE };
  return { message: problemMessage(problem) };
}

/** The ten recovery codes, shown this once, to copy or download. */
export function RecoveryCodes({ codes, done, doneLabel }: { codes: string[]; done: () => void; doneLabel: string }) {
  const copied = useSignal(false);
  const copy = async () => {
    await navigator.clipboard.writeText(codes.join('\n'));
    copied.value = true;
  };
  const download = () => {
    const link = document.createElement('a');
    link.href = `data:text/plain;charset=utf-8,${encodeURIComponent(codes.join('\n') + '\n')}`;
    link.download = 'timetrack-recovery-codes.txt';
    link.click();
  };
  return (
    <div class="secret" aria-labelledby="recovery-codes-heading" role="region">
      <h2 id="recovery-codes-heading">Your recovery codes</h2>
      <p>Each one signs you in once instead of a code, should you lose your phone. Keep them somewhere safe: they are shown only this once.</p>
      <ol class="recovery-codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <p class="inline">
        <button type="button" onClick={() => void copy()}>
          {copied.value ? 'Copied' : 'Copy codes'}
        </button>
        <button type="button" onClick={download}>
          Download codes
        </button>
        <button type="button" class="primary" onClick={done}>
          {doneLabel}
        </button>
      </p>
    </div>
  );
}

/**
 * An enrolment from its start: a new secret (the QR code and the key as text), then a current code
 * turns the codes on and the recovery codes are shown once; `done` follows them.
 */
export function Enrolment({ done, doneLabel }: { done: () => void; doneLabel: string }) {
  const enrolment = useSignal<{ secret: string; qrSvg: string } | null>(null);
  const problem = useSignal<Problem | undefined>(undefined);
  const typed = useSignal<string | null>(null);
  const codes = useSignal<string[] | null>(null);
  useEffect(() => {
    void startEnrolment().then((answer) => {
      if (answer.data) enrolment.value = answer.data;
      problem.value = answer.error;
    });
  }, []);
  const submit = async (event: Event) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget as HTMLFormElement).get('code') ?? '').replace(/\s/g, '');
    typed.value = SIX_DIGITS.test(code) ? null : 'Type the six digits your authenticator app shows.';
    if (typed.value) return;
    const answer = await confirmEnrolment(code);
    problem.value = answer.error;
    if (answer.data) codes.value = answer.data.recoveryCodes;
  };
  if (codes.value) return <RecoveryCodes codes={codes.value} done={done} doneLabel={doneLabel} />;
  const refusal = codeRefusal(problem.value);
  const error = typed.value ?? (refusal.field ? 'That code is not the current one: type the code your app shows now.' : undefined);
  const qr = enrolment.value && `data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.value.qrSvg)}`;
  return (
    <div class="enrolment">
      {enrolment.value && qr && (
        <>
          <p>1. Scan this QR code with an authenticator app (such as Google Authenticator, 1Password or Aegis).</p>
          <img class="qr" src={qr} width={200} height={200} alt="QR code to add timetrack to your authenticator app" />
          <p>
            Or type this key into the app: <code data-testid="two-factor-secret">{grouped(enrolment.value.secret)}</code>
          </p>
          <form onSubmit={(event) => void submit(event)} class="stack" aria-label="Confirm two-factor codes">
            <Field id="enrol-code" label="2. Type the six-digit code the app shows" error={error}>
              <input id="enrol-code" name="code" autocomplete="one-time-code" inputMode="numeric" required maxLength={7} {...describedBy('enrol-code', error)} />
            </Field>
            <button type="submit" class="primary">
              Turn on two-factor codes
            </button>
          </form>
        </>
      )}
      {refusal.message && (
        <p class="error" role="alert">
          {refusal.message}
        </p>
      )}
    </div>
  );
}

/**
 * The app of a person the workspace requires two-factor codes of, while they have none: the API
 * answers nothing else, so enrolment is all there is until the codes are on; then the app loads.
 */
export function EnrolFirstPage() {
  return (
    <>
      <header class="top">
        <span class="brand">timetrack</span>
        <button type="button" class="link" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <section class="card" aria-labelledby="enrol-heading">
          <h1 id="enrol-heading">Set up two-factor codes</h1>
          <p>This workspace requires a code from an authenticator app each time you sign in. Set it up to continue.</p>
          <Enrolment done={() => location.reload()} doneLabel="Continue to timetrack" />
        </section>
      </main>
    </>
  );
}

/** Profile → Security: the person's two-factor codes (on or off), new recovery codes, turning them off. */
export function TwoFactorSettings() {
  const problem = useSignal<Problem | undefined>(undefined);
  const enrolling = useSignal(false);
  const renewed = useSignal<string[] | null>(null);
  const turnedOff = useSignal(false);
  useSignalEffect(() => {
    void loadTwoFactor().then((refused) => (problem.value = refused));
  });
  const act = async (form: HTMLFormElement, action: 'renew' | 'off') => {
    if (!form.reportValidity()) return;
    const typed = String(new FormData(form).get('proof') ?? '').trim();
    turnedOff.value = false;
    if (action === 'renew') {
      const answer = await renewRecoveryCodes(proofOf(typed));
      problem.value = answer.error;
      if (answer.data) renewed.value = answer.data.recoveryCodes;
    } else {
      const answer = await turnOffTwoFactor(proofOf(typed));
      problem.value = answer.error;
      turnedOff.value = !answer.error;
    }
    if (!problem.value) form.reset();
  };
  const state = twoFactor.value;
  const refusal = codeRefusal(problem.value);
  const error = refusal.field;
  return (
    <section class="card" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-factor codes</h2>
      {enrolling.value ? (
        <Enrolment done={() => (enrolling.value = false)} doneLabel="Done" />
      ) : renewed.value ? (
        <RecoveryCodes codes={renewed.value} done={() => (renewed.value = null)} doneLabel="Done" />
      ) : state?.enabled ? (
        <>
          <p>
            On: signing in asks for a code from your authenticator app. {state.recoveryCodesLeft} of 10 recovery codes left.
          </p>
          <form class="stack" aria-label="Change two-factor codes" onSubmit={(event) => (event.preventDefault(), void act(event.currentTarget, 'renew'))}>
            <Field id="two-factor-proof" label="Code from your authenticator app, or a recovery code" error={error}>
              <input id="two-factor-proof" name="proof" autocomplete="one-time-code" required maxLength={40} {...describedBy('two-factor-proof', error)} />
            </Field>
            <p class="inline">
              <button type="submit">New recovery codes</button>
              {!state.requiredByWorkspace && (
                <button type="button" class="danger" onClick={(event) => void act((event.currentTarget as HTMLButtonElement).form!, 'off')}>
                  Turn off two-factor codes
                </button>
              )}
            </p>
          </form>
          {state.requiredByWorkspace && <p class="muted">This workspace requires two-factor codes, so they cannot be turned off.</p>}
        </>
      ) : (
        state && (
          <>
            {turnedOff.value && <p role="status">Two-factor codes are now off.</p>}
            <p>Off: signing in asks only for your password or a mailed link.</p>
            <button type="button" class="primary" onClick={() => (enrolling.value = true)}>
              Set up two-factor codes
            </button>
          </>
        )
      )}
      {refusal.message && !enrolling.value && (
        <p class="error" role="alert">
          {refusal.message}
        </p>
      )}
    </section>
  );
}
