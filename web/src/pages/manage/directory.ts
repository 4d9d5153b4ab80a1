import { signal } from '@preact/signals';
import { api, type User } from '../../api/client.js';

/** The workspace's users by id (everyone may read the directory), for names beside ids. */
export const directory = signal<Record<string, User>>({});

export async function loadDirectory(): Promise<void> {
  const answer = await api.GET('/users');
  if (answer.data) directory.value = answer.data;
}

/** A user's name (or email), or a plain note when the user is gone. */
export function userLabel(userId: string | null | undefined): string {
  if (!userId) return 'someone no longer in the workspace';
  const user = directory.value[userId];
  return user ? user.name || user.email : 'someone no longer in the workspace';
}
