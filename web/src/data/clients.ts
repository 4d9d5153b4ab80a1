import { signal } from '@preact/signals';
import { api, type Client, type Schemas } from '../api/client.js';
import { dropById, keepById } from './by-id.js';
import { announceChange } from './changes.js';

/** The clients the person may see (administrators: all; a User: those of their projects), by id. */
export const clients = signal<Record<string, Client>>({});

export async function loadClients(): Promise<void> {
  const answer = await api.GET('/clients');
  if (answer.data) clients.value = answer.data;
}

export async function createClient(body: Schemas['CreateClientBody']) {
  const answer = await api.POST('/clients', { body });
  if (answer.data) {
    keepById(clients, answer.data);
    announceChange();
  }
  return answer;
}

export async function updateClient(clientId: string, body: Schemas['UpdateClientBody']) {
  const answer = await api.PUT('/clients/{clientId}', { params: { path: { clientId } }, body });
  if (answer.data) {
    keepById(clients, answer.data);
    announceChange();
  }
  return answer;
}

/** Deletes a client: 409 while it still has projects (archive it, or move its projects first). */
export async function deleteClient(clientId: string) {
  const answer = await api.DELETE('/clients/{clientId}', { params: { path: { clientId } } });
  if (!answer.error) {
    dropById(clients, clientId);
    announceChange();
  }
  return answer;
}
