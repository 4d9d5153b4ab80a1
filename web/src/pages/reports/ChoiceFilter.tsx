interface Choice {
  id: string;
  label: string;
}

interface Props {
  /** Names the group and its summary ("Projects"); ids of its boxes start with `filter-<idPrefix>-`. */
  title: string;
  idPrefix: string;
  choices: Choice[];
  chosen: string[];
  onChange(chosen: string[]): void;
  /** Called when the group is unfolded (its choices may be loaded only then). */
  onOpen?(): void;
}

/** A folded group of checkboxes narrowing a report to some of a list; none chosen means all. */
export function ChoiceFilter({ title, idPrefix, choices, chosen, onChange, onOpen }: Props) {
  const toggle = (id: string, on: boolean) => onChange(on ? [...chosen, id] : chosen.filter((x) => x !== id));
  return (
    <details onToggle={(e) => e.currentTarget.open && onOpen?.()}>
      <summary>
        {title} {chosen.length ? `(${chosen.length} chosen)` : '(all)'}
      </summary>
      <div class="choices" role="group" aria-label={title}>
        {choices.map((choice) => {
          // The empty id is a choice too ("No project", "No client", "No task", "No tag").
          const id = `filter-${idPrefix}-${choice.id || 'none'}`;
          return (
            <span class="check" key={choice.id}>
              <input type="checkbox" id={id} checked={chosen.includes(choice.id)} onChange={(e) => toggle(choice.id, e.currentTarget.checked)} />
              <label for={id}>{choice.label}</label>
            </span>
          );
        })}
      </div>
    </details>
  );
}
