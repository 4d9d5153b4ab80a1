import { computed, signal } from '@preact/signals';
import { api, type Preferences, type Problem, type Schemas } from '../api/client.js';
import { makeFormats } from '../lib/format.js';

/** The signed-in person's preferences; null until loaded (the browser's defaults meanwhile). */
export const preferences = signal<Preferences | null>(null);

/** Every date, time and duration the pages show, by the person's preferences. */
export const formats = computed(() => makeFormats(preferences.value));

export async function loadPreferences(userId: string): Promise<Problem | undefined> {
  const answer = await api.GET('/users/{userId}/preferences', { params: { path: { userId } } });
  preferences.value = answer.data ?? null;
  return answer.error;
}

/** Saves part of the preferences (deep-merged by the API); the stored document comes back and is kept. */
export async function savePreferences(userId: string, body: Schemas['UpdateUserPreferencesBody']) {
  const answer = await api.PUT('/users/{userId}/preferences', { params: { path: { userId } }, body });
  if (answer.data) preferences.value = answer.data;
  return answer;
}
