import { signal } from '@preact/signals';
import { api, type Problem, type Schemas } from '../api/client.js';

export interface SignInPolicy {
  twoFactorRequired: boolean;
  invitationDomains: string[];
}

/** The workspace's sign-in policy (administrators): two-factor codes required, the domains that may join through single sign-on. */
export const signInPolicy = signal<SignInPolicy | null>(null);

/** Loads the policy; the API's problem when it refuses. */
export async function loadSignInPolicy(): Promise<Problem | undefined> {
  const answer = await api.GET('/auth/settings');
  if (answer.data) signInPolicy.value = answer.data;
  return answer.error;
}

export async function saveSignInPolicy(body: Schemas['UpdateSignInSettingsBody']) {
  const answer = await api.PUT('/auth/settings', { body });
  if (answer.data) signInPolicy.value = answer.data;
  return answer;
}
