import { signal } from '@preact/signals';
import { api, type Problem, type Schemas } from '../api/client.js';

export type AccountSession = Schemas['Session'];

/** Where the person's account is signed in (this browser among them); never their tokens. */
export const accountSessions = signal<AccountSession[]>([]);

/** Loads the sessions; the API's problem when it refuses. */
export async function loadAccountSessions(): Promise<Problem | undefined> {
  const answer = await api.GET('/auth/sessions');
  if (answer.data) accountSessions.value = Object.values(answer.data);
  return answer.error;
}

/** Ends sessions one after another (each signs that browser out at once), then reloads the list: its problem, if any. */
export async function endAccountSessions(sessionIds: string[]): Promise<Problem | undefined> {
  for (const sessionId of sessionIds) await api.DELETE('/auth/sessions/{sessionId}', { params: { path: { sessionId } } });
  return loadAccountSessions();
}

/** Changes the account's password, which signs it out everywhere else. */
export function changePassword(body: Schemas['SetPasswordBody']) {
  return api.PUT('/auth/password', { body });
}
