import { describedBy, Field } from '../../components/Field.js';
import { clients } from '../../data/clients.js';

/**
 * A project's client: none, or one of the unarchived clients; an archived client the project already
 * has stays offered, so saving keeps it (docs/rules.md §6 Projects).
 */
export function ClientSelect({ id, current, error }: { id: string; current: string | null; error?: string }) {
  const list = Object.values(clients.value)
    .filter((client) => !client.archived || client.id === current)
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Field id={id} label="Client" error={error}>
      <select id={id} name="clientId" {...describedBy(id, error)}>
        <option value="" selected={current === null}>
          No client
        </option>
        {list.map((client) => (
          <option key={client.id} value={client.id} selected={client.id === current}>
            {client.archived ? `${client.name} (archived)` : client.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
