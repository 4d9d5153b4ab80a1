import { computed, signal } from '@preact/signals';
import { api, goToSignIn, type Organization, type Preferences, type Project, type User, whenSignedOut } from '../api/client.js';
import { makeFormats } from './format.js';

/** Who is signed in, in this workspace, and what the pages share. Null until loaded. */
export const me = signal<User | null>(null);
export const preferences = signal<Preferences | null>(null);
export const organization = signal<Organization | null>(null);
export const projects = signal<Record<string, Project>>({});
export const formats = computed(() => makeFormats(preferences.value));

/** Another tab of this workspace changed something: pages reload what they show. */
export const changes = signal(0);
const channel = 'BroadcastChannel' in window ? new BroadcastChannel('timetrack') : null;
if (channel) channel.onmessage = () => changes.value++;
/** Tells the other tabs that this one wrote something (and reloads this one's views). */
export function announceChange(): void {
  channel?.postMessage('changed');
  changes.value++;
}
addEventListener('focus', () => changes.value++);

whenSignedOut(() => {
  me.value = null;
  goToSignIn();
});

/** Loads the session's person, preferences, workspace and projects; false when there is no session. */
export async function loadSession(): Promise<boolean> {
  const auth = await api.GET('/auth');
  if (!auth.data) return false;
  const email = auth.data.email.toLowerCase();
  const [users, org, list] = await Promise.all([api.GET('/users'), api.GET('/organization'), api.GET('/projects')]);
  const found = Object.values(users.data ?? {}).find((user) => user.email.toLowerCase() === email) ?? null;
  if (!found) return false;
  const prefs = await api.GET('/users/{userId}/preferences', { params: { path: { userId: found.id } } });
  preferences.value = prefs.data ?? null;
  organization.value = org.data ?? null;
  projects.value = list.data ?? {};
  me.value = found;
  return true;
}

export async function reloadProjects(): Promise<void> {
  const list = await api.GET('/projects');
  if (list.data) projects.value = list.data;
}
