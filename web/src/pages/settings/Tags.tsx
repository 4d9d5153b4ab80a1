import { useSignal, useSignalEffect } from '@preact/signals';
import { fieldErrors, problemMessage, type Problem, type Tag } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { showToast } from '../../components/Toast.js';
import { changes } from '../../data/changes.js';
import { formats } from '../../data/preferences.js';
import { entriesByTag, type TagUsage } from '../../data/tag-usage.js';
import { createTag, deleteTag, loadTags, tags, updateTag } from '../../data/tags.js';
import { Confirm } from '../manage/Confirm.js';

/** The entries per tag: counted, still being counted (null), or not countable ('failed'). */
type Counted = TagUsage | null | 'failed';

/** "On 3 entries (4:30)", from the usage counted by the report by tag. */
function usageText(usage: Counted, tagId: string): string {
  if (usage === null) return 'Counting entries…';
  if (usage === 'failed') return 'Entries not counted';
  const used = usage[tagId];
  if (!used) return 'On no entry';
  return `On ${used.entries} ${used.entries === 1 ? 'entry' : 'entries'} (${formats.value.duration(used.seconds * 1000)})`;
}

/** The name's message: a field problem at /body/name, or the 409 of a name taken regardless of case. */
const nameErrorOf = (problem?: Problem) => fieldErrors(problem).name ?? (problem?.status === 409 ? problem.detail : undefined);

/** What deleting does to the tag's entries, as far as they were counted. */
function comesOff(usage: Counted, tagId: string): string {
  if (usage === null || usage === 'failed') return 'It comes off every entry that carries it; their time is kept.';
  const used = usage[tagId]?.entries ?? 0;
  if (used === 0) return 'No entry carries it.';
  return `It comes off the ${used === 1 ? 'entry' : `${used} entries`} that carry it; their time is kept.`;
}

function TagRow({ tag, usage }: { tag: Tag; usage: Counted }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const deleting = useSignal(false);
  const id = `tag-${tag.id}`;
  const nameError = nameErrorOf(problem.value);
  const rename = async (event: Event) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get('name') ?? '').trim();
    problem.value = (await updateTag(tag.id, { name })).error;
  };
  const archive = async () => {
    const answer = await updateTag(tag.id, { archived: !tag.archived });
    problem.value = answer.error;
    if (answer.data) showToast({ text: answer.data.archived ? `${tag.name} is archived: it stays on its entries and goes on no other.` : `${tag.name} is active again.` });
  };
  const remove = async () => {
    const answer = await deleteTag(tag.id);
    deleting.value = false;
    if (answer.error) problem.value = answer.error;
    else showToast({ text: `${tag.name} is deleted; its entries keep their time.` });
  };
  return (
    <li>
      <form class="inline" onSubmit={rename} aria-label={`Tag ${tag.name}`}>
        <Field id={`${id}-name`} label="Tag name" error={nameError}>
          <input id={`${id}-name`} name="name" required maxLength={100} defaultValue={tag.name} {...describedBy(`${id}-name`, nameError)} />
        </Field>
        <span class="muted" data-testid={`usage-${tag.id}`}>
          {usageText(usage, tag.id)}
        </span>
        {tag.archived && <span class="badge">archived</span>}
        <span class="row-actions">
          <button type="submit">Rename</button>
          <button type="button" onClick={() => void archive()} aria-label={`${tag.archived ? 'Unarchive' : 'Archive'} ${tag.name}`}>
            {tag.archived ? 'Unarchive' : 'Archive'}
          </button>
          <button type="button" class="danger" onClick={() => (deleting.value = true)} aria-label={`Delete ${tag.name}…`}>
            Delete…
          </button>
        </span>
      </form>
      {problem.value && !problem.value.errors && problem.value.status !== 409 && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
      {deleting.value && (
        <Confirm label={`Delete ${tag.name}`} confirmLabel="Delete tag" onConfirm={() => void remove()} onCancel={() => (deleting.value = false)}>
          <p>
            <strong>Delete {tag.name} for good?</strong>{' '}
            {comesOff(usage, tag.id)} Archiving keeps it on its entries instead.
          </p>
        </Confirm>
      )}
    </li>
  );
}

function NewTag() {
  const problem = useSignal<Problem | undefined>(undefined);
  const nameError = nameErrorOf(problem.value);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const answer = await createTag({ name: String(new FormData(form).get('name') ?? '').trim() });
    problem.value = answer.error;
    if (answer.data) form.reset();
  };
  return (
    <form class="inline" onSubmit={submit} aria-label="Add a tag">
      <Field id="new-tag-name" label="New tag" error={nameError}>
        <input id="new-tag-name" name="name" required maxLength={100} {...describedBy('new-tag-name', nameError)} />
      </Field>
      <button type="submit" class="primary">
        Add tag
      </button>
    </form>
  );
}

/**
 * The workspace's tags (administrators rename, archive and delete them; anyone adds them while
 * tracking), each with how many entries carry it: one report by tag over all time counts them all.
 */
export function Tags() {
  const usage = useSignal<Counted>(null);
  const failed = useSignal<Problem | undefined>(undefined);
  useSignalEffect(() => {
    void changes.value;
    void loadTags();
    void entriesByTag().then((answer) => {
      usage.value = 'usage' in answer ? answer.usage : 'failed';
      failed.value = 'problem' in answer ? answer.problem : undefined;
    });
  });
  const list = Object.values(tags.value).sort((a, b) => Number(a.archived) - Number(b.archived) || a.name.localeCompare(b.name));
  return (
    <section class="card" aria-labelledby="tags-heading">
      <h2 id="tags-heading">Tags</h2>
      <p class="muted">
        Anyone tracking time adds tags to entries. An archived tag stays on the entries that carry it and goes on no new one; deleting a tag takes it off its entries, whose time is kept.
        Counts are of finished entries (running timers are not counted).
      </p>
      {failed.value && (
        <p class="error" role="alert">
          The entries could not be counted: {problemMessage(failed.value)}
        </p>
      )}
      {list.length === 0 ? (
        <p class="muted">No tags yet.</p>
      ) : (
        <ul class="requests" aria-label="Tags">
          {list.map((tag) => (
            <TagRow key={tag.id} tag={tag} usage={usage.value} />
          ))}
        </ul>
      )}
      <NewTag />
    </section>
  );
}
