import { useSignal, useSignalEffect } from '@preact/signals';
import { fieldErrors, problemMessage, type Preferences, type Problem, type User } from '../api/client.js';
import { describedBy, Field } from '../components/Field.js';
import { apiKeys, createApiKey, loadApiKeys, revokeApiKey, type ApiKey } from '../data/api-keys.js';
import { formats, preferences, savePreferences } from '../data/preferences.js';
import { me } from '../data/session.js';
import { directory, loadUser, updateUser } from '../data/users.js';
import { browserTimeZone } from '../lib/format.js';
import { AccountSecurity } from './Security.js';

type NotificationKind = keyof NonNullable<Preferences['notifications']>;
/**
 * The notifications the service sends: email only, and "a request is made" to administrators only, who
 * resolve requests. The API stores every kind and channel, but nothing else is sent (docs/web-app.md).
 */
const EMAILS: { kind: NotificationKind; label: string; forAdministrators?: true }[] = [
  { kind: 'timesheetReminder', label: 'My timesheet week is about to be locked' },
  { kind: 'requestCreated', label: 'Someone makes a request', forAdministrators: true },
  { kind: 'requestResolved', label: 'My request is approved or rejected' },
];

const timeZones = (): string[] => {
  const supported = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  return supported ? supported('timeZone') : [browserTimeZone()];
};

function Saved({ problem, saved }: { problem?: Problem; saved: boolean }) {
  if (problem && !problem.errors) return <p class="error" role="alert">{problemMessage(problem)}</p>;
  return saved ? <p role="status">Saved.</p> : null;
}

function Person({ user }: { user: User }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const saved = useSignal(false);
  const errors = fieldErrors(problem.value);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (key: string) => String(form.get(key) ?? '').trim();
    const answer = await updateUser(user.id, { name: text('name'), phone: text('phone') || null, title: text('title') || null });
    problem.value = answer.error;
    saved.value = !answer.error;
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="person-heading">
      <h2 id="person-heading">You</h2>
      <p class="muted">{user.email}</p>
      <Field id="person-name" label="Name" error={errors.name}>
        <input id="person-name" name="name" defaultValue={user.name ?? ''} maxLength={255} required autocomplete="name" {...describedBy('person-name', errors.name)} />
      </Field>
      <Field id="person-phone" label="Phone" error={errors.phone}>
        <input id="person-phone" name="phone" type="tel" defaultValue={user.phone ?? ''} autocomplete="tel" {...describedBy('person-phone', errors.phone)} />
      </Field>
      <Field id="person-title" label="Title" error={errors.title}>
        <input id="person-title" name="title" defaultValue={user.title ?? ''} autocomplete="organization-title" {...describedBy('person-title', errors.title)} />
      </Field>
      <button type="submit" class="primary">
        Save
      </button>
      <Saved problem={problem.value} saved={saved.value} />
    </form>
  );
}

