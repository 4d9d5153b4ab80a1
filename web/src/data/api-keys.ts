import { signal } from '@preact/signals';
import { api, type Schemas } from '../api/client.js';

export type ApiKey = Schemas['ApiKey'];

/** The person's API keys in this workspace (never their secrets), oldest first. */
export const apiKeys = signal<ApiKey[]>([]);

export async function loadApiKeys(): Promise<void> {
  const answer = await api.GET('/api-keys');
  if (answer.data) apiKeys.value = Object.values(answer.data);
}

/** Creates a key: the answer holds its secret, this once. */
export async function createApiKey(name: string) {
  const answer = await api.POST('/api-keys', { body: { name } });
  await loadApiKeys();
  return answer;
}

export async function revokeApiKey(apiKeyId: string) {
  const answer = await api.DELETE('/api-keys/{apiKeyId}', { params: { path: { apiKeyId } } });
  await loadApiKeys();
  return answer;
}
