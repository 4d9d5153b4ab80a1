import { signal } from '@preact/signals';
import { api, goToSignIn, type User, whenSignedOut } from '../api/client.js';
import { loadOrganization } from './organization.js';
import { loadPreferences } from './preferences.js';
import { loadProjects } from './projects.js';
import { enrolmentRequired } from './two-factor.js';

/** Who is signed in, in this workspace: their user's id, email and workspace role. */
export type Me = Pick<User, 'id' | 'email' | 'role'>;

/** The signed-in person; null until loaded, and once signed out. Pages are drawn only with it. */
export const me = signal<Me | null>(null);
/** This workspace's domain (the first label of its address). */
export const workspaceDomain = signal<string | null>(null);

whenSignedOut(() => {
  me.value = null;
  goToSignIn();
});

/**
 * Who the session is (GET /auth answers the user's id and role in this workspace), then their
 * preferences, the organization and their projects; false when there is no session.
 */
export async function loadSession(): Promise<boolean> {
  const auth = await api.GET('/auth');
  if (!auth.data) return false;
  const { userId, email, role, domain } = auth.data;
  const [refused] = await Promise.all([loadPreferences(userId), loadOrganization(), loadProjects()]);
  // The workspace requires two-factor codes and the person has none: only enrolment is open (docs/web-app.md).
  enrolmentRequired.value = refused?.code === 'two-factor-required';
  workspaceDomain.value = domain;
  me.value = { id: userId, email, role };
  return true;
}

/** Ends this browser's session and goes to the sign-in page. */
export async function signOut(): Promise<void> {
  await api.POST('/auth/sign-out');
  me.value = null;
  location.assign('/sign-in');
}
