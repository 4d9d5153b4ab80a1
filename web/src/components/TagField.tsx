import { useSignal } from '@preact/signals';
import { fieldErrors, problemMessage } from '../api/client.js';
import { formats } from '../data/preferences.js';
import { addTagNamed, tags } from '../data/tags.js';
import { holds, sameName } from '../lib/search.js';
import { Combobox, type Choice } from './Combobox.js';

interface Props {
  id: string;
  label: string;
  tagIds: readonly string[];
  /** Called with the new list of tags (one added at the end, or one taken out). */
  onChange(tagIds: string[]): void;
  disabled?: boolean;
  error?: string;
  hiddenLabel?: boolean;
}

/** The value of the list's "Create tag" entry (no tag id is empty). */
const CREATE = '';

/**
 * The tags of an activity (docs/web-app.md "Pickers"): a field searching the unarchived tags it has
 * not, and beneath it those it has, each with a button taking it off. Enter takes the highlighted tag; on a
 * name no tag has, it creates the tag and adds it (anyone may create tags: docs/rules.md §6 Tags).
 * An archived tag the activity carries stays listed, marked, and is offered to no other.
 */
export function TagField({ id, label, tagIds, onChange, disabled, error, hiddenLabel }: Props) {
  const problem = useSignal<string | null>(null);
  const busy = useSignal(false);
  const all = Object.values(tags.value);
  const carried = tagIds.map((tagId) => tags.value[tagId]).filter((tag) => tag !== undefined);
  const sameAs = (query: string) => all.find((tag) => sameName(tag.name, query));

  const choicesFor = (query: string): Choice[] => {
    const offered = all
      .filter((tag) => !tag.archived && !tagIds.includes(tag.id) && holds(tag.name, query))
      .sort((a, b) => a.name.localeCompare(b.name, formats.value.locale))
      .map((tag) => ({ value: tag.id, label: tag.name }));
    return query.trim() !== '' && !sameAs(query) ? [{ value: CREATE, label: `Create tag “${query.trim()}”` }, ...offered] : offered;
  };
  const preferred = (query: string, choices: Choice[]) => {
    if (query.trim() === '') return 0;
    const same = sameAs(query);
    return choices.findIndex((choice) => (same ? choice.value === same.id : choice.value === CREATE));
  };
  const nothingFor = (query: string) => {
    const same = sameAs(query);
    if (same?.archived) return `“${same.name}” is an archived tag: it goes on no other entry.`;
    if (same) return `“${same.name}” is on it already.`;
    return `${all.length === 0 ? 'No tags yet' : 'No other tag'}: type a name and press Enter to create one.`;
  };
  const remove = (tagId: string) => {
    onChange(tagIds.filter((other) => other !== tagId));
    // The button goes with its tag: the focus stays in the field rather than falling to the page.
    document.getElementById(id)?.focus();
  };
  const pick = async (choice: Choice, typed: string) => {
    problem.value = null;
    if (choice.value !== CREATE) return onChange([...tagIds, choice.value]);
    if (busy.value) return;
    busy.value = true;
    const added = await addTagNamed(typed.trim());
    busy.value = false;
    if ('tag' in added) {
      if (added.tag.archived) problem.value = nothingFor(typed);
      else if (!tagIds.includes(added.tag.id)) onChange([...tagIds, added.tag.id]);
    } else problem.value = fieldErrors(added.problem).name ?? problemMessage(added.problem);
  };

  const message = problem.value ?? error;
  return (
    <div class="tag-field">
      <Combobox
        id={id}
        label={label}
        hiddenLabel={hiddenLabel}
        text=""
        placeholder={disabled ? undefined : 'Add tags'}
        disabled={disabled}
        error={message ?? undefined}
        listLabel="Tags to add"
        choicesFor={choicesFor}
        preferred={preferred}
        nothingFor={nothingFor}
        onPick={(choice, typed) => void pick(choice, typed)}
      />
      {carried.length > 0 && (
        <ul class="chips" aria-label={`${label}: chosen`}>
          {carried.map((tag) => (
            <li key={tag.id} class={tag.archived ? 'chip archived' : 'chip'}>
              {tag.name}
              {tag.archived && <span class="muted"> (archived)</span>}
              {!disabled && (
                <button type="button" class="chip-remove" aria-label={`Remove tag “${tag.name}”`} onClick={() => remove(tag.id)}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
