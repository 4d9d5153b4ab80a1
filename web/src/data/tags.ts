import { signal } from '@preact/signals';
import { api, type Problem, type Schemas, type Tag } from '../api/client.js';
import { sameName } from '../lib/search.js';
import { dropById, keepById } from './by-id.js';
import { announceChange } from './changes.js';

/** Every tag of the workspace, archived ones included, by id. */
export const tags = signal<Record<string, Tag>>({});

export async function loadTags(): Promise<void> {
  const answer = await api.GET('/tags');
  if (answer.data) tags.value = answer.data;
}

/** Anyone may create a tag (the tag field does, on Enter after a new name). */
export async function createTag(body: Schemas['CreateTagBody']) {
  const answer = await api.POST('/tags', { body });
  if (answer.data) {
    keepById(tags, answer.data);
    announceChange();
  }
  return answer;
}

/**
 * The tag of this name, created unless one has it (the tag field's Enter on a new name). A name taken
 * meanwhile (409: another tab, another person) answers the tag that holds it, archived or not.
 */
export async function addTagNamed(name: string): Promise<{ tag: Tag } | { problem: Problem }> {
  const answer = await createTag({ name });
  if (answer.data) return { tag: answer.data };
  if (answer.error.status === 409) {
    await loadTags();
    const taken = Object.values(tags.value).find((tag) => sameName(tag.name, name));
    if (taken) return { tag: taken };
  }
  return { problem: answer.error };
}

/** Renaming and archiving are for administrators. */
export async function updateTag(tagId: string, body: Schemas['UpdateTagBody']) {
  const answer = await api.PUT('/tags/{tagId}', { params: { path: { tagId } }, body });
  if (answer.data) {
    keepById(tags, answer.data);
    announceChange();
  }
  return answer;
}

/** Deletes a tag for good: it leaves every activity that carried it. */
export async function deleteTag(tagId: string) {
  const answer = await api.DELETE('/tags/{tagId}', { params: { path: { tagId } } });
  if (!answer.error) {
    dropById(tags, tagId);
    announceChange();
  }
  return answer;
}