function PreferencesForm() {
  const user = me.value!;
  const prefs = preferences.value ?? {};
  const problem = useSignal<Problem | undefined>(undefined);
  const saved = useSignal(false);
  const errors = fieldErrors(problem.value);
  const emails = EMAILS.filter((email) => !email.forAdministrators || user.role === 'Administrator');
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const on = (key: string) => form.get(key) === 'on';
    // Only the email flag of the kinds offered: the stored document keeps every other flag as it is (merged).
    const notifications: Record<string, { email: boolean }> = {};
    for (const { kind } of emails) notifications[kind] = { email: on(`${kind}.email`) };
    const answer = await savePreferences(user.id, {
      locale: String(form.get('locale') ?? '').trim() || null,
      timeZone: String(form.get('timeZone') ?? '') || null,
      dateTimeFormat: { clock24Hour: form.get('clock') === '24', numeric: on('numeric'), showSeconds: on('showSeconds') },
      durationFormat: { mode: String(form.get('durationMode')) as 'HOURS_MINUTES', compact: on('compact') },
      notifications,
    });
    problem.value = answer.error;
    saved.value = !answer.error;
  };
  const clock24 = prefs.dateTimeFormat?.clock24Hour ?? !new Intl.DateTimeFormat(formats.value.locale, { hour: 'numeric' }).resolvedOptions().hour12;
  return (
    <form class="card" onSubmit={submit} aria-labelledby="prefs-heading">
      <h2 id="prefs-heading">Preferences</h2>
      <Field id="pref-locale" label="Language and region (for example en-GB, de-DE)" error={errors.locale}>
        <input id="pref-locale" name="locale" defaultValue={prefs.locale ?? ''} placeholder={navigator.language} maxLength={35} {...describedBy('pref-locale', errors.locale)} />
      </Field>
      <Field id="pref-tz" label="Time zone" error={errors.timeZone}>
        <select id="pref-tz" name="timeZone" {...describedBy('pref-tz', errors.timeZone)}>
          <option value="">This device's ({browserTimeZone()})</option>
          {timeZones().map((zone) => (
            <option key={zone} value={zone} selected={zone === prefs.timeZone}>
              {zone}
            </option>
          ))}
        </select>
      </Field>
      <fieldset>
        <legend>Clock</legend>
        <span class="check">
          <input type="radio" id="clock-24" name="clock" value="24" defaultChecked={clock24} />
          <label for="clock-24">24-hour</label>
        </span>
        <span class="check">
          <input type="radio" id="clock-12" name="clock" value="12" defaultChecked={!clock24} />
          <label for="clock-12">12-hour</label>
        </span>
        <span class="check">
          <input type="checkbox" id="pref-numeric" name="numeric" defaultChecked={prefs.dateTimeFormat?.numeric ?? false} />
          <label for="pref-numeric">Numeric dates</label>
        </span>
        <span class="check">
          <input type="checkbox" id="pref-seconds" name="showSeconds" defaultChecked={prefs.dateTimeFormat?.showSeconds ?? false} />
          <label for="pref-seconds">Show seconds</label>
        </span>
      </fieldset>
      <Field id="pref-duration" label="Durations">
        <select id="pref-duration" name="durationMode">
          {(
            [
              ['HOURS_MINUTES', 'Hours and minutes (1:30)'],
              ['HOURS_MINUTES_SECONDS', 'Hours, minutes and seconds (1:30:00)'],
              ['DECIMAL', 'Decimal hours (1.50 h)'],
            ] as const
          ).map(([value, label]) => (
            <option key={value} value={value} selected={(prefs.durationFormat?.mode ?? 'HOURS_MINUTES') === value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <span class="check">
        <input type="checkbox" id="pref-compact" name="compact" defaultChecked={prefs.durationFormat?.compact ?? false} />
        <label for="pref-compact">Compact durations (1h 30m)</label>
      </span>
      <fieldset class="stacked">
        <legend>Email me when</legend>
        {emails.map(({ kind, label }) => (
          <span class="check" key={kind}>
            <input type="checkbox" id={`notify-${kind}`} name={`${kind}.email`} defaultChecked={prefs.notifications?.[kind]?.email ?? true} />
            <label for={`notify-${kind}`}>{label}</label>
          </span>
        ))}
      </fieldset>
      <button type="submit" class="primary">
        Save preferences
      </button>
      <Saved problem={problem.value} saved={saved.value} />
    </form>
  );
}

function ApiKeys() {
  const created = useSignal<{ name: string; key: string } | null>(null);
  const problem = useSignal<Problem | undefined>(undefined);
  const copied = useSignal(false);
  useSignalEffect(() => {
    void loadApiKeys();
  });
  const errors = fieldErrors(problem.value);
  const create = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const name = String(new FormData(form).get('name') ?? '').trim();
    const answer = await createApiKey(name);
    problem.value = answer.error;
    if (answer.data) {
      created.value = { name: answer.data.name, key: answer.data.key };
      copied.value = false;
      form.reset();
    }
  };
  const revoke = async (key: ApiKey) => {
    const answer = await revokeApiKey(key.id);
    problem.value = answer.error;
    if (created.value?.name === key.name) created.value = null;
  };
  const copy = async () => {
    await navigator.clipboard.writeText(created.value!.key);
    copied.value = true;
  };
  return (
    <section class="card" aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      <form onSubmit={create} class="inline">
        <Field id="key-name" label="New key's name" error={errors.name}>
          <input id="key-name" name="name" required maxLength={255} {...describedBy('key-name', errors.name)} />
        </Field>
        <button type="submit" class="primary">
          Create key
        </button>
      </form>
      {created.value && (
        <div class="secret" role="status">
          <p>
            Your new key <strong>{created.value.name}</strong>. Copy it now: it is shown only this once.
          </p>
          <code data-testid="new-api-key">{created.value.key}</code>{' '}
          <button type="button" onClick={() => void copy()}>
            {copied.value ? 'Copied' : 'Copy'}
          </button>
        </div>
      )}
      {problem.value && !problem.value.errors && <p class="error" role="alert">{problemMessage(problem.value)}</p>}
      {apiKeys.value.length === 0 ? (
        <p class="muted">No API keys.</p>
      ) : (
        <ul class="keys">
          {apiKeys.value.map((key) => (
            <li key={key.id}>
              <span>
                <strong>{key.name}</strong> <code>{key.prefix}…</code>
              </span>
              <span class="muted">
                created {formats.value.dateTime(key.createdAt)} · {key.lastUsedAt ? `last used ${formats.value.dateTime(key.lastUsedAt)}` : 'never used'}
              </span>
              <button type="button" class="danger" onClick={() => void revoke(key)} aria-label={`Revoke ${key.name}`}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ProfilePage() {
  const myId = me.value!.id;
  useSignalEffect(() => {
    void loadUser(myId);
  });
  // The person's own record (name, phone, title) comes with the page: signing in loads no user record.
  const myself = directory.value[myId];
  return (
    <>
      <h1>Profile</h1>
      {myself && <Person user={myself} />}
      <PreferencesForm />
      <AccountSecurity />
      <ApiKeys />
    </>
  );
}
