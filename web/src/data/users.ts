import { signal } from '@preact/signals';
import { api, type Schemas, type User } from '../api/client.js';
import { dropById, keepById } from './by-id.js';

/**
 * The workspace's users by id (everyone may read the directory), for names beside ids: the whole
 * directory once a page lists people, or just the users a page asked for one by one.
 */
export const directory = signal<Record<string, User>>({});

export async function loadDirectory(): Promise<void> {
  const answer = await api.GET('/users');
  if (answer.data) directory.value = answer.data;
}

/** One user (the person's own record, for the profile), without downloading the directory. */
export async function loadUser(userId: string): Promise<void> {
  const answer = await api.GET('/users/{userId}', { params: { path: { userId } } });
  if (answer.data) keepById(directory, answer.data);
}

/** A user's name (or email), or a plain note when the user is gone. */
export function userLabel(userId: string | null | undefined): string {
  if (!userId) return 'someone no longer in the workspace';
  const user = directory.value[userId];
  return user ? user.name || user.email : 'someone no longer in the workspace';
}

/** Invites by email (mailed): a new user, or the same user again when the email is already here. */
export async function inviteUser(body: Schemas['InviteUserBody']) {
  const answer = await api.POST('/users', { body });
  if (answer.data) keepById(directory, answer.data);
  return answer;
}

export async function updateUser(userId: string, body: Schemas['UpdateUserBody']) {
  const answer = await api.PUT('/users/{userId}', { params: { path: { userId } }, body });
  if (answer.data) keepById(directory, answer.data);
  return answer;
}

/** Deletes a user from the workspace for good (their account stays). */
export async function deleteUser(userId: string) {
  const answer = await api.DELETE('/users/{userId}', { params: { path: { userId } } });
  if (!answer.error) {
    dropById(directory, userId);
  }
  return answer;
}
