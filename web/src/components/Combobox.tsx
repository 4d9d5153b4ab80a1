import { useSignal } from '@preact/signals';
import type { ComponentChildren, JSX } from 'preact';
import { useEffect } from 'preact/hooks';

/** One entry of a combobox's list. */
export interface Choice {
  /** What onPick receives ('' for the "none" entry of a picker). */
  value: string;
  label: string;
  /** The heading it is listed under: consecutive choices of one group share it. */
  group?: { key: string; label: string };
}

interface Props {
  id: string;
  label: string;
  /** Shown only to screen readers when the label would repeat what is on screen. */
  hiddenLabel?: boolean;
  /** What the field shows while nobody types in it. */
  text: string;
  /** The choice the field holds, which the list opens at. */
  value?: string;
  placeholder?: string;
  disabled?: boolean;
  error?: string;
  /** Ids of further descriptions of the field (a project's client). */
  describedBy?: string;
  /** The list's name for screen readers ("Projects"). */
  listLabel: string;
  /** The choices for what is typed ('' when nothing is: the whole list). */
  choicesFor(query: string): Choice[];
  /** Which of the choices Enter takes before an arrow key moves (-1: none); the first unless told. */
  preferred?(query: string, choices: Choice[]): number;
  /** What the field says when no choice is left for the query. */
  nothingFor(query: string): string;
  onPick(choice: Choice, typed: string): void;
  /** The field left (Tab, a click elsewhere, Enter with the list closed) with `typed` in it. */
  onLeave?(typed: string): void;
  children?: ComponentChildren;
}

/**
 * A text field with a list that narrows as the person types (the ARIA combobox pattern with a
 * listbox popup): ArrowDown and ArrowUp open the list and move through it, Enter takes the
 * highlighted choice (with none, what is typed stays and the field says nothing matches it, and the
 * form is not sent), Escape closes the list and then puts back what the field held. The field keeps
 * what is typed until a choice is taken or the field is left: the page drawing again meanwhile does
 * not erase it (docs/web-app.md "What is typed stays typed").
 */
export function Combobox(props: Props) {
  const { id, label, hiddenLabel, text, placeholder, disabled, error, listLabel } = props;
  const typed = useSignal<string | null>(null);
  const open = useSignal(false);
  const active = useSignal(-1);
  const query = typed.value ?? '';
  const choices = open.value ? props.choicesFor(query) : [];
  const shown = open.value && choices.length > 0;
  const optionId = (index: number) => `${id}-option-${index}`;

  useEffect(() => {
    if (shown && active.value >= 0) document.getElementById(optionId(active.value))?.scrollIntoView({ block: 'nearest' });
  }, [shown, active.value]);

  const preferred = (q: string, list: Choice[]) => (props.preferred ? props.preferred(q, list) : list.length > 0 ? 0 : -1);
  /** Where the list opens: at the choice the field holds, or (while typing) the one Enter would take. */
  const opening = (list: Choice[]) => Math.max(0, typed.value === null ? list.findIndex((c) => c.value === props.value) : preferred(query, list));
  const openAt = (index: (list: Choice[]) => number) => {
    const list = props.choicesFor(query);
    open.value = true;
    active.value = list.length === 0 ? -1 : index(list);
  };
  const close = () => {
    open.value = false;
    active.value = -1;
  };
  const pick = (choice: Choice) => {
    const was = query;
    typed.value = null;
    close();
    props.onPick(choice, was);
  };
  const leave = () => {
    const was = typed.value;
    typed.value = null;
    close();
    if (was !== null) props.onLeave?.(was);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const count = choices.length;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open.value || count === 0) openAt(opening);
        else if (!event.altKey) active.value = (active.value + 1) % count;
        return;
      case 'ArrowUp':
        event.preventDefault();
        if (!open.value || count === 0) openAt((list) => list.length - 1);
        else active.value = active.value <= 0 ? count - 1 : active.value - 1;
        return;
      case 'Enter':
        if (shown && active.value >= 0) {
          event.preventDefault();
          pick(choices[active.value]);
        } else if (typed.value !== null) {
          // What is typed is not taken yet: the list shows again (or says that nothing matches), and the form is not sent without it.
          event.preventDefault();
          openAt((list) => preferred(query, list));
        } else if (open.value) {
          event.preventDefault();
          close();
        } else leave();
        return;
      case 'Escape':
        if (open.value) {
          event.preventDefault();
          close();
        } else if (typed.value !== null) {
          event.preventDefault();
          typed.value = null;
        }
        return;
    }
  };

  const describedBy = [error ? `${id}-error` : null, props.describedBy ?? null].filter(Boolean).join(' ') || undefined;
  return (
    <span class="field combo">
      <label for={id} class={hiddenLabel ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <input
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={`${id}-listbox`}
        aria-activedescendant={shown && active.value >= 0 ? optionId(active.value) : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        autocomplete="off"
        spellcheck={false}
        value={typed.value ?? text}
        placeholder={placeholder}
        disabled={disabled}
        onInput={(e) => {
          const q = e.currentTarget.value;
          typed.value = q;
          open.value = true;
          active.value = preferred(q, props.choicesFor(q));
        }}
        onClick={() => {
          if (!open.value) openAt(opening);
        }}
        onKeyDown={onKeyDown}
        onBlur={leave}
      />
      <div role="listbox" id={`${id}-listbox`} aria-label={listLabel} class="combo-list" hidden={!shown}>
        {shown && <Options choices={choices} active={active.value} optionId={optionId} onPick={pick} />}
      </div>
      <span class="combo-none" role="status">
        {open.value && choices.length === 0 ? props.nothingFor(query) : ''}
      </span>
      {props.children}
      {error && (
        <span class="error" id={`${id}-error`} role="alert">
          {error}
        </span>
      )}
    </span>
  );
}

/** The options, those of one group under its heading (role group, named by the heading). */
function Options({ choices, active, optionId, onPick }: { choices: Choice[]; active: number; optionId(index: number): string; onPick(choice: Choice): void }) {
  const option = (choice: Choice, index: number) => (
    <div
      key={index}
      role="option"
      id={optionId(index)}
      aria-selected={index === active}
      class="combo-option"
      // The field keeps the focus (and is not left) when an option is clicked.
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => onPick(choice)}
    >
      {choice.label}
    </div>
  );
  const parts: JSX.Element[] = [];
  for (let index = 0; index < choices.length; ) {
    const group = choices[index].group;
    if (!group) {
      parts.push(option(choices[index], index));
      index++;
      continue;
    }
    const start = index;
    while (index < choices.length && choices[index].group?.key === group.key) index++;
    const headingId = `${optionId(start)}-group`;
    parts.push(
      <div key={`g${start}`} role="group" aria-labelledby={headingId}>
        <div role="presentation" id={headingId} class="combo-group">
          {group.label}
        </div>
        {choices.slice(start, index).map((choice, offset) => option(choice, start + offset))}
      </div>,
    );
  }
  return <>{parts}</>;
}
