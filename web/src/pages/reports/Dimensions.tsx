import { useSignal } from '@preact/signals';
import { DIMENSIONS, type Dimension } from './definition.js';

/**
 * The chosen dimensions in order: dragged to a new place, or moved with the Up and Down buttons
 * (the keyboard's way); one of the others added at the end; any but the last one removed.
 */
export function DimensionList({ value, onChange }: { value: Dimension[]; onChange(next: Dimension[]): void }) {
  const dragging = useSignal<number | null>(null);
  const announce = useSignal('');
  const move = (from: number, to: number) => {
    if (to < 0 || to >= value.length || from === to) return;
    const next = [...value];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved);
    onChange(next);
    announce.value = `${DIMENSIONS[moved]} is now grouping ${to + 1} of ${next.length}.`;
  };
  const others = (Object.keys(DIMENSIONS) as Dimension[]).filter((d) => !value.includes(d));
  return (
    <fieldset>
      <legend>Group by (in order; drag or use the arrows)</legend>
      <ol class="dimensions" aria-label="Grouping order">
        {value.map((dimension, i) => (
          <li
            key={dimension}
            draggable
            class={dragging.value === i ? 'dragging' : undefined}
            data-dimension={dimension}
            onDragStart={(event) => {
              dragging.value = i;
              event.dataTransfer?.setData('text/plain', dimension);
            }}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => {
              event.preventDefault();
              if (dragging.value !== null) move(dragging.value, i);
              dragging.value = null;
            }}
            onDragEnd={() => (dragging.value = null)}
          >
            <span class="grip" aria-hidden="true">
              ⋮⋮
            </span>
            <span class="dimension-name">{DIMENSIONS[dimension]}</span>
            <span class="row-actions">
              <button type="button" aria-label={`Move ${DIMENSIONS[dimension]} up`} disabled={i === 0} onClick={() => move(i, i - 1)}>
                ↑
              </button>
              <button type="button" aria-label={`Move ${DIMENSIONS[dimension]} down`} disabled={i === value.length - 1} onClick={() => move(i, i + 1)}>
                ↓
              </button>
              <button type="button" aria-label={`Remove ${DIMENSIONS[dimension]}`} disabled={value.length === 1} onClick={() => onChange(value.filter((d) => d !== dimension))}>
                ×
              </button>
            </span>
          </li>
        ))}
      </ol>
      {others.length > 0 && (
        <span class="row-actions">
          {others.map((dimension) => (
            <button type="button" key={dimension} onClick={() => onChange([...value, dimension])}>
              Add {DIMENSIONS[dimension].toLowerCase()}
            </button>
          ))}
        </span>
      )}
      <p class="visually-hidden" role="status">
        {announce.value}
      </p>
    </fieldset>
  );
}
